# Cut passes (prof-layers(1), "Cut passes"): flash_fwd_kernel markers
# of 10 ns, a gemm 20 ns after each, layers 100 ns apart, passes 1000
# ns apart (the gap rule).  Every pass runs the model's 3 layers, but
# the capture starts after the first pass's layer 0 (only its markers
# at 100 and 200: 2 layers, fewer than the 3 of pass 1, so cut_start)
# and stops in pass 3's first layer (marker at 3000, the input ends at
# 3030 before the clock could close it: 1 layer, fewer than the 3 of
# pass 2, so cut_end).
f="$top_srcdir/tests/prof-layers/cols.awk"
hdr() { printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >"$1"; }
layer() { printf 'kernel\t%s\t10\t0\t1\tflash_fwd_kernel\nkernel\t%s\t10\t0\t1\tgemm\n' "$2" $(($2 + 20)) >>"$1"; }
show() { prof-layers "$1" | awk -v kind=pass -v want=ts_ns,pass,rule,layers,tags -f "$f"; }
hdr cut.tsv
printf 'kernel\t40\t10\t0\t1\tgemm\n' >>cut.tsv
for t in 100 200 1000 1100 1200 2000 2100 2200 3000; do layer cut.tsv $t; done
show cut.tsv
echo '--- whole passes at both ends: no tag'
hdr whole.tsv
for t in 1000 1100 1200 2000 2100 2200 3000 3100 3200; do layer whole.tsv $t; done
show whole.tsv
echo '--- a short last pass closed by the clock (a kernel at 5000 is past'
echo '--- 3000 + 1.5 * 100) did not touch the end of the capture: no tag'
cp cut.tsv clock.tsv
printf 'kernel\t5000\t10\t0\t1\tgemm\n' >>clock.tsv
show clock.tsv
echo '--- one pass: nothing to compare with, no tag'
hdr one.tsv
for t in 100 200; do layer one.tsv $t; done
show one.tsv
echo '--- per dev: dev 1 whole, dev 0 as above; dev 1 runs on to 3220, so the'
echo '--- clock closes dev 0'"'"'s last pass: only its first is cut'
sed 1,2d whole.tsv | awk -F'\t' -v OFS='\t' '{ $4 = 1; print }' >dev1
{ sed 1,2p -n cut.tsv; sed 1,2d cut.tsv | cat - dev1 | sort -t '	' -k2,2n -s; } >two.tsv
prof-layers two.tsv | awk -v kind=pass -v want=ts_ns,dev,pass,layers,tags -f "$f"
