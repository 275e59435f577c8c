#!/bin/sh
# bench/ingest-breadth.sh: prof-ingest on inputs that are broad or deep
# rather than long (issue 14): N small trace files in one directory, and
# one event whose args nest D levels deep, each at two sizes, so that the
# time and peak RSS show how they grow.  Linear time: twice the input,
# about twice the seconds; flat memory: about the same RSS.
#
#   top_builddir=. sh bench/ingest-breadth.sh
#
# Environment: BENCH_DIR (default $top_builddir/bench/data), PROF_INGEST.
# Needs python3 (to write the inputs) and GNU time for the RSS.
set -eu
top_builddir=${top_builddir:-.}
BENCH_DIR=${BENCH_DIR:-$top_builddir/bench/data}
PROF_INGEST=${PROF_INGEST:-$top_builddir/tools/prof-ingest}
dir=$BENCH_DIR/breadth
rm -rf "$dir"
mkdir -p "$dir"
python3 - "$dir" <<'EOF'
import os, sys
d = sys.argv[1]
ev = '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": %d, "dur": 2}]}\n'
for n in (10000, 20000):
    os.mkdir('%s/files%d' % (d, n))
    for i in range(n):
        open('%s/files%d/t%05d.pt.trace.json' % (d, n, i), 'w').write(ev % i)
head = '{"traceEvents": [{"ph": "X", "name": "deep", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"x": '
for depth in (100000, 200000):
    open('%s/deep%d.json' % (d, depth), 'w').write(
        head + '{"a": ' * depth + '1' + '}' * depth + '}}]}\n')
    open('%s/deepbad%d.json' % (d, depth), 'w').write(
        head + '[' * depth + '1,' + ']' * depth + '}}]}\n')
EOF
measure() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%e %M' "$PROF_INGEST" -q "$1" 2>&1 >/dev/null |
		    tail -n 1
	else
		s=$(date +%s%N)
		"$PROF_INGEST" -q "$1" >/dev/null 2>&1 || :
		echo "$((($(date +%s%N) - s) / 1000000)).000e-3 -"
	fi
}
printf '| input | size | seconds | peak RSS KiB |\n|---|---:|---:|---:|\n'
for n in 10000 20000; do
	set -- $(measure "$dir/files$n")
	printf '| trace files in one directory | %d files | %s | %s |\n' $n "$1" "$2"
done
for depth in 100000 200000; do
	for k in deep deepbad; do
		f=$dir/$k$depth.json
		set -- $(measure "$f")
		printf '| one event nested deep%s | %d levels, %d bytes | %s | %s |\n' \
		    "$([ $k = deepbad ] && echo ', malformed')" $depth \
		    "$(wc -c <"$f")" "$1" "$2"
	done
done
rm -rf "$dir"
