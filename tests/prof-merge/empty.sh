# Empty inputs: no preamble, no header, no records.  Alone they give a
# stream with the fixed columns (and the busy columns) and no records;
# beside another input they add nothing and need no #origin_ns.
: >empty.tsv
prof-merge empty.tsv
prof-merge -m empty.tsv empty.tsv
prof-merge -m empty.tsv "$top_srcdir/tests/prof-merge/rank1.tsv" | sed '/^#stage prof-merge /d'
