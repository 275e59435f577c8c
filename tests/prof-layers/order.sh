# Out-of-order input is caught (by the stage library) before any layer
# is made of it.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nkernel\t10\t5\t0\t1\tFlashAttentionScore\nkernel\t5\t5\t0\t1\tMatMul\n' >run.tsv
prof-layers run.tsv
