echo "WARNING: Number of errors: 1, skipped probes: 3" >&2
