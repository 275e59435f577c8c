# The summary cause records, checked by hand (ms below; 1 ms = 10^6 ns).
# Rank 0, group g0 (steps 1-3, service 30): significant bubbles (at least
# max(1 ms, service/10)) b1 2 (sync 0.5), b2 1.5 (host 1: launch lag),
# b3 2 (sync 0.5), b5 4 (no host: untraced); b4 0.9 is not significant.
# b1 and b3 are half covered by aten::to: host_sync_stall as well, with
# the same share as the sync label.
#   sync share 4/9.5 = 0.421053 medium; untraced 4/9.5 medium; launch
#   1.5/9.5 below 0.2; host coverage 3.5/9.5 = 0.368421 (moderate);
#   underfeed 10.4/30 = 0.346667 (high); internal bubbles in 3/3 steps:
#   host risk medium, HOST_ORIGINATED_RISK; stacks and shapes present,
#   so no follow-up.
# Group g1 (step 4, service 20, T = 2): b6 1.5 is not significant and b7
# is at the capture boundary; being g1's only significant bubble, it is
# judged, tagged boundary_caveat (untraced, share 1); the rank's global
# records carry PARTIAL_CAPTURE_BOUNDARY, underfeed 14.9/50 = 0.298 (low),
# without b7, which the other significant bubbles outweigh.
# Rank 1 has no host events at all: untraced (share 1, medium without
# stacks), UNTRACED_HOST_BLOCKING_RISK, follow-ups with_stack=true,
# record_shapes=true, host_sampling.
# Rank 2 has one 0.5 ms gap: insufficient_evidence, no significant bubble.
prof-attrib "$top_srcdir/tests/prof-attrib/groups.tsv" |
    awk -F'\t' '$1 == "bubble" || $1 == "cause"' | cut -f 1,4,6,10,11,13-
# With --step-causes, per step as well: step 1 sync 2/3.5 = 0.571429 and
# launch lag 1.5/3.5 = 0.428571 (both medium), step 2 sync 1 (high),
# step 3 untraced 1 (b5; high), step 4 b7 with its caveat; rank 1 step
# 1 untraced.
prof-attrib -S "$top_srcdir/tests/prof-attrib/groups.tsv" |
    awk -F'\t' '$1 == "cause" && $20 == "step"' | cut -f 4,6,8,9,10,18-21
