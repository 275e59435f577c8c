# No markers, no step ids: the iteration is found in the kernel sequence.
# The capture starts inside an iteration (step 1, cut_start); each step
# starts where the device went idle, so the data loading that opens an
# iteration belongs to it.  Last, two periods in all, cut at both ends:
# the kernels before the first occurrence of a name complete its second
# period, which the end of the capture cut.
awk -v n=5 -f "$top_srcdir/tests/prof-steps/gen-iter.awk" >iter.tsv
prof-steps iter.tsv | grep -v '^#' |
    awk -F'\t' '$1 != "kernel" && ($1 != "metric" || $6 == "kernel_count" ||
        $6 == "step_detect_confidence")'
echo "-- no-detect"
prof-steps -d iter.tsv | awk -F'\t' '$1 == "window" || $1 == "group" ||
    $6 == "step_detect_confidence"'
echo "-- too short to tell"
awk -v n=1 -f "$top_srcdir/tests/prof-steps/gen-iter.awk" | prof-steps |
    awk -F'\t' '$1 == "window" || $6 == "step_detect_confidence"'
echo "-- two periods in all, cut at both ends"
awk -v n=3 -v last=5 -f "$top_srcdir/tests/prof-steps/gen-iter.awk" |
    prof-steps | awk -F'\t' '$1 == "window" || $6 == "step_detect_confidence"'
