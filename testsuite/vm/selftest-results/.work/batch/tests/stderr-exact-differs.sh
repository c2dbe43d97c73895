echo "ERROR: not the expected one" >&2
