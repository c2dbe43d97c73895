#!/bin/sh
# strfn_work.sh -- the workload of tests/strfn.stp: four writes to
# /dev/null, each one printf: UTF-16LE "Hi\351" + U+1F600 (a surrogate
# pair); UTF-32LE "OK" + U+1F600; UTF-16 with a lone surrogate; a marker
# word then UTF-32 U+110000 (past Unicode).
printf 'H\0i\0\351\0=\330\0\336\0\0' >/dev/null
printf 'O\0\0\0K\0\0\0\0\366\1\0\0\0\0\0' >/dev/null
printf 'B\0\0\330x\0\0\0' >/dev/null
printf 'Z\0\0\0\0\0\21\0\0\0\0\0' >/dev/null
