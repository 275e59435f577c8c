#!/bin/sh
# fuzz/run.sh: run libFuzzer harnesses for a while each ("make fuzz").
#
#   fuzz/run.sh SRCDIR BUILDDIR HARNESS...
#
# Each harness starts from the seeds in SRCDIR/seeds/NAME (and the
# regression inputs in SRCDIR/regress/NAME), grows its corpus in
# BUILDDIR/corpus/NAME, and runs for $FUZZ_TIME seconds (default 60)
# under nice -n 10.  Crashes, hangs (> 10 s on one input), leaks and
# sanitizer reports stop it and are written to BUILDDIR/crash/NAME-*;
# the exit status is then 1.  One summary line per harness: seconds,
# executions, coverage (edges), features, corpus size at start and end.
# $FUZZ_FLAGS is added to every libFuzzer command line.

set -u
[ $# -ge 3 ] || { echo "usage: fuzz/run.sh SRCDIR BUILDDIR HARNESS..." >&2; exit 2; }
src=$1 build=$2
shift 2
FUZZ_TIME=${FUZZ_TIME:-60}
case $FUZZ_TIME in ''|*[!0-9]*|0) echo "fuzz/run.sh: FUZZ_TIME must be a positive integer" >&2; exit 2;; esac
status=0
mkdir -p "$build/corpus" "$build/crash" "$build/log"
printf '%-12s %6s %10s %6s %7s %s\n' harness secs execs cov ft corpus
for h in "$@"; do
	name=${h##*/}
	name=${name#fuzz-}
	corpus=$build/corpus/$name
	mkdir -p "$corpus"
	# Input size cap: a time field is short; the others need room for
	# a header and a few rows or events.
	case $name in
	dtime) opts="-max_len=256";;
	*) opts="-max_len=16384";;
	esac
	dict=$src/dict/$name.dict
	[ -f "$dict" ] && opts="$opts -dict=$dict"
	dirs=
	for d in "$src/seeds/$name" "$src/regress/$name"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	log=$build/log/$name.log
	start=$(ls "$corpus" | wc -l)
	# shellcheck disable=SC2086
	nice -n 10 "$h" $opts -max_total_time="$FUZZ_TIME" -timeout=10 \
	    -rss_limit_mb=2048 -close_fd_mask=2 -print_final_stats=1 \
	    -artifact_prefix="$build/crash/$name-" ${FUZZ_FLAGS:-} \
	    "$corpus" $dirs >"$log" 2>&1
	rc=$?
	end=$(ls "$corpus" | wc -l)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
	cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	printf '%-12s %6s %10s %6s %7s %s -> %s (%s exec/s)\n' "$name" \
	    "$FUZZ_TIME" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$start" "$end" \
	    "${secs:-?}"
	if [ $rc -ne 0 ]; then
		echo "fuzz/run.sh: $name failed (exit $rc); its log, $log, ends:" >&2
		tail -n 40 "$log" >&2
		status=1
	fi
done
exit $status
