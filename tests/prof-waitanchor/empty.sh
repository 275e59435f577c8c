# A stream with a header and no records, and one without kernels: the
# records pass through, and no op or metric record is made.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' | prof-waitanchor | grep -v '^#stage'
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nhost\t5\t1\t0\t7\tx\n' | prof-waitanchor | grep -v '^#stage'
