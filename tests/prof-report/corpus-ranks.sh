# Rank pipelines give the reports one pipeline gives, on a real job where
# one rank has no device data (the 4-rank Qwen capture of the corpus: its
# rank 1 holds communication only, which prof-attrib judges so only
# beside rank 0, so prof-attrib runs on the merged stream): the
# Markdown report (but its list of stages), the JSON object (but its
# stages), the HTML page and the summaries are the same.
C="$CORPUS/ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11"
[ -d "$C" ] || exit 77
prof-report -q -s ranks -j2 -c 910b3 -N q -o split "$C" || exit 1
prof-report -q -s none -c 910b3 -N q -o one "$C" || exit 1
for f in anomaly_report_q.md summary_q.txt report.html; do
	if [ $f = anomaly_report_q.md ]; then
		grep -v '^Stages: ' one/$f >a; grep -v '^Stages: ' split/$f >b
	else
		cp one/$f a; cp split/$f b
	fi
	cmp -s a b && echo "$f: the same" || { echo "$f differs:"; diff a b | head -n 10; }
done
python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for o in (a, b):
    o.pop("stages", None)
print("anomaly_discovery_q.json:", "the same but its stages" if a == b else "differs")' \
    one/anomaly_discovery_q.json split/anomaly_discovery_q.json
COLUMNS=80 prof-report -s ranks -j2 -c 910b3 -N q -o split "$C" | sed -n '1,6p'
