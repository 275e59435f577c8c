# -S: the step the reports' single-step views show, passed on to
# prof-render (the busiest by default); an empty one is a usage error.
f=$CORPUS/tpu_xla/xprof/tpu_inference_2.xplane.pb
[ -r "$f" ] || exit 77
prof-report -q -o def "$f"; echo "exit $?"
sed -n '/^Shown:/p' def/anomaly_report_*.md | cut -c1-120
prof-report -q -S 50 -o s50 "$f"; echo "exit $?"
sed -n '/^Shown:/p' s50/anomaly_report_*.md | cut -c1-120
python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["step_shown"]["step_id"])' s50/anomaly_discovery_*.json
prof-report -q --step=7 -o s7 "$f"; echo "exit $?"
sed -n '/^Shown:/p' s7/anomaly_report_*.md | cut -c1-60
prof-report -S '' "$f" 2>&1; echo "exit $?"
