#!/bin/bash
# t3600-gpu-stats - --stats on the GPU: every figure equals ent(1)'s, the
# stream sums counted by the kernel beside the byte totals (the cases are
# t/stats.sh's, as t1011 runs them on the CPU)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
need_cmd ent
need_cmd python3
BACKEND=gpu
EXTRA=
. "$T_SRCDIR/stats.sh"
