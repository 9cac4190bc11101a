#!/bin/bash
# t3601-gpu-stats-devices - --stats spread over several devices (every
# device there is, or device 0 twice, which gets two of everything): the
# sums of each device's chunks add up to ent's figures (t/stats.sh's cases)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
need_cmd ent
need_cmd python3
BACKEND=gpu
if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -gt 1 ]; then
	EXTRA=--devices=all
else
	EXTRA=--devices=0,0
fi
. "$T_SRCDIR/stats.sh"
