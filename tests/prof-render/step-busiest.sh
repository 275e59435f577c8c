# The single-step views (the step shown in md, text and json) show the
# busiest step by default: the most device busy time in its windows,
# summed over the ranks, the earliest on a tie; --step names another.
# Five steps on two ranks: step 3, neither the first nor the last, has
# the most busy time (rank 0: 6 ms, rank 1: 5 ms); steps 2 and 4 tie at
# 7 ms summed over the ranks, below step 3's 11 ms.
{
printf '#prof-tsv 1\n#origin_ns 1000000000\n'
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\n'
awk 'BEGIN {
	# step N: a marker at N * 10 ms, 9 ms long; a kernel 1 ms in,
	# of the busy time in units of 0.1 ms
	split("20 30 60 40 10", b0, " "); split("10 40 50 30 10", b1, " ")
	for (n = 1; n <= 5; n++) {
		t = 10000000 * n
		printf "step\t%d\t9000000\t0\t100\tProfilerStep#%d\tuser_annotation\n", t, n
		printf "step\t%d\t9000000\t1\t100\tProfilerStep#%d\tuser_annotation\n", t, n
		printf "kernel\t%d\t%d\t0\t7\tk\tkernel\n", t + 1000000, b0[n] * 100000
		printf "kernel\t%d\t%d\t1\t7\tk\tkernel\n", t + 1000000, b1[n] * 100000
	}
}'
} >run0.tsv
prof-steps -q run0.tsv | prof-merge | prof-bubbles >run.tsv
echo '== md'
prof-render -f md run.tsv | sed -n '/^### The step shown/,/^### Steps/p'
echo '== text'
prof-render -f text run.tsv | sed -n '/^step shown/,/^rank/p' | grep -v '^rank'
echo '== json'
prof-render -f json run.tsv | python3 -c '
import json, sys
print(json.dumps(json.load(sys.stdin)["step_shown"], sort_keys=True))'
# The busiest checked against the stream itself: busy_union_ns per step
# summed over the ranks, the largest, the earliest window on a tie.
awk -F'\t' '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
	$1 == "window" {if (!($c["step"] in t) || $2 < t[$c["step"]]) t[$c["step"]] = $2}
	$1 == "metric" && $c["name"] == "busy_union_ns" {s[$c["step"]] += $c["value"]}
	END {for (k in s) if (best == "" || s[k] > s[best] ||
	    (s[k] == s[best] && t[k] < t[best])) best = k
	    print "independent: step " best ", " s[best] " ns"}' run.tsv
echo '== --step 4 (tied with 2 at 7 ms)'
prof-render -S 4 -f text run.tsv | sed -n '/^step shown/,/^ *rank 1/p'
echo '== a tie: only steps 2 and 4 kept, 2 is the earlier'
awk -F'\t' '$1 != "kernel" || ($2 != 31000000 && $2 != 11000000 && $2 != 51000000)' run0.tsv |
    prof-steps -q | prof-merge | prof-bubbles | prof-render -f text |
    sed -n '/^step shown/,/^ *rank 1/p'
echo '== a step not in the stream'
prof-render --step=9 -f md run.tsv | sed -n '/^### The step shown/,/^### Steps/p'
prof-render --step= run.tsv 2>&1; echo "exit $?"
echo '== without prof-bubbles: no busy time, no step shown'
prof-steps -q run0.tsv | prof-render -f md | grep -c 'step shown'
prof-steps -q run0.tsv | prof-render -f json | python3 -c '
import json, sys
print(json.load(sys.stdin)["step_shown"])'
echo '== the JSON report against the schema and the stream'
prof-render -f json run.tsv >r.json
python3 "$top_srcdir/tests/prof-render/check-json.py" \
    "$top_srcdir/tests/prof-render/anomaly_discovery.schema.json" run.tsv r.json
