# Follow-ups only for evidence the capture lacks (one significant,
# untraced bubble per rank, so host_sampling stays; every rank has a
# kernel, without shapes unless said):
#   rank 0: no Python frame, no shapes, nothing declared: with_stack and
#     record_shapes;
#   rank 1: its source declares call stacks (#evidence, as prof-ingest
#     writes for 'Call stack' args) and a kernel has input shapes: none;
#   rank 2: a Python frame and a host event with shapes: none;
#   rank 3: its source declares shapes, no stacks: with_stack only.
# Then a source without a rank declares stacks and shapes for every
# rank.  Never a wait-time follow-up.
in=$top_srcdir/tests/prof-attrib/followup.tsv
prof-attrib "$in" | awk -v kind=cause -v want=dev,name,followup \
    -f "$top_srcdir/tests/cols.awk"
prof-attrib "$in" | awk -v kind=cause -v want=evidence \
    -f "$top_srcdir/tests/cols.awk" | sed 1d | sed 's/.*; //'
{
	printf '#prof-tsv 1\n#source 0 kineto - all.json\n'
	printf '#evidence 0 stacks,shapes\n'
	grep -v '^#' "$in"
} | prof-attrib | awk -v kind=cause -v want=dev,name,followup \
    -f "$top_srcdir/tests/cols.awk"
