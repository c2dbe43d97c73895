echo "ERROR: expected" >&2
