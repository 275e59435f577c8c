# The pass rules on a small training-like stream (FlashAttentionScore
# markers of 10 ns, ...Grad of 20 ns, layers 100 ns apart):
#   pass 0 (first): markers at 10, 110, 210; Embed at 0 is before the
#     first marker (no layer); the reference gap is 100, so the last
#     layer's span is at most 210+100 = 310: Loss (290-295) is in it,
#     the send at 320 is not; the clock closes the pass once the input
#     passes 210 + 1.5*100 = 360.  Layers 100, 100, 85 ns; pass 285 ns.
#   pass 1 (direction): grads at 400, 500; the reference gap is pass
#     0's (100) until pass 1 has its own, so 500 continues; the clock
#     closes it at 500+150 = 650 with cut 600: last layer 500-540.
#   pass 2 (gap): grad at 800, with an all-reduce on the comm stream
#     (830-880) over a MatMul (835-855) in the same layer.
#   pass 3 (step): the grad at 900 has step 2; pass 2 closes at 900,
#     its last layer ends with the all-reduce at 880.  At the end, pass
#     3's last layer ends with its last kernel (930).
# Overlap: comm union 30 (send) + 50 (all-reduce) = 80 ns, 20 of it
# under compute: 0.25.  Forward Dense walls 100, 100, 85: mean 95, sd
# sqrt(50) = 7.0711, cv 0.074432.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\ttype\tstep\n' >in.tsv
k() { printf 'kernel\t%s\t%s\t0\t%s\t%s\t%s\t%s\n' "$@" >>in.tsv; }
k 0 5 1 Embed Gather 1
k 10 10 1 aclnnFA FlashAttentionScore 1
k 25 10 1 MatMul MatMul 1
k 110 10 1 aclnnFA FlashAttentionScore 1
k 125 10 1 MatMul MatMul 1
k 210 10 1 aclnnFA FlashAttentionScore 1
k 225 10 1 MatMul MatMul 1
k 290 5 1 Loss CrossEntropy 1
k 320 30 '' hcom_send_ COMMUNICATION 1
k 400 20 1 aclnnFAGrad FlashAttentionScoreGrad 1
k 430 10 1 MatMul MatMul 1
k 500 20 1 aclnnFAGrad FlashAttentionScoreGrad 1
k 530 10 1 MatMul MatMul 1
k 800 20 1 aclnnFAGrad FlashAttentionScoreGrad 1
k 830 50 '' hcom_allReduce_ COMMUNICATION 1
k 835 20 1 MatMul MatMul 1
k 900 20 1 aclnnFAGrad FlashAttentionScoreGrad 2
k 920 10 1 MatMul MatMul 2
f="$top_srcdir/tests/cols.awk"
prof-layers in.tsv >out.tsv || exit 1
awk -v want=kind,ts_ns,dur_ns,track,name,step,pass,layer,layer_type,phase,rule,layers,kernel_count,kernel_sum_ns,busy_ns,marker_dur_ns,value,expect_layers,per_layer,tags -f "$f" out.tsv |
    awk -F'\t' '$1 != "metric" && $1 != "role" && $1 != "layer_seq" && $1 != "layer_type" && $1 != "stream"'
echo '--- summary'
awk -v kind=metric,layer_type,role,layer_seq,stream -v want=kind,track,name,layer_type,phase,pass,layer,seq,repeat,value,kernel_sum_ns,busy_ns,min_ns,median_ns,max_ns,cv_ratio,share_ratio,tags -f "$f" out.tsv
echo '--- -g 3: the gap at 800 (300 ns) is no longer a boundary'
prof-layers -g 3 in.tsv | awk -v kind=pass -v want=ts_ns,dur_ns,pass,rule,layers -f "$f"
echo '--- a stall: layers 100, 100, 300, 100 ns with -g 4 stay one pass; the'
echo '--- 300 ns layer is at least twice the median (100) and is tagged outlier'
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >stall.tsv
for t in 0 100 200 500 600; do
	printf 'kernel\t%s\t10\t0\t1\tflash_fwd_kernel\nkernel\t%s\t10\t0\t1\tgemm\n' $t $((t + 20)) >>stall.tsv
done
prof-layers -g 4 stall.tsv | awk -v kind=pass,layer -v want=kind,ts_ns,dur_ns,layers,marker_dur_ns,marker_mean_ns,tags -f "$f"
