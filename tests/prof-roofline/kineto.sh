# A Kineto trace from an H100 (Qwen1.5-0.5B inference; no 'flops' args,
# record_shapes on): kernels carry no shapes, so each takes the FLOPs of
# the host op that launched it, found through its correlation id, the
# cudaLaunchKernel's External id and the cpu_op with that id.  The
# independent check walks the raw JSON with python3: for every cuBLAS
# GEMM kernel, the op behind its correlation id and 2 * numel(A) * N
# (PyTorch semantics; linear's weight is [N, K]).  One GEMM is launched
# by cuLaunchKernel (a cuda_driver event), not the runtime.
K="$CORPUS/pytorch_kineto/tracelens/h100_Qwen1.5-0.5B-Chat_infer.json.gz"
[ -f "$K" ] || exit 77
command -v python3 >/dev/null || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$K" | prof-roofline -c h100 >out.tsv
echo '--- the first four GEMM kernels'
awk -v kind=kernel -v want=ts_ns,dur_ns,src_op,flops,bytes,dtype,ai,bound,mfu_ratio,bw_ratio,roofline_ns,tags -f "$f" out.tsv |
    awk -F"\t" 'NR == 1 || ($4 > 0 && n++ < 4)'
awk -v kind=kernel -v want=ts_ns,name,flops -f "$f" out.tsv |
    awk -F'\t' 'NR > 1 && $2 ~ /gemm/ { print $1 "\t" $3 }' >ours
python3 - "$K" >theirs <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
ev = d["traceEvents"]
base = min(e["ts"] for e in ev if e.get("ph") == "X" and "ts" in e)
ops = {e["args"]["External id"]: e for e in ev
       if e.get("cat") == "cpu_op" and "External id" in e.get("args", {})}
rt = {e["args"]["correlation"]: e["args"].get("External id") for e in ev
      if e.get("cat") in ("cuda_runtime", "cuda_driver")
      and "correlation" in e.get("args", {})}
def numel(s):
    n = 1
    for x in s: n *= x
    return n
used = set()
for e in sorted((e for e in ev if e.get("cat") == "kernel" and "gemm" in e["name"]),
                key=lambda e: e["ts"]):
    x = rt.get(e["args"]["correlation"])
    op = ops.get(x)
    fl = ""
    if op is not None and x not in used:
        used.add(x)
        dims = op["args"]["Input Dims"]
        n = op["name"]
        if n in ("aten::mm", "aten::bmm", "aten::matmul"):
            fl = 2 * numel(dims[0]) * dims[1][-1]
        elif n in ("aten::addmm", "aten::baddbmm"):
            fl = 2 * numel(dims[1]) * dims[2][-1]
        elif n == "aten::linear":
            fl = 2 * numel(dims[0]) * dims[1][0]
    print(e["ts"], fl, sep="\t")
PY
cut -f 2 ours >a
cut -f 2 theirs >b
printf 'gemm kernels %s, flops agree with python: ' "$(wc -l <a)"
cmp -s a b && echo yes || echo no
echo '--- op roof records rooflined, top 3 by time'
awk -v kind=roof -v want=scope,name,dtype,flops,ai,ridge,bound,mfu_ratio,bw_ratio,calls,dur_total_ns,cov_ratio,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || ($1 == "op" && $13 !~ /no_roofline/ && n++ < 3)' | cut -c 1-200
echo '--- run'
awk -v kind=roof,bottleneck -v want=kind,scope,name,flops,mfu_ratio,cov_ratio,value,evidence,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $2 == "run"'
