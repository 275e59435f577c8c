# --hold-limit: a segment that keeps more than N records waiting is
# written in pieces that touch; per device and step the pieces add up to
# the same busy time as without the limit (compare straddle.sh).
f="$top_srcdir/tests/prof-merge/straddle.tsv"
prof-merge -l 1 "$f" | grep '^busy'
for l in 1 100000; do
	prof-merge --hold-limit=$l "$f" |
	    awk -F'\t' '$1 == "busy" { s[$4 " " $7] += $3 }
	    END { for (k in s) print "dev/step", k, "busy_ns", s[k] }' | sort
done
