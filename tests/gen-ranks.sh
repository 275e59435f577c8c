#!/bin/sh
# gen-ranks.sh DIR N [SLOW [STEPS]]: write N small Kineto traces of one
# job, one per rank, as DIR/rank_R/trace.json (R from 0): STEPS steps
# (default 3), each a host
# ProfilerStep#S over a GEMM and an NCCL all-reduce on the GPU.  Rank
# SLOW (default N - 1) computes 20 % longer, so every other rank waits
# for it at the all-reduce, which ends on every rank at once.  Used by
# tests/cluster-parallel.sh and the benchmark; times are in us, as
# Kineto writes them.
set -eu
dir=$1 n=$2 slow=${3:-$(($2 - 1))} steps=${4:-3}
r=0
while [ "$r" -lt "$n" ]; do
	mkdir -p "$dir/rank_$r"
	awk -v r="$r" -v n="$n" -v slow="$slow" -v steps="$steps" 'BEGIN {
	printf "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": %d, " \
	    "\"world_size\": %d, \"backend\": \"nccl\"},\n", r, n
	printf "\"traceEvents\": [\n"
	sep = ""
	t = 1000
	for (s = 1; s <= steps; s++) {
		gemm = (r == slow) ? 1200 : 1000
		ar_start = t + 10 + gemm + 5
		ar_end = t + 10 + 1200 + 5 + 300	# the slow rank plus 300
		printf "%s{\"ph\": \"X\", \"cat\": \"user_annotation\", " \
		    "\"name\": \"ProfilerStep#%d\", \"pid\": 100, \"tid\": 100, " \
		    "\"ts\": %d, \"dur\": %d}", sep, s, t, ar_end + 20 - t
		sep = ",\n"
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": " \
		    "\"sm90_xmma_gemm_bf16\", \"pid\": 0, \"tid\": 7, \"ts\": %d, " \
		    "\"dur\": %d, \"args\": {\"device\": 0, \"stream\": 7, " \
		    "\"correlation\": %d}}", sep, t + 10, gemm, s * 2
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": " \
		    "\"ncclDevKernel_AllReduce_Sum_bf16_RING_LL\", \"pid\": 0, " \
		    "\"tid\": 8, \"ts\": %d, \"dur\": %d, \"args\": {\"device\": " \
		    "0, \"stream\": 8, \"correlation\": %d}}", sep, ar_start,
		    ar_end - ar_start, s * 2 + 1
		t = ar_end + 100
	}
	printf "\n]}\n"
	}' >"$dir/rank_$r/trace.json"
	r=$((r + 1))
done
