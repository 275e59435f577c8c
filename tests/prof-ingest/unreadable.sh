# Unreadable files (mode 000): named on the command line, and inside a
# profile directory (the rest of the directory is still read); and an
# unreadable subdirectory.  Each is named with the system's reason, and
# the status is 1.  Root reads mode-000 files anyway, so as root the
# commands run as the nobody user through setpriv; without it the case
# is skipped (exit 77), saying so.
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 || {
		echo "running as root without setpriv: mode 000 cannot be tested" >&2
		exit 77
	}
	as() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	chmod 755 .
else
	as() { "$@"; }
fi
mkdir -p p/ASCEND_PROFILER_OUTPUT
cp "$DATA/kd_level0_head.csv" kernel_details.csv
cp "$DATA/kineto_before_fix.json" p/rank0.pt.trace.json
cp "$DATA/kd_level0_head.csv" p/ASCEND_PROFILER_OUTPUT/kernel_details.csv
chmod -R a+rX .
chmod 000 kernel_details.csv p/ASCEND_PROFILER_OUTPUT/kernel_details.csv
as prof-ingest kernel_details.csv >/dev/null
echo "exit $?"
as prof-ingest p >out
echo "exit $?"
grep -v '^#' out | cut -f 1 | sort | uniq -c
chmod 000 p/ASCEND_PROFILER_OUTPUT
as prof-ingest p >/dev/null
echo "exit $?"
chmod 755 p/ASCEND_PROFILER_OUTPUT
