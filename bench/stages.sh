#!/bin/sh
# bench/stages.sh: the analysis-stage benchmark (part of "make bench").
#
# Turns the generated inputs of bench/run.sh into prof-tsv streams with
# prof-ingest, runs the pipeline once to make each stage's real input, then
# times every stage on its input beside cat on the same file, in the same
# run: a warm-up, then $BENCH_RUNS rounds.  Peak RSS is measured on the
# whole input and on its first half, to show whether memory grows with
# length.  Last, the whole pipeline end to end from the raw input.
# Prints a Markdown table and writes it to $BENCH_DIR/stages.md.
#
# Environment: top_builddir, BENCH_DIR, BENCH_RUNS as for bench/run.sh;
# BENCH_RECORDS caps the records taken from each stream (default 3000000);
# BENCH_STREAMS names the inputs to time, "kineto", "ascend" or both (the
# default), so that one of them can be measured without the other's
# gigabytes.  BENCH_BASE, the tools directory (or the prof-ingest) of
# another build, a base revision: its whole pipeline, of the stages both
# builds have, is timed in the same rounds as this one's, so that a
# change is compared under one load.  BENCH_PIPELINE_ONLY=1 times the
# whole pipelines only, without the streams of every stage.

set -eu

me=bench/stages.sh
srcdir=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$srcdir/lib.sh"

top_builddir=$(cd "${top_builddir:-.}" && pwd) || die "no top_builddir"
BENCH_DIR=${BENCH_DIR:-$top_builddir/bench/data}
BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_RECORDS=${BENCH_RECORDS:-3000000}
BENCH_STREAMS=${BENCH_STREAMS:-kineto ascend}
BENCH_BASE=${BENCH_BASE:-}
BENCH_PIPELINE_ONLY=${BENCH_PIPELINE_ONLY:-0}
tools=$top_builddir/tools
btools=
if [ -n "$BENCH_BASE" ]; then
	btools=$BENCH_BASE
	[ -d "$btools" ] || btools=$(dirname "$btools")
	btools=$(cd "$btools" && pwd) || die "no $BENCH_BASE"
	[ -x "$btools/prof-ingest" ] || die "BENCH_BASE: no prof-ingest in $btools"
fi
case $BENCH_RUNS in ''|*[!0-9]*|0) die "BENCH_RUNS must be a positive integer";; esac
case $BENCH_RECORDS in ''|*[!0-9]*|0) die "BENCH_RECORDS must be a positive integer";; esac

kineto=$BENCH_DIR/kineto/rank0.pt.trace.json
kdcsv=$BENCH_DIR/kd/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
for label in $BENCH_STREAMS; do
	case $label in
	kineto) f=$kineto ;;
	ascend) f=$kdcsv ;;
	*) die "BENCH_STREAMS: '$label' is neither kineto nor ascend" ;;
	esac
	[ -s "$f" ] || die "missing $f: run bench/run.sh (make bench) first"
done
[ -x "$tools/prof-ingest" ] || die "$tools/prof-ingest is not built"

sdir=$BENCH_DIR/stages
mkdir -p "$sdir"
tmp=$sdir/tmp.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM
timing_init

# The stages in pipeline order; each reads what the one before wrote.
chain="prof-steps prof-merge prof-bubbles prof-attrib prof-waitanchor"
chain="$chain prof-layers prof-roofline"
# stage_args TOOL: the options a stage is timed with (peaks for
# prof-roofline, so that every kernel is rooflined).
stage_args() { case $1 in prof-roofline) echo "-c h100";; esac; }
present=
for t in $chain; do
	if [ -x "$tools/$t" ]; then present="$present $t"
	else note "$t is not built: left out"; fi
done

