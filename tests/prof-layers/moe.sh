# Layer types, the cross-check and prefill/decode on an Ascend-style
# inference stream (FusedInferAttentionScore markers; times in ms):
#   prefill pass, markers of 20 ms at 0, 30, 60:
#     layer 0: MatMul                                       -> Dense
#     layer 1: MoeGatingTopK, DispatchFFNCombine, GroupedMatmul -> MoE+DFC
#     layer 2: MoeGatingTopK, GroupedMatmul x2, alltoallv, ArgMax
#                                          -> MoE+GMM, tagged sampling
#   decode pass, markers of 0.2 ms at 200, 203, 206 ms:
#     layer 0: MoeGatingTopK, GroupedMatmul x2 -> MoE+GMM
#     layer 1: MatMul                          -> Dense
#     layer 2: MoeGatingTopK                   -> MoE
# The clock closes the prefill pass at 60 + 1.5*30 ms; the marker at 200
# ms is 100 times shorter than the one before: rule phase.  Cross-check
# of the prefill pass: GroupedMatmul in 2 layers but 1 MoE+GMM layer
# (the DFC layer has one too): mismatch, stated; 2 per GMM layer in the
# decode pass: match with per_layer 2.
cp "$top_srcdir/tests/data/moe-layers.tsv" in.tsv
f="$top_srcdir/tests/cols.awk"
prof-layers in.tsv >out.tsv || exit 1
awk -v kind=pass,layer,check -v want=kind,ts_ns,dur_ns,name,pass,layer,phase,rule,layers,kernel_count,marker_dur_ns,value,expect_layers,per_layer,tags -f "$f" out.tsv
echo '--- kernels'
awk -v kind=kernel -v want=ts_ns,name,pass,layer,layer_type -f "$f" out.tsv
echo '--- summary'
awk -v kind=metric,layer_type,role,stream -v want=kind,track,name,layer_type,phase,value,kernel_sum_ns,busy_ns,min_ns,median_ns,max_ns,share_ratio -f "$f" out.tsv
