# A kernel needs a start time.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nkernel\t\t5\t0\t1\tFlashAttentionScore\n' >run.tsv
prof-layers run.tsv
