# -k keeps each stage's output (all/ for the one pipeline of a small
# capture, part_N/ per rank pipeline with -s ranks) and the stream the
# reports are made from; -q prints nothing; -c reaches prof-roofline;
# options may follow the operands.
cd "$top_srcdir/examples" || exit 1
out=$OLDPWD/out
prof-report data/alexnet_2rank -q -k -c 910b3 -N ax -o "$out"
echo "exit $?"
(cd "$out" && find stages -type f | sort)
grep -c '^#stage prof-roofline [^ ]* -c 910b3$' "$out/stages/report.tsv"
awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 }
    $1 == "metric" && $6 == "peak_hbm_bytes_per_s" { print $6, $c["value"] }' \
    "$out/stages/all/08-prof-roofline.tsv"
ls "$out" | grep -c '_ax\.'
prof-report data/alexnet_2rank -q -k -s ranks -o "$out/r"
(cd "$out/r" && find stages -type f | sort)
