#!/bin/sh
# No false follow-up on any corpus run (issue 12, "What users must get";
# item 5 of "What to build").  A follow-up asks the user to capture again
# with more evidence; it is false when the capture already holds that
# evidence, or when the profiler has no such field at all:
#
#   with_stack     false when the rank's capture has Python stacks:
#                  python_function events or `Call stack` args (Kineto,
#                  trace_view.json), a filled `Call Stack` column
#                  (operator_details.csv), with_stack=1 in a Kineto trace or
#                  with_stack true in profiler_info_N.json
#   record_shapes  false when it has shapes: filled `Input Dims` / `Input
#                  Shapes` args on cpu ops or kernels, a filled Input Shapes
#                  column (kernel_details.csv, operator_details.csv,
#                  op_summary), record_shapes=1 / record_shapes true
#   wait time      false on every Kineto (GPU) trace, whose profiler has no
#                  wait field, and where kernel_details.csv / op_summary
#                  already has a Wait Time(us) / Task Wait Time(us) column
#   (all three are false on an op-simulator trace: no host, no Python)
#
# What each rank's capture holds is computed from the raw files by
# tests/verdict-evidence.py --facts (python3, standard library, not
# proftools; see its header for the files it reads).  For each run of
# tests/data/verdict-expected.tsv the pipeline
#   prof-ingest -q -k RUN | prof-steps | prof-merge | prof-bubbles |
#   prof-attrib | prof-waitanchor | prof-roofline | prof-verdict
# runs once, then prof-render -f json; the follow-ups proposed are read
# from the `followup` column of `cause` records, `advice` records with
# followup=1 (action id and text), and the JSON report (every `followup`
# list, and every object with `followup_required` or `followup` true, by
# its action/name/text; its `dev` or `devs`, else every rank of the run).
# Each false one fails, named by run, rank, where it was proposed and what
# the capture holds.  Follow-ups of other kinds (host sampling, comm/sync
# inspection) are counted, not judged.
#
# A missing prof-verdict fails.  Skipped (77) without the corpus or python3.
. "${top_srcdir:-.}/tests/lib.sh"

corpus=$(corpus_dir)
[ -d "$corpus" ] || skip_ "no corpus at $corpus"
if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3
else py=$(command -v python3 2>/dev/null) || skip_ "no python3"
fi
PATH="$top_builddir/tools:$PATH"; export PATH
table="$top_srcdir/tests/data/verdict-expected.tsv"
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
failed=0

for t in prof-ingest prof-steps prof-merge prof-bubbles prof-attrib \
    prof-waitanchor prof-roofline prof-verdict prof-render; do
	command -v "$t" >/dev/null 2>&1 ||
	    fail_ "$t is not built: the follow-ups cannot be checked"
done

"$py" "$top_srcdir/tests/verdict-evidence.py" --facts "$corpus" \
    >"$tmp/facts" 2>"$tmp/py.err" ||
    { cat "$tmp/py.err"; fail_ "verdict-evidence.py --facts failed"; }

# The checker: reads the facts, one run's cause/advice records and its
# JSON report, prints "FALSE<TAB>..." per false follow-up and one
# "COUNT<TAB>judged<TAB>other" line.
cat >"$tmp/check.py" <<'EOF'
import csv, json, re, sys

facts_path, run, tsv_path, json_path = sys.argv[1:5]
facts = {}
with open(facts_path, newline="") as fh:
    for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
        if r["run"] == run:
            facts[r["dev"]] = r
KINDS = (("with_stack", "stacks",
          re.compile(r"with_stack|call ?stack|python (call )?stack", re.I)),
         ("record_shapes", "shapes",
          re.compile(r"record_shapes|input shapes", re.I)),
         ("wait time", "wait",
          re.compile(r"wait[ _-]?times?\b|wait_ns|Wait Time", re.I)))
judged = other = 0

def check(dev, where, text):
    global judged, other
    devs = sorted(facts) if dev in ("", "*") else [dev]
    hit = False
    for kind, key, rx in KINDS:
        if not rx.search(text):
            continue
        hit = True
        judged += 1
        held = [facts[d][key] for d in devs if d in facts and facts[d][key]]
        # a proposal for no rank in particular is false only when every
        # rank already has the evidence
        if held and len(held) == len([d for d in devs if d in facts]):
            print("FALSE\t%s\t%s\t%s\t%s\t%s" % (
                run, ",".join(devs), kind, where, held[0]))
    if not hit:
        other += 1

# the stream: cause followup items, advice with followup=1
with open(tsv_path, newline="") as fh:
    rows = [l.rstrip("\n").split("\t") for l in fh if not l.startswith("#")]
