# Pipeline stages from profiler_metadata.json's pp groups (a rank's stage
# is its place in its pp group): four ranks of a 2-stage, 2-way data
# parallel job, whose step_trace_time Computing per step is 231 and
# 233 ms on stage 0 (ranks 0, 1) and 400 and 402 ms on stage 1 (ranks 2,
# 3): stage 0 idles 169 ms a step waiting for stage 1, 1.73 times its
# compute.  Then the same job with stage 1's ranks missing from the
# stream: the imbalance is said to be unmeasurable, not 1.
awk 'BEGIN {
	printf "#prof-tsv 1\n#origin_ns 0\n"
	printf "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\tstep\tgroup\tvalue\n"
	split("231000000 233000000 400000000 402000000", comp, " ")
	for (r = 0; r < 4; r++) {
		printf "metric\t\t\t%d\t\tpipeline_model_parallel_size\tprofiler_metadata\t\t\t\t2\n", r
		printf "metric\t\t\t%d\t\tparallel_group\tprofiler_metadata\tpp\t\t%d,%d\t%d\n", r, r % 2, r % 2 + 2, int(r / 2)
		for (s = 1; s <= 2; s++)
			printf "metric\t\t\t%d\t\tprofiler_computing_ns\tstep_trace_time\t\t%d\t\t%d\n", r, s, comp[r + 1]
	}
}' >job.tsv
prof-cluster job.tsv | awk -v kind=cluster \
    -v want=name,ranks,min_ns,max_ns,skew_ratio,slow_rank,fast_rank,evidence,tags \
    -f "$top_srcdir/tests/cols.awk"
awk -F'\t' '$4 != 2 && $4 != 3' job.tsv >half.tsv
prof-cluster half.tsv | awk -v kind=cluster -v want=name,ranks,evidence,tags \
    -f "$top_srcdir/tests/cols.awk" | grep -e stage_imbalance -e '^name'

