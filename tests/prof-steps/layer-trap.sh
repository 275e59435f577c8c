# The layer-period trap, on a real capture (tests/data/SOURCES): one
# inference forward of bert-small on an H100, 61 kernels, ProfilerStep#6
# on host and device.  Its four encoder layers repeat and nothing else
# does; without the markers the period of 12 kernels must be reported as
# 4 layers of one pass, and the one window holds all 61 kernels, as the
# marker step does, at a confidence well below 1.
. "$top_srcdir/tests/prof-steps/equiv.subr"
gzip -dc "$DATA/h100_bert_steps.tsv.gz" >b.tsv
grep -v '^step	' b.tsv | prof-steps | awk -F'\t' '
    $1 == "window" { print $1, $2, $3, $6, $7, $NF }
    $1 == "metric" && ($6 ~ /^period_/ || $6 == "step_detect_confidence" ||
	$6 == "kernel_count") { print $1, $6, $(NF - 2), $NF }'
echo "-- with the markers, and without"
equiv b.tsv
