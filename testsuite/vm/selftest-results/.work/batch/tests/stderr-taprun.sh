echo "taprun: module tk_x did not stop; unloading it anyway" >&2
