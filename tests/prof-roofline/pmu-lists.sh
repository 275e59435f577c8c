# PMU lists (prof-roofline(1), PIPES): the busiest "..._ratio" pipe of
# each kernel's list, its ratio truncated to parts per million.  The
# lists share their keys, as those of one kernel_details table do, and
# then change at the same places, so that a key known from the last
# list is not taken for another.  Expected, by hand (pipe_pct 50):
#  k1  mac 0.6 beats mte2 0.3 and fixpipe 0.1: cube, compute
#  k2  mte2 0.71: memory
#  k3  xaic_mac_ratio names no pipe (in place of aic_mac_ratio);
#      fixpipe 0.4 is the busiest, under 50%: none, latency
#  k4  "x=aic_mac_ratio=0.9" is the key x: mte2 0.55, memory
#  k5  k1's list again: cube 0.6
#  k6  the unprefixed "mac_ratio" alone, at the list's start: cube 0.8
#  k7  aiv scalar 0.95: scalar, latency
#  k8  0.1234567 and 0.1234561 both truncate to 0.123456: the first
#      (mac) stays, under 50%: none, latency
#  k9  "0.5x" is no decimal, nor is 123456.0 (past the parser's bound
#      on the integer part); "5." is 5: mte2 5, memory
f="$top_srcdir/tests/cols.awk"
P=aicore_time_us=12.5,aic_total_cycles=1000
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tpmu\n' >in.tsv
r() { printf 'kernel\t%s\t100\t0\t1\t%s\t%s\n' "$@" >>in.tsv; }
r 0 k1 "$P,aic_mac_ratio=0.600,aic_mte2_ratio=0.300,aic_fixpipe_ratio=0.1"
r 100 k2 "$P,aic_mac_ratio=0.2,aic_mte2_ratio=0.71,aic_fixpipe_ratio=0.1"
r 200 k3 "$P,xaic_mac_ratio=0.9,aic_mte2_ratio=0.3,aic_fixpipe_ratio=0.4"
r 300 k4 "$P,x=aic_mac_ratio=0.9,aic_mte2_ratio=0.55,aic_fixpipe_ratio=0.1"
r 400 k5 "$P,aic_mac_ratio=0.600,aic_mte2_ratio=0.300,aic_fixpipe_ratio=0.1"
r 500 k6 "mac_ratio=0.8"
r 600 k7 "aiv_vec_ratio=0.0,aiv_scalar_ratio=0.95"
r 700 k8 "$P,aic_mac_ratio=0.1234567,aic_mte2_ratio=0.1234561"
r 800 k9 "$P,aic_mac_ratio=0.5x,aic_mte2_ratio=5.,aic_fixpipe_ratio=123456.0"
prof-roofline in.tsv | awk -v kind=kernel -v want=name,pipe_bound,pipe_ratio,bound,bound_src,tags -f "$f"
