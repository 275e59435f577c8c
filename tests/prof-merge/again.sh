# A stream prof-merge already annotated is refused (its busy records
# would be added twice: prof-merge(1)'s busy-time example once doubled
# them); one it only merged (-m, whatever the options beside) is not.
d=$top_srcdir/examples/data/alexnet_2rank
prof-ingest -q "$d/rank0_ascend_pt" | prof-steps >a.tsv
prof-ingest -q "$d/rank1_ascend_pt" | prof-steps >b.tsv
prof-merge a.tsv >busy.tsv
prof-merge busy.tsv >again.tsv
echo "exit $?"
grep -c '^busy' busy.tsv
prof-merge -c -k kernel,comm -l 5 a.tsv | prof-merge >/dev/null
echo "exit $?"
prof-merge -m a.tsv b.tsv | prof-merge | grep -c '^busy'
prof-merge --merge-only a.tsv b.tsv | prof-merge -k kernel | grep -c '^busy'
prof-merge -m busy.tsv | prof-merge >/dev/null
echo "exit $?"
