# Gaps at the capture boundary: rank 0 is a single-step capture whose
# only significant bubble is its 3 ms prelaunch gap, cut by the capture
# start and 0.966667 covered by the DataLoader.  It is the main finding,
# so it is kept: input_pipeline_stall with the tag boundary_caveat, in
# the global and group scopes.  Rank 1 has a second step whose 4 ms
# prelaunch gap (a device synchronize over 0.75 of it) outweighs the
# boundary gap: judged on it alone, host_sync_stall, no caveat.
prof-attrib "$top_srcdir/tests/prof-attrib/boundary.tsv" |
    awk -v kind=cause -v want=dev,name,scope,value,tags -f "$top_srcdir/tests/cols.awk"
prof-attrib "$top_srcdir/tests/prof-attrib/boundary.tsv" |
    awk -v kind=cause -v want=evidence -f "$top_srcdir/tests/cols.awk" |
    sed -n '2p;4p' | cut -d ';' -f 1-3
