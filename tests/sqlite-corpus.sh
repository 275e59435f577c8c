#!/bin/sh
# prof-ingest's SQLite readers against the databases themselves (issue
# 17): for every Ascend and Nsight Systems database of the corpus, the
# records per kind and the summed kernel time to the nanosecond must
# equal counts and sums that sqlite3 computes here, independently, from
# the tables; the text and db exports of the alexnet job (separate runs
# of one job) must give the same structure; and an nsys capture must go
# through the whole pipeline to a report with a verdict; msprof-analyze's
# cluster_analysis.db gives its step metrics, comm ops, their time and
# bytes and its inventory as sqlite3 counts them.  An evidence
# table is printed.  Needs the corpus and the sqlite3 shell (skipped,
# exit 77, without them).
. "${top_srcdir:-.}/tests/lib.sh"

corpus_test sqlite3
failed=0

# sqlite3 on a read-only corpus file, without a lock or a -shm file.
q() { sqlite3 -readonly "file:$1?immutable=1" "$2"; }

# What prof-ingest wrote: "kind count" lines and the kernels' time sum.
got() {
	prof-ingest -q "$1" >"$tmp/out" || return 1
	awk -F'\t' '/^#/ { next } !h { h = 1; next }
	    { n[$1]++ } $1 == "kernel" { s += $3 }
	    END { for (k in n) printf "%s %d\n", k, n[k]
		printf "kernel_ns %.0f\n", s }' "$tmp/out" | sort
}

check() {	# NAME KIND WANT GOT
	printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" \
	    "$([ "$3" = "$4" ] && echo ok || echo DIFFERS)"
	[ "$3" = "$4" ] || failed=1
}

field() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/got"; }

