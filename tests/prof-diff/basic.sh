# Two runs by name: rows ranked by the absolute difference of totals,
# ratio = average per call of B over A, flags outside 0.8-1.2, groups on
# one side listed; the top 2 explain 200 of the 170 us change (over
# 100%: the rest went the other way).
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >a.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 100000 0 1 MatMul \
    kernel 100000 100000 0 1 MatMul \
    kernel 200000 50000 0 1 Add \
    kernel 250000 40000 0 1 Gone \
    kernel 290000 10000 0 1 Relu >>a.tsv
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >b.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 150000 0 1 MatMul \
    kernel 150000 150000 0 1 MatMul \
    kernel 300000 55000 0 1 Add \
    kernel 355000 100000 0 1 New \
    kernel 455000 8000 0 1 Relu \
    kernel 463000 7000 0 1 Relu >>b.tsv
prof-diff -n 2 a.tsv b.tsv
prof-diff -f json a.tsv b.tsv
prof-diff -f tsv -b 0.9-1.1 a.tsv b.tsv
