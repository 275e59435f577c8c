# Compare the pipeline's per-step figures with the profiler's own
# step_trace_time.csv (the profiler_*_ns metric records prof-ingest
# writes), per rank and step.  The profiler works in floating-point
# microseconds, so agreement is asked to within TOL ns (0.3 us).
BEGIN { FS = "\t"; tol = 300 }
/^#/ { next }
!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
$1 == "window" { how[$c["dev"] " " $c["step"]] = $c["cat"] }
$1 == "metric" && $c["step"] != "" {
	k = $c["dev"] " " $c["step"]
	v[k, $c["name"]] = $c["value"]
	keys[k] = 1
}
function check(what, ours, theirs,    d) {
	d = ours - theirs
	printf " %s %d/%d %s", what, ours, theirs, (d <= tol && d >= -tol) ? "ok" : "FAIL"
	if (d > tol || d < -tol)
		bad = 1
}
END {
	for (k in keys) {
		# A rank whose kernel table is missing has nothing to compare.
		if ((k, "profiler_computing_ns") in v == 0 || v[k, "kernel_count"] + 0 == 0)
			continue
		printf "rank/step %s:", k
		check("busy", v[k, "busy_union_ns"], v[k, "profiler_computing_ns"] + \
		    v[k, "profiler_communication_not_overlapped_ns"])
		check("free", v[k, "internal_bubble_total_ns"] + v[k, "tail_gap_ns"], \
		    v[k, "profiler_free_ns"])
		# Without a step marker the window starts at the first kernel,
		# and the profiler's Preparing (marker to first op) is unknown.
		if (how[k] == "marker")
			check("preparing", v[k, "prelaunch_gap_ns"], v[k, "profiler_preparing_ns"])
		else
			printf " preparing n/a (window from %s)", how[k]
		printf "\n"
		n++
	}
	if (n == 0) { print "no step to compare"; exit 1 }
	exit bad
}
