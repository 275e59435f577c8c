# An older Kineto trace (A100, fp32 training, 2021 format): launches and
# kernels carry the correlation id as External id, so a kernel's op is
# the innermost cpu_op open around its launch on the launching thread.
# The independent check walks the raw JSON with python3: for every GEMM
# kernel, the innermost cpu_op around its launch and, when that is a
# GEMM op, 2 * numel(A) * N (the first kernel of an op only).  The fp32
# GEMMs ran on TF32 tensor cores (CUTLASS "s1688gemm" kernels), so they
# are held against the tf32 peak (156 TFLOP/s), tagged tf32_from_name;
# other fp32 kernels against the fp32 one; --peak-flops changes either.
# By hand, the first: addmm([512], [1024, 1705], [1705, 512]) is
# 2 * 1024 * 1705 * 512 = 1787822080 FLOPs, 11460 ns at 156 TFLOP/s.
K="$CORPUS/pytorch_kineto/hta/trace_diff_control_a100_rank3of8.json.gz"
[ -f "$K" ] || exit 77
command -v python3 >/dev/null || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$K" >in.tsv
prof-roofline -c a100-40gb in.tsv >out.tsv
awk -v kind=kernel -v want=ts_ns,name,flops -f "$f" out.tsv |
    awk -F'\t' 'NR > 1 && $2 ~ /gemm/ { print $3 }' >ours
python3 - "$K" >theirs <<'PY'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
ops = {}
for e in ev:
    if e.get("cat") == "cpu_op" and e.get("ph") == "X":
        ops.setdefault((e["pid"], e["tid"]), []).append(e)
launch = {e["args"]["correlation"]: e for e in ev
          if e.get("cat") in ("cuda_runtime", "cuda_driver")
          and "correlation" in e.get("args", {})}
def numel(s):
    n = 1
    for x in s: n *= x
    return n
def flops(op):
    d, n = op["args"].get("Input Dims"), op["name"]
    if n in ("aten::mm", "aten::bmm", "aten::matmul"):
        return 2 * numel(d[0]) * d[1][-1]
    if n in ("aten::addmm", "aten::baddbmm"):
        return 2 * numel(d[1]) * d[2][-1]
    if n == "aten::linear":
        return 2 * numel(d[0]) * d[1][0]
    return None
used = set()
for k in sorted((e for e in ev if e.get("cat") == "kernel" and "gemm" in e["name"]),
                key=lambda e: e["ts"]):
    l = launch.get(k["args"].get("correlation"))
    fl = ""
    if l is not None:
        around = [o for o in ops.get((l["pid"], l["tid"]), [])
                  if o["ts"] <= l["ts"] < o["ts"] + o["dur"] and flops(o) is not None]
        if around:
            op = max(around, key=lambda o: o["ts"])
            if id(op) not in used:
                used.add(id(op))
                fl = flops(op)
    print(fl)
PY
printf 'gemm kernels %s, with flops %s, flops agree with python: ' \
    "$(wc -l <ours)" "$(grep -c . ours)"
cmp -s ours theirs && echo yes || echo no
echo '--- the first three cutlass GEMM kernels, then with --peak-flops tf32=312000000000000'
w=name,src_op,flops,bytes,dtype,ai,bound,mfu_ratio,roofline_ns,shortfall_ns,tags
awk -v kind=kernel -v want=$w -f "$f" out.tsv | awk -F'\t' 'NR == 1 || ($1 ~ /cutlass/ && n++ < 3)'
prof-roofline -c a100-40gb --peak-flops tf32=312000000000000 in.tsv |
    awk -v kind=kernel -v want=$w -f "$f" | awk -F'\t' '$1 ~ /cutlass/ && n++ < 3'
echo '--- run'
awk -v kind=roof,bottleneck -v want=kind,scope,name,flops,mfu_ratio,bw_ratio,cov_ratio,value,evidence,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $2 == "run"'
