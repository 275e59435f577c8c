# A directory walk follows a symbolic link to a directory once: a link
# to the directory above (a loop) or to itself, a second name for a run
# directory, a hard link or a link to a file already read, and a path
# named twice are each read once, and said so on stderr; the records
# are those of the run alone (exit 0: nothing was wrong with the data).
mkdir -p top/run/ASCEND_PROFILER_OUTPUT
cp "$DATA/kd_level0_head.csv" top/run/ASCEND_PROFILER_OUTPUT/kernel_details.csv
prof-ingest top/run | grep -v '^#' | cut -f1-23 >alone
ln -s .. top/run/up
ln -s . top/run/self
ln -s run top/alias
ln top/run/ASCEND_PROFILER_OUTPUT/kernel_details.csv top/hard_kernel_details.csv
ln -s run/ASCEND_PROFILER_OUTPUT/kernel_details.csv top/kernel_details.csv
prof-ingest top top/run >all
echo "exit $?"
grep -v '^#' all | cut -f1-23 | cmp - alone && echo "records of the run alone"
