# A heavy prelaunch gap with underfeed ratio 0.15: DEVICE_IDLE_GAP_HEAVY
# by the rulebook (default), not by the reference script's rule.
for o in --idle-rule=rulebook --idle-rule=script; do
	prof-bubbles $o <"$top_srcdir/tests/prof-bubbles/script.tsv" | awk -F'\t' '$1 == "window"'
done