if rows:
    col = {n: i for i, n in enumerate(rows[0])}
    get = lambda r, n: r[col[n]] if n in col and col[n] < len(r) else ""
    for r in rows[1:]:
        if r[0] == "cause" and get(r, "followup"):
            for item in get(r, "followup").split(","):
                check(get(r, "dev"), "cause %s (%s)" % (get(r, "name"),
                      get(r, "scope")), item)
        elif r[0] == "advice" and get(r, "followup") == "1":
            check(get(r, "dev"), "advice %s" % get(r, "name"),
                  get(r, "name") + " " + get(r, "text"))

# the JSON report
def walk(o, path, dev):
    if isinstance(o, list):
        for i, v in enumerate(o):
            walk(v, "%s[%d]" % (path, i), dev)
        return
    if not isinstance(o, dict):
        return
    devs = [str(o["dev"])] if o.get("dev") not in (None, "") else \
        [str(d) for d in o.get("devs") or []] or dev
    fu = o.get("followup")
    if isinstance(fu, list) or (isinstance(fu, str) and fu):
        for item in (fu if isinstance(fu, list) else fu.split(",")):
            for d in devs:
                check(d, "json %s.followup" % path, str(item))
    if o.get("followup_required") is True or fu is True or fu == 1:
        text = " ".join(str(o.get(k, "")) for k in
                        ("action", "name", "text", "id"))
        for d in devs:
            check(d, "json %s" % path, text)
    for k, v in o.items():
        walk(v, "%s.%s" % (path, k), devs)

with open(json_path) as fh:
    walk(json.load(fh), "$", ["*"])
print("COUNT\t%d\t%d" % (judged, other))
EOF

# One pipeline per run; the exit status of every stage is kept.
pipeline() {
	{ prof-ingest -q -k "$1"; echo "prof-ingest $?" >>"$tmp/rc"; } |
	{ prof-steps; echo "prof-steps $?" >>"$tmp/rc"; } |
	{ prof-merge; echo "prof-merge $?" >>"$tmp/rc"; } |
	{ prof-bubbles; echo "prof-bubbles $?" >>"$tmp/rc"; } |
	{ prof-attrib; echo "prof-attrib $?" >>"$tmp/rc"; } |
	{ prof-waitanchor; echo "prof-waitanchor $?" >>"$tmp/rc"; } |
	{ prof-roofline; echo "prof-roofline $?" >>"$tmp/rc"; } |
	{ prof-verdict; echo "prof-verdict $?" >>"$tmp/rc"; }
}

grep -v '^#' "$table" | awk -F'\t' 'NR > 1 { print $1 }' | uniq >"$tmp/runs"
runs=0
: >"$tmp/false"
: >"$tmp/counts"
while IFS= read -r run; do
	runs=$((runs + 1))
	: >"$tmp/rc"
	pipeline "$corpus/$run" >"$tmp/out" 2>"$tmp/err"
	prof-render -f json "$tmp/out" >"$tmp/json" 2>>"$tmp/err"
	echo "prof-render $?" >>"$tmp/rc"
	if grep -v ' 0$' "$tmp/rc" >"$tmp/bad"; then
		echo "FAIL: $run: $(tr '\n' ' ' <"$tmp/bad")"
		sed "s|^|    |" "$tmp/err" | head -n 5
		failed=1
		continue
	fi
	# only the header and the records that carry follow-ups
	awk -F'\t' '/^#/ { next } !h { print; h = 1; next }
	    $1 == "cause" || $1 == "advice"' "$tmp/out" >"$tmp/recs"
	"$py" "$tmp/check.py" "$tmp/facts" "$run" "$tmp/recs" "$tmp/json" \
	    >"$tmp/res" 2>"$tmp/err" || {
		echo "FAIL: $run: checker:"; cat "$tmp/err"; failed=1; continue
	}
	grep '^FALSE' "$tmp/res" | cut -f2- >>"$tmp/false"
	grep '^COUNT' "$tmp/res" >>"$tmp/counts"
done <"$tmp/runs"
judged=$(awk -F'\t' '{ n += $2 } END { print n + 0 }' "$tmp/counts")
other=$(awk -F'\t' '{ n += $3 } END { print n + 0 }' "$tmp/counts")

if [ -s "$tmp/false" ]; then
	echo "FAIL: $(wc -l <"$tmp/false") false follow-ups (the capture" \
	    "already holds the evidence, or the profiler has no such field):"
	{ printf 'run\tdev\tfollow-up\tproposed in\tthe capture holds\n'
	  sort -u "$tmp/false"; } | cut -c1-300 |
	    { column -t -s '	' 2>/dev/null || cat; }
	failed=1
fi
echo "$runs runs: $judged stack/shape/wait follow-ups judged," \
    "$other others not judged"
exit $failed
