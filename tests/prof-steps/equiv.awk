# Compare two step assignments of the same kernels, one line per kernel:
# dev, step with the markers, step detected with the markers removed
# (tab-separated, in stream order).  Per dev: how many marker steps, how
# many detected windows, how many marker steps a detected window matches
# (the same kernels, to 1 percent either way; exact: all of them), how
# many kernels lie outside every marker step and outside every detected
# window, and each marker step that no window matches:
# step(kernels)~window(kernels shared/window's kernels).
BEGIN { FS = "\t" }
{
	dev = $1; ms = $2; ds = $3
	if (!(dev in seen)) { seen[dev] = 1; devs[++ndev] = dev }
	if (ms == "")
		out[dev]++
	else {
		if (!((dev, ms) in mn))
			mord[dev, ++nm[dev]] = ms
		mn[dev, ms]++
	}
	if (ds == "")
		dout[dev]++
	else if (!((dev, ds) in dn))
		nd[dev]++
	dn[dev, ds]++
	ov[dev, ms, ds]++
	if (!((dev, ms) in best) || ov[dev, ms, ds] > ov[dev, ms, best[dev, ms]])
		best[dev, ms] = ds
}
END {
	for (d = 1; d <= ndev; d++) {
		dev = devs[d]; ok = exact = 0; bad = ""
		for (i = 1; i <= nm[dev]; i++) {
			ms = mord[dev, i]; ds = best[dev, ms]; o = ov[dev, ms, ds]
			if (o * 100 >= mn[dev, ms] * 99 && o * 100 >= dn[dev, ds] * 99) {
				ok++
				exact += o == mn[dev, ms] && o == dn[dev, ds]
			} else
				bad = bad sprintf(" %s(%d)~%s(%d/%d)", ms, mn[dev, ms],
				    ds, o, dn[dev, ds])
		}
		printf "dev %s: marker steps %d, detected %d, matched %d " \
		    "(exact %d), outside %d/%d%s\n", dev, nm[dev] + 0,
		    nd[dev] + 0, ok, exact, out[dev] + 0, dout[dev] + 0, bad
	}
}
