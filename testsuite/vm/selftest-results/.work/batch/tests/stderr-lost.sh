echo "WARNING: Number of output records lost (buffers full): 5" >&2
