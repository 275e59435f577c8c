# The architecture report of a stream without layers: the bundled
# two-rank AlexNet profile with its convolution units turned off (-C):
# no attention kernel, and no repeating sequence above the detection's
# confidence, so no repeating structure found.  Every section is there:
# the configuration, the streams and the communication overlap from
# prof-layers' records, and for the others what is missing and what
# would supply it; exit 0.  The kernel counts are checked against the
# rows of each rank's kernel_details.csv.  Without prof-layers in the
# pipeline, the sections say so.
e=$top_srcdir/examples/data/alexnet_2rank
prof-ingest -q "$e" | prof-steps | prof-merge | prof-bubbles | prof-attrib |
    prof-waitanchor | prof-layers -C >run.tsv || exit 1
prof-render -f arch run.tsv >report.md
echo "exit $?"
cat report.md
echo '--- kernels per rank: kernel_details.csv rows, the report, its stream table'
for r in 0 1; do
	echo "rank $r: $(($(wc -l <"$e/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv") - 1))"
done | tee a
awk -F'|' '/^## Rank / { r = $0; sub(/## Rank /, "", r) }
    $2 == " Kernels " { gsub(/ /, "", $3); n[r] = $3 }
    $3 ~ /^ (main_compute|compute|comm|ai_cpu) $/ { s[r] += $4 }
    END { for (r = 0; r <= 1; r++) printf "rank %d: %s\nrank %d: %d\n", r, n[r], r, s[r] }' report.md >b
awk 'NR % 2 == 1' b | cmp -s a - && echo 'report agrees' || echo 'report DISAGREES'
awk 'NR % 2 == 0' b | cmp -s a - && echo 'stream table agrees' || echo 'stream table DISAGREES'
echo '--- without prof-layers'
prof-ingest -q "$e" | prof-render -f arch >bare.md
echo "exit $?"
grep -E '^(#|Missing)' bare.md
