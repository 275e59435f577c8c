#!/bin/sh
# prof-ops and prof-diff against figures computed without proftools
# (issue 18), by tests/ops-evidence.py (python3, exact decimals):
# per op type of the two AlexNet ranks (kernel_details.csv) and per
# kernel name of a Kineto trace, the call count and total must equal
# prof-ops' groups to the ns, and the groups must add up to the task
# total; prof-diff's ranking of rank 1 against rank 0 by type must be
# the script's; the non-compute audit must find the layout changes
# (TransData) of the Ascend run and the copies of the Kineto run, with
# the time of those groups; prof-diff's rankings on runs of one job at
# two profiler levels and two software versions must be the script's.  Needs the corpus (skips without it) and
# python3 (skips without it: every check here is against the script).
. "${top_srcdir:-.}/tests/lib.sh"

PATH="$top_builddir/tools:$PATH"; export PATH
corpus=$(corpus_dir)
[ -d "$corpus" ] || skip_ "no corpus at $corpus"
command -v python3 >/dev/null 2>&1 || skip_ "no python3"
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
ev="$top_srcdir/tests/ops-evidence.py"
run=$corpus/ascend_torch_npu/msinsight_alexnet_2rank_2025-01/text_level1
kin=$corpus/pytorch_kineto/hta/trace_diff_control_a100_rank3of8.json.gz
failed=0

# groups KEY STREAM: "KEY NAME CALLS TOTAL" per group, and the total line
groups() {
	prof-ops -k "$1" -n 1000000 "$2" | awk -F'\t' -v key="$1" '
	    /^#/ { next }
	    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    $1 == "opgroup" { print key "\t" $6 "\t" $c["calls"] "\t" $c["dur_total_ns"]; n += $c["calls"]; s += $c["dur_total_ns"] }
	    $1 == "metric" && $6 == "ops_task_total_ns" { t = $c["value"] }
	    END { if (s != t) print "groups add up to " s ", task total " t
		print "total\t-\t" n "\t" t }' | LC_ALL=C sort
}

check() {	# NAME GOT WANT
	if cmp -s "$2" "$3"; then
		echo "ok: $1 ($(wc -l <"$3") lines)"
	else
		echo "FAIL: $1"; diff "$3" "$2" | head -n 10; failed=1
	fi
}

for r in 0 1; do
	kd=$run/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
	prof-ingest -q "$run/rank${r}_ascend_pt" >"$tmp/a$r.tsv"
	groups type "$tmp/a$r.tsv" >"$tmp/got"
	python3 "$ev" ascend "$kd" | LC_ALL=C sort >"$tmp/want"
	check "alexnet rank $r: prof-ops -k type" "$tmp/got" "$tmp/want"
done

prof-ingest -q "$kin" >"$tmp/k.tsv"
groups name "$tmp/k.tsv" >"$tmp/got"
python3 "$ev" kineto "$kin" | LC_ALL=C sort >"$tmp/want"
check "kineto trace_diff_control: prof-ops -k name" "$tmp/got" "$tmp/want"

# prof-diff, rank 1 against rank 0: rank, type and difference per row.
prof-diff -k type -f tsv "$tmp/a0.tsv" "$tmp/a1.tsv" | awk -F'\t' '
    /^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    $1 == "opdiff" { print "diff\t" $c["rank"] "\t" $6 "\t" $c["diff_ns"] }' >"$tmp/got"
python3 "$ev" diff "$run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
    "$run/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv" >"$tmp/want"
check "alexnet rank 1 - rank 0: prof-diff -k type ranking" "$tmp/got" "$tmp/want"

# prof-diff on runs of one job that differ by construction: the text
# levels of the 2025-01 AlexNet job (levels 1 and 2: the same model, more
# profiler detail), and the 2024-09 capture against the 2025-01 one
# (another CANN and torch_npu), rank 0 each, by op type.  (Level 0 writes
# N/A for every type, so prof-diff keys its kernels by name there, and
# a diff by type against it is by construction all one-sided.)
aj=$corpus/ascend_torch_npu/msinsight_alexnet_2rank
for pair in 2025-01/text_level1:2025-01/text_level2 \
    2024-09/text_level1:2025-01/text_level1; do
	a=${pair%%:*} b=${pair#*:}
	ka=${aj}_$a/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
	kb=${aj}_$b/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
	if [ ! -f "$ka" ] || [ ! -f "$kb" ]; then
		echo "FAIL: $a or $b: no kernel_details.csv"; failed=1; continue
	fi
	prof-ingest -q "$ka" >"$tmp/da.tsv" && prof-ingest -q "$kb" >"$tmp/db.tsv" || {
		echo "FAIL: prof-ingest $a, $b"; failed=1; continue; }
	prof-diff -k type -f tsv "$tmp/da.tsv" "$tmp/db.tsv" | awk -F'\t' '
	    /^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    $1 == "opdiff" { print "diff\t" $c["rank"] "\t" $6 "\t" $c["diff_ns"] }' >"$tmp/got"
	python3 "$ev" diff "$ka" "$kb" >"$tmp/want"
	check "alexnet $b - $a: prof-diff -k type ranking" "$tmp/got" "$tmp/want"
done

# HTA's trace-diff pair by construction: its control (corpus) against its
# test (tests/data, the same job after a change), by kernel name.
kt="$top_srcdir/tests/data/hta_trace_diff_test.json.gz"
prof-ingest -q "$kt" >"$tmp/kt.tsv"
prof-diff -k name -n 1000000 -f tsv "$tmp/k.tsv" "$tmp/kt.tsv" | awk -F'\t' '
    /^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    $1 == "opdiff" { print "diff\t" $c["rank"] "\t" $6 "\t" $c["diff_ns"] }' >"$tmp/got"
python3 "$ev" diffk "$kin" "$kt" >"$tmp/want"
check "hta trace_diff test - control: prof-diff -k name ranking" "$tmp/got" "$tmp/want"

# The audit: the layout class of the Ascend run is its TransData time;
# the Kineto run's copies include its Memcpy kernels.
prof-ops -k type "$tmp/a0.tsv" | awk -F'\t' '$1 == "opaudit" && $6 == "layout" { print $0 }' >"$tmp/audit"
want=$(python3 "$ev" ascend "$run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv" |
    awk -F'\t' '$2 == "TransData" { print $4 }')
if [ -n "$want" ] && grep -q "	$want 	\|	$want	" "$tmp/audit"; then
	echo "ok: alexnet rank 0 audit: layout $want ns"
else
	echo "FAIL: alexnet rank 0 audit: want layout $want ns"; cat "$tmp/audit"; failed=1
fi
memcpy=$(python3 "$ev" kineto "$kin" | awk -F'\t' '$2 ~ /^Memcpy/ { s += $4 } END { print s + 0 }')
copy=$(prof-ops "$tmp/k.tsv" | awk -F'\t' '/^#/ { next }
    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    $1 == "opaudit" && $6 == "copy" { print $c["dur_total_ns"] }')
if [ -n "$copy" ] && [ "$memcpy" -gt 0 ] && [ "$copy" -ge "$memcpy" ]; then
	echo "ok: kineto audit: copy $copy ns, of which Memcpy $memcpy ns"
else
	echo "FAIL: kineto audit: copy '$copy' ns, Memcpy $memcpy ns"; failed=1
fi
exit $failed
