# Layers without markers.  The devs interleave; each layer of four
# kernels 10 ns apart starts 90 ns after the one before.
# Dev 0: Embed, then N M A M2 (Norm MatMul Act MatMul2) five times.
#   Every name of the period occurs 5 times, 4 kernels apart, and every
#   kernel from its first occurrence F to 4 before its last L recurs 4
#   later: 13 of 13, confidence 1.  The tie goes to the longest total
#   duration, MatMul (8 ns): 5 layers at 20, 110, 200, 290, 370; the
#   last is cut one reference gap (the median, 90 ns) after its marker,
#   so it ends with its last kernel at 395.
# Dev 1: A B C: no name three times, no anchor, confidence 0.
# Dev 2: Embed, N M A M2 twice, N M X A M2, N M A M2 twice (positions
#   0..21).  MatMul is at 2, 6, 10, 15, 19 (modal gap 4); of positions
#   2 to 15, 7..11 meet the extra X and do not recur: 9 of 14 =
#   0.642857 (0.6428571, rounded down).  Norm, Act and MatMul2 score 9
#   of 14 too; MatMul wins by duration.  The layer with X has 5 kernels.
# -w 16: the windows close at the 16th kernel.  Dev 0: MatMul at 2, 6,
#   10, 14, positions 2..10 all recur, and the rest of the input follows
#   as markers: the same 5 layers.  Dev 2 (positions 0..15): Norm at 1,
#   5, 9, 14 scores 6 of 10 (positions 1..10; 7..10 do not recur),
#   MatMul 5 of 10, Act 4 of 6, MatMul2 3 of 6: Norm, 0.6.
# -c 0.75: dev 2's best (0.642857) is rejected: no layers there.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
t=0
k() { printf 'kernel\t%s\t%s\t%s\t7\t%s\n' $t "$@" >>in.tsv; }
layer() { k 5 "$1" Norm; t=$((t + 10)); k 8 "$1" MatMul; t=$((t + 10))
	[ -n "${2:-}" ] && { k 5 "$1" X; t=$((t + 10)); }
	k 5 "$1" Act; t=$((t + 10)); k 5 "$1" MatMul2; t=$((t + 10)); }
k 5 0 Embed; k 5 2 Embed; t=$((t + 10))
layer 0
k 5 1 A; layer 2; t=$((t + 10))
k 5 1 B; layer 0
layer 2; t=$((t + 10))
k 5 1 C; layer 0
layer 2 x
layer 0
layer 2
layer 0
layer 2
f="$top_srcdir/tests/cols.awk"
prof-layers in.tsv >out.tsv || exit 1
awk -v kind=pass,layer,metric -v want=kind,ts_ns,dur_ns,dev,name,pass,layer,rule,layers,kernel_count,value,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $1 != "metric" || $5 ~ /^(layer_count|pass_count|layer_detect)/'
echo '--- kernels'
awk -v kind=kernel -v want=ts_ns,dev,name,pass,layer -f "$f" out.tsv
echo '--- layer_seq'
awk -v kind=layer_seq -v want=dev,seq,name,repeat,kernel_sum_ns -f "$f" out.tsv
echo '--- -w 16'
prof-layers -w 16 in.tsv | awk -v kind=pass,metric -v want=kind,dev,name,layers,value,tags -f "$f" |
    awk -F'\t' 'NR == 1 || $1 == "pass" || $3 ~ /^(layer_count|layer_detect)/'
echo '--- -c 0.75'
prof-layers -c 0.75 in.tsv | awk -v kind=pass,metric -v want=kind,dev,name,layers,value,tags -f "$f" |
    awk -F'\t' 'NR == 1 || $1 == "pass" || $3 ~ /^(layer_count|layer_detect)/'
