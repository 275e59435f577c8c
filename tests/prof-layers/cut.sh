# Cut passes (prof-layers(1), "Cut passes"): flash_fwd_kernel markers
# of 10 ns with a gemm 20 ns after each, layers 100 ns apart, passes 200
# ns apart (more than 1.5 times the layer gap: the gap rule).  Every pass
# runs the model's 3 layers, but the capture starts after the first
# pass's layer 0: it shows markers at 100 and 200 only (2 layers, fewer
# than the 3 of pass 1: cut_start), and stops in pass 3's first layer
# (marker at 1200, the input ends at 1230, before the clock could close
# the pass: 1 layer, fewer than the 3 of pass 2: cut_end).  Pass 0 runs
# from 100 to the end of a kernel at 270-280 (180 ns), so a second pass
# is waited for until 280 + 180 = 460; pass 1 starts at 400.
f="$top_srcdir/tests/cols.awk"
hdr() { printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >"$1"; }
k() { printf 'kernel\t%s\t10\t0\t1\t%s\n' "$2" "$3" >>"$1"; }
layers() { f1=$1; shift; for t; do k "$f1" "$t" flash_fwd_kernel; k "$f1" $((t + 20)) gemm; done; }
show() { prof-layers "$@" | awk -v kind=pass -v want=ts_ns,dur_ns,pass,rule,layers,tags -f "$f"; }
hdr cut.tsv
k cut.tsv 40 gemm
layers cut.tsv 100 200
k cut.tsv 270 gemm
layers cut.tsv 400 500 600 800 900 1000 1200
show cut.tsv
echo '--- whole passes at both ends: no tag'
hdr whole.tsv
layers whole.tsv 400 500 600 800 900 1000 1200 1300 1400
show whole.tsv
echo '--- a short last pass closed by the clock (a kernel at 2000 is past'
echo '--- 1200 + 1.5 * 100) did not reach the end of the capture: no cut_end'
cp cut.tsv clock.tsv
k clock.tsv 2000 gemm
show clock.tsv
echo '--- one pass: nothing to compare with, no tag'
hdr one.tsv
layers one.tsv 100 200
show one.tsv
echo '--- the second pass starts at 1000, after 460: pass 0 is written'
echo '--- without waiting for it, and without a tag'
hdr late.tsv
k late.tsv 40 gemm
layers late.tsv 100 200
k late.tsv 270 gemm
layers late.tsv 1000 1100 1200 1400 1500 1600
show late.tsv
