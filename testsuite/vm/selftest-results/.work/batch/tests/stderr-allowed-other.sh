echo "WARNING: Number of errors: 0, skipped probes: 3" >&2; echo "ERROR: other" >&2
