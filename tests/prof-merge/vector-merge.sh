# Reference vector (doc/analysis-rules.md, Reference vectors): merge
# {[10,20],[0,5],[5,8],[15,25], [30,30],[40,35],[27,29]} gives
# [0,8],[10,25],[27,29].  No windows: one union over the whole capture;
# zero-length intervals vanish, touching ones merge.  The reversed [40,35]
# cannot be written in prof-tsv, where dur_ns is never negative: the stage
# library rejects it.
prof-merge "$top_srcdir/tests/prof-merge/vector-merge.tsv" | grep '^busy'
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nkernel\t40\t-5\t0\t1\tk\n' |
    prof-merge 2>&1 >/dev/null
echo "exit $?"
