#!/bin/bash
# t1011-stats - --stats on the CPU: every figure equals ent(1)'s, on
# random, text, one-byte and empty inputs, sizes 1..20, tiny chunks in and
# out of order, pipes, gzip and zstd, csv as ent -t, the total and --merge
# (the cases are t/stats.sh's)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd ent
need_cmd python3
BACKEND=cpu
EXTRA=
. "$T_SRCDIR/stats.sh"
