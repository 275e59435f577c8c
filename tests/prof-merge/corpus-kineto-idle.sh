# Kineto traces, whole capture (-c): busy is the union of all GPU
# intervals and span - busy the idle time of HTA's temporal breakdown.
# Checked against a direct computation from the JSON (kernel, gpu_memcpy,
# gpu_memset events in integer ns): busy agrees exactly; the span here
# starts at the first non-empty interval, 48 ns after HTA's on the first
# trace, whose first GPU event has zero duration.
[ -d "$CORPUS/pytorch_kineto" ] || exit 77
for f in hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz \
    hta/critical_path_alexnet_trace.json.gz \
    hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
    tracelens/h100_bert-small_infer.json.gz; do
	echo "$f"
	prof-ingest -q "$CORPUS/pytorch_kineto/$f" | prof-merge -c |
	    awk -F'\t' '$1 == "busy" {
		if (!($4 in s)) s[$4] = $2
		e[$4] = $2 + $3; b[$4] += $3
	    }
	    END {
		for (d in s)
			printf "dev %s span_ns %.0f busy_ns %.0f idle_ns %.0f\n", d,
			    e[d] - s[d], b[d], e[d] - s[d] - b[d]
	    }' | sort
done
