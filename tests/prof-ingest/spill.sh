# With a tiny memory budget the sorted runs spill to disk; the stream must
# be byte-identical to the in-memory one.
ln -s "$top_srcdir/examples/data" data
prof-ingest -m 16M data/alexnet_2rank | grep -v '^#stage' >mem.tsv
prof-ingest -m 1M -T . data/alexnet_2rank | grep -v '^#stage' >disk.tsv
cmp mem.tsv disk.tsv && wc -l <mem.tsv
# Merging in several passes (fan-in 2) must not change a byte either.
PROF_INGEST_MERGE_FAN=2 prof-ingest -m 1M -T . data/alexnet_2rank | grep -v '^#stage' >multi.tsv
cmp mem.tsv multi.tsv && echo multi-pass merge identical
# The spill file is written and read with O_DIRECT where the file system
# takes it; through the page cache (PROF_SPOOL_DIRECT=0) it is the same.
PROF_SPOOL_DIRECT=0 PROF_INGEST_MERGE_FAN=2 prof-ingest -m 1M -T . data/alexnet_2rank | grep -v '^#stage' >cached.tsv
cmp mem.tsv cached.tsv && echo page-cache spill identical
