# Per device and step of a prof-merge output: the window (service time),
# the busy union inside it, and the profiler's own step_trace_time.csv
# figures that prof-ingest carries as metric records.  busy should equal
# Computing + Communication(Not Overlapped); the profiler's Free is
# Stage (first to last device task) minus that busy time.
BEGIN { FS = "\t" }
/^#/ { next }
!h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
{ k = $4 " " $c["step"] }
$1 == "window" { svc[k] = $3 }
$1 == "busy" && $c["step"] != "" { busy[k] += $3 }
$1 == "metric" { m[k, $6] = $c["value"] }
END {
	for (k in svc) {
		ref = m[k, "profiler_computing_ns"] + \
		    m[k, "profiler_communication_not_overlapped_ns"]
		free = m[k, "profiler_stage_ns"] - busy[k]
		printf "dev %s service_ns %.0f busy_ns %.0f profiler_busy_ns %.0f " \
		    "diff_ns %.0f free_ns %.0f profiler_free_ns %.0f diff_ns %.0f\n",
		    k, svc[k], busy[k], ref, busy[k] - ref, free,
		    m[k, "profiler_free_ns"], free - m[k, "profiler_free_ns"]
	}
}
