# Out-of-order input is refused by the stage loop at its line.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nkernel\t5\t1\t0\t1\ta\nkernel\t3\t1\t0\t1\tb\n' | prof-steps
