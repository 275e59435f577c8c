# Unordered input stops with the stage's diagnostic; the AI CPU kernel
# kept back before the error is not written half-done.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcore\n' >in.tsv
printf 'kernel\t10\t100\t0\t1\tcpu\tAI_CPU\nkernel\t5\t5\t0\t1\tb\tAI_CORE\n' >>in.tsv
prof-waitanchor in.tsv
