# The soft-attribution reference vectors (doc/analysis-rules.md, Reference
# vectors), bubble [1000,2000] us, one rank per vector, with the
# reference's three marker lists given as cat values (ref.markers):
#   dev 0 no markers                      -> 0/0/0, untraced
#   dev 1 host [900,1500]                 -> host 0.5, launch lag
#   dev 2 host [1000,1070], one thread    -> host 0.07, par 1: serialization
#   dev 3 host full, sync [1100,1300], comm [1500,1800]
#                                         -> 1/0.2/0.3, sync and comm
#   dev 4 sync [1100,1200]+[1150,1250]    -> sync 0.15 (union), untraced
#   dev 5 zero-length bubble [5,5]        -> empty ratios, untraced
# Then dev 2 without the parallelism rule (--par-max=0, the reference
# without a hint): insufficient_evidence.
m=$top_srcdir/tests/prof-attrib/ref.markers
in=$top_srcdir/tests/prof-attrib/vectors.tsv
prof-attrib -n -M "$m" "$in" | grep '^bubble' |
    cut -f 4,10,11-15
prof-attrib -n -M "$m" --par-max=0 "$in" | grep '^bubble.*b2' |
    cut -f 4,10,11-15
