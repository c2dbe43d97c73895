grep -c '^dummy ' /proc/modules || true
