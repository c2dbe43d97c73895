echo fine; echo "a warning that is not a problem: WARNING: x" >&2
