# A B200 eager-mode trace through prof-steps: one forward pass, no step
# marker, one detected window (its 36 layers are not steps), and the
# step is launch-bound (the device idles most of the window).  Checked
# with awk over prof-steps' output: each step's busy_ns is the union of
# its kernels' intervals and idle_ns is the window less that union.
K="$CORPUS/pytorch_kineto/tracelens/b200_eager_trace.json.gz"
[ -f "$K" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$K" | prof-steps >in.tsv
prof-roofline -c b200 in.tsv >out.tsv
awk -v kind=bottleneck -v want=scope,step,name,value,dur_total_ns,evidence,tags -f "$f" out.tsv
echo '--- busy and idle by awk'
awk -v kind=kernel,window -v want=kind,ts_ns,dur_ns,step -f "$f" in.tsv | awk -F'\t' '
	NR == 1 { next }
	$1 == "window" { win[$4] = $3; next }
	$4 == "" { next }
	{ s = $2; e = $2 + $3
	  if (!($4 in end) || s >= end[$4]) { busy[$4] += e - s; end[$4] = e }
	  else if (e > end[$4]) { busy[$4] += e - end[$4]; end[$4] = e } }
	END { for (k in busy) printf "%s\tbusy_ns=%d\tidle_ns=%d\n", k, busy[k], win[k] - busy[k] }' |
    sort -n >awk.txt
awk -v kind=bottleneck -v want=scope,step,evidence -f "$f" out.tsv | awk -F'\t' '
	$1 == "step" { split($3, ev, ","); printf "%s\t%s\t%s\n", $2, ev[2], ev[8] }' >ours.txt
cmp -s awk.txt ours.txt && echo "busy and idle agree for $(wc -l <awk.txt) steps" || diff awk.txt ours.txt
