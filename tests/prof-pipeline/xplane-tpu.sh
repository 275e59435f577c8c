# The whole pipeline on a generated TPU XPlane (tests/xplane-gen.py tpu):
# prof-roofline takes the chip from the device record ("TPU v6 Lite" is
# tpu-v6e, per device), uses XLA's FLOPs and bytes as given, holds the f32
# ops against the bf16 peak (dtype_uncertain); the while loop is a mark,
# so busy time is the ops' union, not the loop's span; the Steps line
# gives the two windows; the verdict and the report are made.
command -v python3 >/dev/null 2>&1 || exit 77
python3 "$top_srcdir/tests/xplane-gen.py" tpu t.xplane.pb
prof-ingest t.xplane.pb | prof-steps | prof-merge | prof-bubbles |
    prof-attrib | prof-waitanchor | prof-roofline | prof-layers |
    prof-verdict >p.tsv
echo "pipeline: exit $?"
awk -F'\t' '
/^#/ { next }
!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
$1 == "kernel" && $c["step"] == 1 {
	print "kernel", $c["name"], $c["type"], $c["dtype"], $c["flops"],
	    $c["bytes"], $c["bound"], $c["mfu_ratio"], $c["tags"] }
$1 == "window" { print "window", $c["dev"], $c["name"], $c["dur_ns"], $c["cat"] }
$1 == "busy" && $c["step"] != "" { print "busy", $c["step"], $c["dur_ns"] }
$1 == "metric" && $c["name"] ~ /^peak/ { print "peak", $c["dtype"], $c["value"], $c["tags"] }
$1 == "verdict" && $c["scope"] == "run" { print "verdict", $c["name"], $c["share_ratio"], $c["chip"] }
' OFS='\t' p.tsv
prof-render -f md p.tsv | grep -c '^## '
