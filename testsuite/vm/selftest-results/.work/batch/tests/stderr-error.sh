echo "ERROR: division by 0 near operator '/' at x.stp:1:2" >&2