# Programs built beyond that list are found, so none is left out: a
# stage (it writes a prof-tsv stream with its own "#stage" line from a
# minimal one) joins the end of the chain; a report writer (it reads one
# stream, with "-f md" where it takes -f) is timed on the chain's last
# stream, outside the chain; the others (prof-diff reads two streams,
# prof-export writes a database, prof-report runs the pipeline) are
# left out, with a note.  The probes run in a directory of their own:
# what they write there (prof-report's report/) is no business of ours.
writers=
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >"$tmp/probe.tsv"
printf 'kernel\t1\t1\t0\t1\tk\n' >>"$tmp/probe.tsv"
# writer_args TOOL: the options a report writer is timed with.
writer_args() {
	"$tools/$1" --help 2>/dev/null | grep -q -- '-f' && echo "-f md"
}
for p in "$tools"/prof-*; do
	t=${p##*/}
	[ -x "$p" ] && [ -f "$p" ] || continue
	case " prof-ingest $chain " in *" $t "*) continue;; esac
	if "$p" <"$tmp/probe.tsv" >"$tmp/probe.out" 2>/dev/null &&
	    head -n 1 "$tmp/probe.out" | grep -q '^#prof-tsv ' &&
	    grep -q "^#stage $t " "$tmp/probe.out"; then
		present="$present $t"
	elif mkdir -p "$tmp/probe.d" && (cd "$tmp/probe.d" &&
	    "$p" $(writer_args "$t") ../probe.tsv) >/dev/null 2>&1; then
		writers="$writers $t"
	else
		note "$t does not write a report of one stream: left out"
	fi
done

# records FILE: lines that are neither preamble nor header.
records() { grep -vc '^#' "$1" | awk '{ print $1 - 1 }'; }

# make_streams LABEL RAW: the ingested stream (first $BENCH_RECORDS
# records), then every stage's output, under $sdir/LABEL.*.tsv.
make_streams() {
	label=$1 raw=$2
	note "$label: prof-ingest, then the pipeline once"
	"$tools/prof-ingest" "$raw" | awk -v max="$BENCH_RECORDS" '
	    /^#/ && !h { print; next }
	    !h { h = 1; print; next }
	    n++ < max { print; next }
	    { exit }' >"$sdir/$label.0.tsv" || :
	prev=$sdir/$label.0.tsv
	for t in $present; do
		"$tools/$t" $(stage_args $t) "$prev" >"$sdir/$label.$t.tsv" ||
		    die "$t failed on $prev"
		prev=$sdir/$label.$t.tsv
	done
	last_stream=$prev
}

# bench_stage LABEL TOOL INPUT: timing rows for TOOL and cat on INPUT.
bench_stage() {
	label=$1 t=$2 in=$3
	: >"$tmp/m.cat"; : >"$tmp/m.tool"; : >"$tmp/m.half"
	half=$tmp/half.tsv
	n=$(records "$in")
	awk -v max=$((n / 2)) '/^#/ && !h { print; next }
	    !h { h = 1; print; next } n++ < max { print; next } { exit }' \
	    "$in" >"$half"
	r=0
	while [ "$r" -le "$BENCH_RUNS" ]; do
		o=$tmp/m.cat; ot=$tmp/m.tool
		[ "$r" = 0 ] && o=$tmp/warm && ot=$tmp/warm
		measure "$o" cat "$in" || die "cat failed"
		# shellcheck disable=SC2086
		measure "$ot" "$tools/$t" $targs "$in" || die "$t failed on $in"
		r=$((r + 1))
	done
	# shellcheck disable=SC2086
	measure "$tmp/m.half" "$tools/$t" $targs "$half" || die "$t failed on $half"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$t" \
	    "$(fsize "$in")" "$n" "$(median "$tmp/m.tool")" \
	    "$(median "$tmp/m.cat")" "$(maxcol2 "$tmp/m.tool")" \
	    "$(maxcol2 "$tmp/m.half")" "$(range "$tmp/m.tool")" >>"$tmp/rows"
}