echo "| database | figure | sqlite3 | prof-ingest | |"
echo "|---|---|---:|---:|---|"
for db in "$corpus"/ascend_torch_npu/msinsight_alexnet_2rank_2025-01/db_level*/rank*_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_*.db \
    "$corpus"/ascend_msprof_db/msinsight_full_db/msprof_0.db; do
	[ -e "$db" ] || continue
	name=$(echo "$db" | sed 's|.*/corpus/||; s|/ASCEND_PROFILER_OUTPUT||')
	got "$db" >"$tmp/got" || { echo "FAIL: $name: prof-ingest"; failed=1; continue; }
	kj='FROM TASK t JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId'
	api=CANN_API
	[ "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE name = 'CANN_API'")" = 1 ] || api=API
	has() { [ "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE name = '$1'")" = 1 ]; }
	nk=$(q "$db" "SELECT count(*) $kj")
	nc=$(q "$db" "SELECT count(*) FROM COMMUNICATION_OP")
	check "$name" "kernels (compute tasks + HCCL ops)" $((nk + nc)) "$(field kernel)"
	check "$name" "kernel ns summed" \
	    "$(q "$db" "SELECT (SELECT coalesce(sum(t.endNs - t.startNs), 0) $kj) + (SELECT coalesce(sum(endNs - startNs), 0) FROM COMMUNICATION_OP)")" \
	    "$(field kernel_ns)"
	nt=$(q "$db" "SELECT count(*) FROM COMMUNICATION_TASK_INFO i JOIN TASK t ON t.globalTaskId = i.globalTaskId")
	check "$name" "comm (HCCL ops + tasks)" $((nc + nt)) "$(field comm)"
	steps=0 fw=0 mstx=0
	if has PYTORCH_API; then
		fw=$(q "$db" "SELECT count(*) FROM PYTORCH_API")
		steps=$(q "$db" "SELECT count(*) FROM PYTORCH_API p JOIN STRING_IDS s ON s.id = p.name WHERE s.value GLOB 'ProfilerStep#[0-9]*'")
	fi
	has MSTX_EVENTS && mstx=$(q "$db" "SELECT count(*) FROM MSTX_EVENTS WHERE endNs > startNs")
	check "$name" "host ($api + PYTORCH_API + mstx ranges - steps)" \
	    $(($(q "$db" "SELECT count(*) FROM $api") + fw + mstx - steps)) "$(field host)"
	[ "$steps" -gt 0 ] && check "$name" "steps (ProfilerStep#N ops)" "$steps" "$(field step)"
	check "$name" "HostToDevice flow ends (kernels launched)" \
	    "$(q "$db" "SELECT count(*) $kj WHERE t.connectionId IS NOT NULL")" \
	    "$(awk -F'\t' '$1 == "flow" && $8 == "f"' "$tmp/out" | wc -l | tr -d ' ')"
done

for db in "$corpus"/nsight_systems/*/*.sqlite; do
	[ -e "$db" ] || continue
	name=$(echo "$db" | sed 's|.*/corpus/||')
	got "$db" >"$tmp/got" || { echo "FAIL: $name: prof-ingest"; failed=1; continue; }
	nk=0 ns=0
	for t in KERNEL MEMCPY MEMSET; do
		t=CUPTI_ACTIVITY_KIND_$t
		[ "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE name = '$t'")" = 1 ] || continue
		nk=$((nk + $(q "$db" "SELECT count(*) FROM $t")))
		ns=$((ns + $(q "$db" "SELECT coalesce(sum(end - start), 0) FROM $t")))
	done
	check "$name" "kernels + memcpy + memset" "$nk" "$(field kernel)"
	check "$name" "device ns summed" "$ns" "$(field kernel_ns)"
	nr=$(q "$db" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)")
	nv=0
	[ "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE name = 'NVTX_EVENTS'")" = 1 ] &&
	    nv=$(q "$db" "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60)")
	check "$name" "host (runtime/driver, no backtrace copies, + NVTX ranges)" \
	    $((nr + nv)) "$(field host)"
	check "$name" "GPUs" "$(q "$db" "SELECT count(*) FROM TARGET_INFO_GPU")" "$(field device)"
	# The first kernel on the absolute axis: session start + its start,
	# less the stream's origin (sqlite3 does the 64-bit arithmetic).
	origin=$(sed -n 's/^#origin_ns //p' "$tmp/out")
	first=$(awk -F'\t' '/^kernel\t/ && $7 == "kernel" { print $2; exit }' "$tmp/out")
	check "$name" "first kernel, ns from the origin (utcEpochNs base)" \
	    "$(q "$db" "SELECT (SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME) + (SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL) - $origin")" \
	    "$first"
done

# msprof-analyze's cluster_analysis.db: its step metrics (one per value
# cell), comm ops (less the Total Op Info rows) per rank, their
# durations and link bytes (sizes in MB, SDMA left out as the sum of the
# others) to the ns and byte, and the inventory's row counts.
for db in "$corpus"/ascend_cluster_analysis/*/cluster_analysis.db; do
	[ -e "$db" ] || continue
	name=$(echo "$db" | sed 's|.*/corpus/||')
	got "$db" >"$tmp/got" || { echo "FAIL: $name: prof-ingest"; failed=1; continue; }
	cells=$(q "$db" "SELECT group_concat('(' || quote(name) || ' IS NOT NULL)', '+') FROM pragma_table_info('ClusterStepTraceTime') WHERE name NOT IN ('step', 'type', 'index')" | sed 's/'"'"'\([a-z_]*\)'"'"'/"\1"/g')
	check "$name" "step metrics (non-NULL value cells)" \
	    "$(q "$db" "SELECT sum($cells) FROM ClusterStepTraceTime")" "$(field metric)"
	ops="FROM ClusterCommAnalyzerTime WHERE hccl_op_name <> 'Total Op Info'"
	check "$name" "comm ops" "$(q "$db" "SELECT count(*) $ops")" "$(field comm)"
	check "$name" "comm ops per rank" \
	    "$(q "$db" "SELECT group_concat(rank_id || ':' || n, ' ') FROM (SELECT rank_id, count(*) AS n $ops GROUP BY rank_id ORDER BY rank_id)")" \
	    "$(awk -F'\t' '$1 == "comm" { n[$4]++ } END { for (d in n) print d ":" n[d] }' "$tmp/out" | sort -n | tr '\n' ' ' | sed 's/ $//')"
	check "$name" "comm ns summed" \
	    "$(q "$db" "SELECT sum(CAST(round(elapsed_time * 1e6) AS INTEGER)) $ops")" \
	    "$(awk -F'\t' '$1 == "comm" { s += $3 } END { printf "%.0f", s }' "$tmp/out")"
	check "$name" "comm bytes summed (links but SDMA)" \
	    "$(q "$db" "SELECT sum(b) FROM (SELECT DISTINCT rank_set, step, rank_id, hccl_op_name, group_name, band_type, CAST(round(transit_size * 1e6) AS INTEGER) AS b FROM ClusterCommAnalyzerBandwidth WHERE band_type <> 'SDMA' AND transit_size > 0 AND hccl_op_name <> 'Total Op Info')")" \
	    "$(awk -F'\t' '$1 == "comm" { s += $21 } END { printf "%.0f", s }' "$tmp/out")"
	# Its text twin, as msprof-analyze writes it from the same rows.
	if command -v python3 >/dev/null 2>&1; then
		rm -rf "$tmp/twin" && mkdir "$tmp/twin"
		python3 "$top_srcdir/tests/cluster-db-twin.py" "$db" "$tmp/twin"
		for k in db twin; do
			[ $k = db ] && src=$db || src=$tmp/twin
			prof-ingest -q "$src" | awk -F'\t' '/^#/ { next }
			    !h { h = 1; next } { NF--; print }' OFS='\t' |
			    sort >"$tmp/$k.rec"
		done
		check "$name" "records = its text twin's (cluster-db-twin.py)" \
		    "$(wc -l <"$tmp/twin.rec" | tr -d ' ')" \
		    "$(cmp -s "$tmp/twin.rec" "$tmp/db.rec" && wc -l <"$tmp/db.rec" | tr -d ' ')"
	fi
	prof-ingest -qi "$db" >"$tmp/inv"
	for t in ClusterCommAnalyzerMatrix CommunicationGroup; do
		check "$name" "-i rows of $t" "$(q "$db" "SELECT count(*) FROM $t")" \
		    "$(grep "($t)" "$tmp/inv" | sed 's/.*not read: \([0-9]*\) rows.*/\1/')"
	done
done

# The alexnet job's text and db exports are separate runs: times, waits,
# PMU values and the hash digits in HCCL op names (hcom_allReduce__586_
# vs __210_) differ; the kernels (name, type, core, shapes) per step,
# the steps, the passes and layers found, and the verdict must not.
a="$corpus/ascend_torch_npu/msinsight_alexnet_2rank_2025-01"
for r in rank0 rank1; do
	for k in text db; do
		[ -d "$a/${k}_level1/${r}_ascend_pt" ] || continue 2
		prof-ingest -q "$a/${k}_level1/${r}_ascend_pt" >"$tmp/$k.tsv"
		awk -F'\t' '/^#/ { next } !h { h = 1; next } $1 == "kernel" {
		    n = $6; gsub(/__[0-9]+_/, "__N_", n)
		    print $10, n, $8, $9, $16 }' "$tmp/$k.tsv" | sort >"$tmp/$k.k"
		prof-steps <"$tmp/$k.tsv" | prof-merge | prof-bubbles |
		    prof-attrib | prof-waitanchor | prof-roofline |
		    prof-layers | prof-verdict | awk -F'\t' '/^#/ { next }
		    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		    $1 ~ /^(window|pass|layer_type|model|verdict)$/ {
			print $1, $c["name"], $c["step"], $c["layers"],
			    $1 == "layer_type" ? $c["value"] : "" }' |
		    sort >"$tmp/$k.s"
	done
	check "alexnet $r" "kernels (step, name, type, core, shapes) text = db" \
	    "$(wc -l <"$tmp/text.k" | tr -d ' ')" \
	    "$(cmp -s "$tmp/text.k" "$tmp/db.k" && wc -l <"$tmp/db.k" | tr -d ' ')"
	check "alexnet $r" "steps, passes, layers, model, verdict text = db" \
	    "$(tr '\n' ';' <"$tmp/text.s")" \
	    "$(cmp -s "$tmp/text.s" "$tmp/db.s" && tr '\n' ';' <"$tmp/db.s")"
done

# An nsys capture through the whole pipeline to a report with a verdict.
for db in "$corpus"/nsight_systems/*/*.sqlite; do
	[ -e "$db" ] || continue
	v=$(prof-ingest -q "$db" | prof-steps | prof-merge | prof-bubbles |
	    prof-attrib | prof-waitanchor | prof-roofline | prof-layers |
	    prof-verdict | prof-render -f md | grep -c '^- \*\*Rank 0: ')
	check "$(echo "$db" | sed 's|.*/corpus/||')" "report verdicts (md)" 1 "$v"
done

exit $failed
