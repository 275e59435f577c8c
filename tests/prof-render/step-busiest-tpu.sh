# The step shown on the corpus TPU capture (four TPU devices, 100 steps
# detected per device): the busiest by default, checked against the
# busy_union_ns of the stream summed per step id with awk; then the
# step named with --step.
f=$CORPUS/tpu_xla/xprof/tpu_inference_2.xplane.pb
[ -r "$f" ] || exit 77
prof-ingest -q "$f" | prof-steps -q | prof-merge | prof-bubbles >run.tsv
prof-render -f text run.tsv | sed -n '/^step shown/,/^rank/p' | grep -v '^rank'
awk -F'\t' '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
	$1 == "window" {if (!($c["step"] in t) || $2 < t[$c["step"]]) t[$c["step"]] = $2}
	$1 == "metric" && $c["name"] == "busy_union_ns" {s[$c["step"]] += $c["value"]; n[$c["step"]]++}
	END {for (k in s) if (best == "" || s[k] > s[best] ||
	    (s[k] == s[best] && t[k] < t[best])) best = k
	    printf "independent: step %s, %.0f ns over %d ranks\n", best, s[best], n[best]}' run.tsv
prof-render -f json run.tsv | python3 -c '
import json, sys
print(json.dumps(json.load(sys.stdin)["step_shown"], sort_keys=True))'
prof-render -S 50 -f md run.tsv | sed -n '/^Shown:/p'
