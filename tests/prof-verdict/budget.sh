# The budget of a hand-made step: compute [0,300), communication
# [200,500) hidden under it for 100 ns then exposed for 200, a sync gap
# of 100, memory-bound [600,700), a tail of 300 (200 input, 100
# untraced): eleven parts that add up to the 1000 ns window.  The
# largest loss class (communication, 20%) is under --loss (25%), so the
# verdict is compute (300 ns, hidden communication included); with
# --loss=0.2 it is communication.  Rank 1 has only a host event: no
# device data, never idle.
in="$top_srcdir/tests/prof-verdict/budget.tsv"
prof-verdict "$in" | sed '/^#stage /d' | grep -v -e '^window' -e '^kernel' \
    -e '^host' -e '^bubble'
echo "-- loss 0.2"
prof-verdict --loss=0.2 "$in" | awk -F'\t' '$1 == "verdict" { print $4, $6 }'
echo "-- the parts add up to the window"
prof-verdict "$in" | awk -F'\t' '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$1 == "budget" && $c["scope"] == "step" { s += $c["budget_ns"]; w = $c["window_ns"] }
	END { print s, w }'
