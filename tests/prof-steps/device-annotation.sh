# ROCm device-side step annotations that disagree with the host ones, on
# a real capture (tests/data/SOURCES: three training steps of a ResNet
# with activation checkpointing on an MI300).  The device copies of
# ProfilerStep#15..17 last 18 us and sit about 32 ms after the host
# ones; every host step launched 895 kernels (linked by corr).  The
# device copies cover none of those kernels, so the host markers are
# used, moved to the device through the launches (launch_aligned,
# device_marker_mismatch): 895 kernels per step.  The 968 kernels the
# device ran first were launched before the capture: they lie outside
# every step, counted in two metrics and a warning.  -q keeps the
# metrics and drops the warning.  Without the markers, detection finds
# the period of 895 kernels, an optimizer step in each, and cuts the
# same three steps; the kernels launched before the capture (no launch
# record in the trace) are outside every step there too.
. "$top_srcdir/tests/prof-steps/equiv.subr"
gzip -dc "$DATA/mi300_resnet_steps.tsv.gz" >r.tsv
prof-steps r.tsv | awk -F'\t' '
    $1 == "window" { print $1, $2, $3, $6, $7, $NF }
    $1 == "metric" && ($6 == "kernel_count" || $6 ~ /outside/) {
	print $1, $6, $(NF - 2) }'
echo "-- quiet"
prof-steps -q r.tsv | grep -c 'outside_steps'
echo "-- with the markers, and without"
equiv r.tsv