# pipe_script OUT TOOLS STAGE...: a script running prof-ingest of TOOLS on
# $raw, then each STAGE of TOOLS, in one pipeline.
pipe_script() {
	out=$1 dir=$2
	shift 2
	{
		printf '"%s/prof-ingest" "%s"' "$dir" "$raw"
		for t in "$@"; do
			printf ' | "%s/%s" %s' "$dir" "$t" "$(stage_args "$t")"
		done
		printf '\n'
	} >"$out"
}

# pipe_row M BUILD COMMAND: the table row of the timings in $tmp/m.M.
pipe_row() {
	awk -v label="$label" -v mb="$mb" -v b="$2" -v c="$3" -v n="$nrec" \
	    -v s="$(median "$tmp/m.$1")" -v cs="$(median "$tmp/m.pcat")" \
	    -v cpu="$(median3 "$tmp/m.$1")" \
	    -v rr="$(range "$tmp/m.$1")" -v rss="$(maxcol2 "$tmp/m.$1")" \
	    -v base="$1" 'BEGIN {
		printf "| %s | %.0f | %s | %s | %.2f | %s | %s | %.0f | %s | %s | %s |\n",
		    label, mb, b, c, s, rr, cpu, (s > 0 ? mb / s : 0),
		    (base == "pcat" || s <= 0 ? "-" : sprintf("%.2fM", n / s / 1e6)),
		    (base == "pcat" ? "(baseline)" : sprintf("%.1fx", (cs > 0 ? s / cs : 0))),
		    (rss == "-" ? "-" : sprintf("%.1f", rss / 1024))
	    }' >>"$tmp/pipes"
}

# bench_pipeline LABEL RAW: cat, prof-ingest alone, and the whole pipeline
# from the raw input, in the same rounds; with BENCH_BASE, the base's
# pipeline and this one's of the same stages too.
bench_pipeline() {
	label=$1 raw=$2
	pipe_script "$tmp/pipe.sh" "$tools" $present
	ms="pcat ingest pipe"
	common=
	if [ -n "$btools" ]; then
		for t in $present; do
			if [ -x "$btools/$t" ]; then common="$common $t"; fi
		done
		pipe_script "$tmp/bpipe.sh" "$btools" $common
		ms="$ms bpipe"
		if [ "$common" != "$present" ]; then
			pipe_script "$tmp/cpipe.sh" "$tools" $common
			ms="$ms cpipe"
		fi
	fi
	nrec=$("$tools/prof-ingest" -q "$raw" | grep -vc '^#' | awk '{ print $1 - 1 }')
	for m in $ms; do : >"$tmp/m.$m"; done
	r=0
	while [ "$r" -le "$BENCH_RUNS" ]; do
		for m in $ms; do
			o=$tmp/m.$m
			[ "$r" = 0 ] && o=$tmp/warm
			case $m in
			pcat) measure "$o" cat "$raw" || die "cat failed" ;;
			ingest) measure "$o" "$tools/prof-ingest" "$raw" ||
			    die "prof-ingest failed" ;;
			*) measure "$o" sh "$tmp/$m.sh" ||
			    die "the pipeline $m failed on $raw: $(cat "$tmp/err")" ;;
			esac
		done
		r=$((r + 1))
	done
	mb=$(fsize "$raw" | awk '{ print $1 / 1e6 }')
	pipe_row pcat - cat
	pipe_row ingest this "prof-ingest alone"
	pipe_row pipe this "$(pipe_name $present)"
	[ -z "$btools" ] && return 0
	pipe_row bpipe base "$(pipe_name $common)"
	m=pipe
	if [ "$common" != "$present" ]; then
		pipe_row cpipe this "$(pipe_name $common)"
		m=cpipe
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$(median "$tmp/m.bpipe")" \
	    "$(median "$tmp/m.$m")" "$(median3 "$tmp/m.bpipe")" \
	    "$(median3 "$tmp/m.$m")" "$(echo $common | wc -w)" >>"$tmp/vsbase"
}

# pipe_name STAGE...: the pipeline as the table shows it.
pipe_name() {
	c=prof-ingest
	for t in "$@"; do c="$c \\| $t"; done
	printf '%s\n' "$c"
}

