# Device records (one per GPU the host had, most of them idle) and
# prof-roofline's peak metrics (no dev) make no rank of their own: this
# MI210 trace lists 4 devices but ran kernels on one, so the summary has
# one rank.  python3 counts the kernels per device from the raw JSON.
K="$CORPUS/pytorch_kineto/tracelens/mi210_gpu_only_trace.json.gz"
[ -f "$K" ] || exit 77
command -v python3 >/dev/null || exit 77
python3 - "$K" <<'PY'
import gzip, json, sys, collections
d = json.load(gzip.open(sys.argv[1]))
n = collections.Counter(e["pid"] for e in d["traceEvents"]
                        if e.get("cat") == "kernel")
print("json: %d devices; kernels per device: %s" %
      (len(d["deviceProperties"]), dict(n)))
PY
prof-ingest -q "$K" | prof-roofline -c mi300x | prof-render -f text | sed -n 1,2p
