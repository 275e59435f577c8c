#!/bin/sh
# The inputs that once made a fuzz harness fail (fuzz/regress/HARNESS/),
# replayed through the programs themselves, so that every build (gcc,
# and the sanitizer build of .ci/run) tests them: CSV inputs go to
# prof-ingest as a kernel_details.csv, an op_summary and step_trace_time
# table; JSON inputs as a trace and a communication.json; compressed and
# archived inputs (fuzz-unz) as a trace and a table; prof-tsv inputs to
# every stage.  (Inputs of fuzz-walk are programs that build a directory
# tree; the trees they found are cases of tests/prof-ingest/dir-links.sh.)
# Each run must end with status 0 or 1 and, when 1, with a diagnostic:
# never a signal, a sanitizer report or silence.
# (dtime inputs are cases of tests/unit/test-dtime.)
. "${top_srcdir:-.}/tests/lib.sh"
PATH="$top_builddir/tools:$PATH"; export PATH
regress="$top_srcdir/fuzz/regress"
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
status=0 n=0

# run FILE PROG ARGS...: PROG must exit 0, or 1 with a diagnostic.
run() {
	f=$1; shift
	n=$((n + 1))
	"$@" >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st -gt 1 ] || { [ $st -eq 1 ] && ! grep -q "^$1: " "$tmp/err"; } ||
	    grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
		echo "FAIL: $*: exit $st on ${f#"$regress"/}:"
		head -n 20 "$tmp/err"
		status=1
	fi
}

for f in "$regress"/csv/*; do
	[ -f "$f" ] || continue
	for name in kernel_details.csv op_summary_0.csv step_trace_time.csv; do
		mkdir -p "$tmp/p"; cp "$f" "$tmp/p/$name"
		run "$f" prof-ingest -q "$tmp/p/$name"
		run "$f" prof-ingest -q -k "$tmp/p/$name"
		rm -rf "$tmp/p"
	done
done
for f in "$regress"/json/*; do
	[ -f "$f" ] || continue
	for name in rank0.pt.trace.json communication.json; do
		mkdir -p "$tmp/p"; cp "$f" "$tmp/p/$name"
		run "$f" prof-ingest -q "$tmp/p/$name"
		run "$f" prof-ingest -q -k "$tmp/p/$name"
		rm -rf "$tmp/p"
	done
done
# Compressed and archived inputs (fuzz-unz: the first byte only sets the
# read size): as a trace and as a table, whatever their content.
for f in "$regress"/unz/*; do
	[ -f "$f" ] || continue
	for name in rank0.pt.trace.json.gz kernel_details.csv; do
		mkdir -p "$tmp/p"; tail -c +2 "$f" >"$tmp/p/$name"
		run "$f" prof-ingest -q "$tmp/p/$name"
		run "$f" prof-ingest -q "$tmp/p"
		rm -rf "$tmp/p"
	done
done
stages=$(stage_names)
for f in "$regress"/tsv/* "$regress"/stage/*; do
	[ -f "$f" ] || continue
	for t in $stages; do
		run "$f" "$t" "$f"
	done
done
for f in "$regress"/stage-pending/stages-*; do
	[ -f "$f" ] || continue
	for t in $stages; do
		case " prof-steps prof-layers " in *" $t "*) continue;; esac
		run "$f" "$t" "$f"
	done
done
# The stages chained, as fuzz/stages.py runs them (its findings are in
# regress/stage): each stage reads what the one before wrote, when it
# wrote a stream, so that summaries of summaries are checked too; then
# prof-render's JSON formats, which must parse.  prof-roofline gets a
# chip so that it computes every roofline.
chain="prof-steps prof-merge prof-bubbles prof-attrib prof-waitanchor
    prof-layers prof-roofline prof-verdict"
# Inputs in regress/stage-pending also break a stage fixed on another
# branch (see its README): they go through every stage but those.
pending="prof-steps prof-layers"
for f in "$regress"/stage/stages-* "$regress"/stage-pending/stages-*; do
	[ -f "$f" ] || continue
	skip=
	case $f in */stage-pending/*)
		skip=$pending
		echo "PENDING: ${f#"$regress"/} not run through $skip";;
	esac
	cp "$f" "$tmp/in.tsv"
	for t in $chain; do
		case " $(echo $stages) " in *" $t "*) ;; *) continue;; esac
		case " $skip " in *" $t "*) continue;; esac
		# windows already made: prof-steps refuses such input at once
		[ $t = prof-steps ] && grep -q "^window	" "$tmp/in.tsv" && continue
		args=
		[ $t = prof-roofline ] && args="-c h100"
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$t" $args "$tmp/in.tsv" >"$tmp/out.tsv" 2>"$tmp/err"
		st=$?
		if [ $st -gt 1 ] || { [ $st -eq 1 ] && ! grep -q "^$t: " "$tmp/err"; } ||
		    grep -q 'Sanitizer\|runtime error\|internal error' "$tmp/err"; then
			echo "FAIL: chain $t: exit $st on ${f#"$regress"/}:"
			head -n 20 "$tmp/err"
			status=1
		fi
		[ -s "$tmp/out.tsv" ] && mv "$tmp/out.tsv" "$tmp/in.tsv"
	done
	for fmt in json chrome; do
		n=$((n + 1))
		prof-render -f $fmt "$tmp/in.tsv" >"$tmp/r.json" 2>"$tmp/err"
		st=$?
		if [ $st -gt 1 ] || grep -q 'Sanitizer\|runtime error' "$tmp/err" ||
		    { [ $st -eq 0 ] && ! python3 -c 'import json, sys
json.load(open(sys.argv[1]))' "$tmp/r.json" 2>/dev/null; }; then
			echo "FAIL: chain prof-render -f $fmt: exit $st on ${f#"$regress"/}"
			head -n 20 "$tmp/err"
			status=1
		fi
	done
done
echo "$n runs over $(ls "$regress"/*/* 2>/dev/null | grep -vc README) regression inputs"
exit $status