: >"$tmp/rows"; : >"$tmp/pipes"; : >"$tmp/vsbase"
[ "$BENCH_PIPELINE_ONLY" = 1 ] || for label in $BENCH_STREAMS; do
	raw=$kineto
	[ "$label" = ascend ] && raw=$kdcsv
	make_streams "$label" "$raw"
	sync		# the streams just written: see bench/run.sh
	prev=$sdir/$label.0.tsv
	for t in $present; do
		targs=$(stage_args "$t")
		note "$label: timing $t $targs"
		bench_stage "$label" "$t" "$prev"
		prev=$sdir/$label.$t.tsv
	done
	# Report writers read the last stream; "-f md" where they take it.
	for t in $writers; do
		targs=$(writer_args "$t")
		note "$label: timing $t $targs"
		bench_stage "$label" "$t" "$last_stream"
	done
	targs=
done
note "timing the whole pipeline"
# loadavg: the load averages, as the shared machine's load is part of a result.
loadavg() { cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo -; }
load=$(loadavg)
case " $BENCH_STREAMS " in *" kineto "*) bench_pipeline "Kineto JSON" "$kineto";; esac
case " $BENCH_STREAMS " in *" ascend "*) bench_pipeline "kernel_details.csv" "$kdcsv";; esac

{
	printf '## Analysis stages benchmark\n\n'
	machine_lines
	printf -- '- load average (1, 5, 15 min) before the whole pipelines: %s; after: %s\n' \
	    "$load" "$(loadavg)"
	printf -- '- medians of %s runs after a warm-up; output to /dev/null; MB = 10^6 bytes\n' "$BENCH_RUNS"
	[ -z "$btools" ] || printf -- '- base: %s, timed in the same rounds\n' "$btools"
	if [ "$BENCH_PIPELINE_ONLY" != 1 ]; then
		printf -- '- streams: prof-ingest output of the generated Kineto trace and kernel_details.csv of bench/run.sh, first %s records each; each stage reads what the stage before it wrote\n\n' "$BENCH_RECORDS"
		printf '| stream | stage | input MB | records | median s | runs s | MB/s | records/s | time vs cat | RSS MiB | RSS MiB, half input | goal 2M records/s |\n'
		printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
		awk -F '\t' '{
			mb = $3 / 1e6; rps = $5 > 0 ? $4 / $5 : 0
			line = sprintf("| %s | %s | %.0f | %d | %.3f | %s |", $1, $2, mb,
			    $4, $5, $9)
			line = line sprintf(" %.0f | %.2fM | %.1fx |",
			    $5 > 0 ? mb / $5 : 0, rps / 1e6, $6 > 0 ? $5 / $6 : 0)
			line = line sprintf(" %.1f | %.1f | %s |", $7 / 1024, $8 / 1024,
			    rps >= 2e6 ? "ok" : "MISS")
			print line
		}' "$tmp/rows"
	fi
	printf '\n### Whole pipeline, from the raw input\n\n'
	printf '| input | size MB | build | command | median s | runs s | CPU s | MB/s | records/s | time vs cat | peak RSS MiB |\n|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
	cat "$tmp/pipes"
	printf '\nCPU s: the median of user + system seconds of every process of the command.\n'
	# This build against the base, on the pipeline of the stages both have.
	awk -F '\t' '{
		printf "\n%s, prof-ingest and the %d stages both builds have: base %.2f s, this %.2f s wall (speed-up %.2fx); base %.2f s, this %.2f s CPU (speed-up %.2fx)\n",
		    $1, $6, $2, $3, ($3 > 0 ? $2 / $3 : 0), $4, $5, ($5 > 0 ? $4 / $5 : 0)
	}' "$tmp/vsbase"
} >"$tmp/report"
cat "$tmp/report"
cp "$tmp/report" "$BENCH_DIR/stages.md"
note "table written to $BENCH_DIR/stages.md"
