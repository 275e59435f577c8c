# Without windows (no prof-steps): only the whole-capture analysis.
grep -v '^window' "$top_srcdir/tests/prof-bubbles/multi.tsv" | grep -v '^busy' | prof-bubbles |
    awk -F'\t' '$1 != "kernel"' | sed '/^#stage /d'
