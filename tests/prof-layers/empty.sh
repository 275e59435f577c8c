# A stream with no records: the header gains the columns, nothing else
# is written; a stream with no kernels passes through unchanged.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' | prof-layers | grep -v '^#stage'
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nhost\t1\t2\t0\t9\tcpu_op\nstep\t3\t4\t0\t\tProfilerStep#1\n' |
    prof-layers | grep -v '^#'
