# Pipeline stages inferred from the send/receive pairs when no
# profiler_metadata.json says them: the whole Qwen PP=2 DP=2 job of
# tests/data/qwen_pp2dp2_4rank with its metadata files left out.  Ranks
# 0 and 2 exchange hcom_batchSendRecv ops, and so do 1 and 3, so the
# pipelines are {0, 2} and {1, 3} and stage 1 is ranks 2 and 3: the same
# stages as the pp groups give (tests/cluster-corpus.sh checks those
# against the CSVs), 400.79 against 231.097 ms, tagged stages_inferred.
# Then two ranks that exchange NCCL SendRecv kernels: NCCL builds its
# all-to-all from them too, so no pipeline is inferred.
cp -r "$top_srcdir/tests/data/qwen_pp2dp2_4rank" job
chmod -R u+w job
rm job/*/profiler_metadata.json
prof-ingest -q job | prof-steps -q | prof-merge | prof-cluster |
    awk -v kind=cluster -v want=name,ranks,min_ns,max_ns,skew_ratio,slow_rank,fast_rank,evidence,tags \
    -f "$top_srcdir/tests/cols.awk" | grep -e '^name' -e stage_imbalance
echo '--- NCCL SendRecv pairs'
awk 'BEGIN {
	printf "#prof-tsv 1\n#origin_ns 0\n"
	printf "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\tstep\tvalue\n"
	for (r = 0; r < 2; r++) {
		printf "metric\t\t\t%d\t\tprofiler_computing_ns\tstep_trace_time\t1\t%d\n", r, 100000000 * (r + 1)
	}
	printf "kernel\t1000\t500\t0\t7\tncclDevKernel_SendRecv\tkernel\t1\t\n"
	printf "kernel\t1200\t300\t1\t7\tncclDevKernel_SendRecv\tkernel\t1\t\n"
}' | prof-cluster | awk -v kind=cluster -v want=name,tags -f "$top_srcdir/tests/cols.awk"
