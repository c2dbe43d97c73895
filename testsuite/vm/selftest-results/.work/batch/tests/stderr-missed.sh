echo "WARNING: Number of probe hits the kernel missed: 2" >&2
