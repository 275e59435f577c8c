# Running prof-steps on its own output drops the window, group and
# inventory records it wrote and makes them again, so there is one set.
# The second run finds the steps the first one wrote into the kernels'
# step column, so its windows come from step ids (and start at a step's
# first kernel), and the first run's step id mismatches are gone.
cp "$top_srcdir/tests/prof-steps/markers.tsv" . && f=markers.tsv	# its name in the warnings
prof-steps "$f" | prof-steps | grep -v '^#' | awk -F'\t' '$1 == "window" || $1 == "group"'
awk -v n=5 -f "$top_srcdir/tests/prof-steps/gen-iter.awk" | prof-steps | prof-steps |
    awk -F'\t' '$1 == "window" || $1 == "group" || $6 ~ /confidence/'
