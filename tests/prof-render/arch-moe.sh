# The architecture report of the Ascend-style MoE inference stream of
# tests/prof-layers/moe.sh (FusedInferAttentionScore markers; ms):
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
# The report shows what the corpus runs do not: prefill and decode (the
# decode section with its costs and the prefill-versus-decode table), the
# MoE types, a layer with sampling ops, a mismatch in bold, a second
# stream (5, the all-to-all).  No #source line: the name hints come from
# -N (the method's example name).  Checked by hand above: 3 prefill and 3
# decode markers of 20 and 0.2 ms, the GroupedMatmul mismatch of pass 0;
# the alltoallv (83-87 ms, stream 5) overlaps only the GroupedMatmul of
# 83-84 ms on stream 1, so 1 ms of its 4 ms is hidden: 25%.
cp "$top_srcdir/tests/data/moe-layers.tsv" in.tsv
mv in.tsv dp2_tp8_ep_100k_1k_bs10.tsv
prof-layers dp2_tp8_ep_100k_1k_bs10.tsv |
    prof-render -f arch -N dp2_tp8_ep_100k_1k_bs10 || exit 1
