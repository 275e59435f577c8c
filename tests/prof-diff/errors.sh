# Usage errors, a reference table without a duration column, a bad
# duration, and a damaged stream (the records before it count, exit 1).
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >a.tsv
prof-diff a.tsv; echo "exit $?"
prof-diff -f html a.tsv a.tsv; echo "exit $?"
prof-diff -b 1.2-0.8 a.tsv a.tsv; echo "exit $?"
prof-diff - -; echo "exit $?"
printf 'OP Type,Input Shapes\nMatMul,"2,2"\n' >nodur.csv
prof-diff nodur.csv a.tsv; echo "exit $?"
printf 'OP Type,Duration(us)\nMatMul,fast\n' >bad.csv
prof-diff bad.csv a.tsv; echo "exit $?"
printf 'kernel\t0\t10\t0\t1\tK\nkernel\t5\n' >>a.tsv
prof-diff -f tsv a.tsv a.tsv | awk -v want=kind,name,total_a_ns -f "$top_srcdir/tests/cols.awk"; echo "exit $?"
prof-diff a.tsv a.tsv >/dev/null 2>&1; echo "exit $?"
