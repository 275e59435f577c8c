# Usage errors and a second run over the same stream.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
prof-ops -k bogus in.tsv; echo "exit $?"
prof-ops -p type,shapes in.tsv; echo "exit $?"
prof-ops in.tsv >once.tsv
prof-ops once.tsv >/dev/null; echo "exit $?"
printf 'kernel\t5\t\t0\t1\tK\n' >>in.tsv
prof-ops in.tsv >/dev/null; echo "exit $?"
