# Interval edge cases with the default markers, checked by hand:
# host events that began before the bubble and still run, nested ones,
# one ending exactly at the bubble start and one starting at its end
# (neither counts), another rank's events (not counted), a comm record,
# a Python frame (not host activity), a zero-length bubble (empty
# ratios), and a global bubble overlapping a step bubble on one rank.
# The partitions: B1 sync 150 (the copy), launch [1000,1200) 200, host
# 350 (aten::mm after the launch, aten::add), untraced [1500,1800) 300;
# B3 sync 150, launch 300, host 850, untraced 800.  Both are mostly
# launch and host work with launches: launch_bound too.
#   B1 [1000,2000): host [1000,1500)+[1800,2000) = 0.7; sync memcpy
#      [1200,1350) = 0.15; comm nccl [1000,1100) + comm [1900,2000) = 0.2;
#      threads 500+350+100 over 700 = 1.357143 -> possible_comm_wait
#   B3 [900,3000): host 1300/2100 = 0.619048, sync 150/2100 = 0.071429,
#      comm 300/2100 = 0.142857, par 1650/1300 = 1.269231 -> launch lag
# The summary (-s 500 makes B1 significant): comm share 1, medium
# (no shapes), COMM_SYNC_RISK; without windows underfeed is the step
# bubble time over the capture span, 1000/10000 (the Python frame ends
# last), so host risk is low.
prof-attrib -s 500 "$top_srcdir/tests/prof-attrib/edges.tsv" | grep -v '^#'
