# What a structure costs, by hand (times in us; the stream is in ns).
# One pass of three attention layers on stream 7, a collective on
# stream 9, one step window of 1000 us:
#   layer 0 [0, 300): marker 0-100 (wait 10), GEMM 100-150, a 5 us op
#     at 160, an all-reduce 150-350 on stream 9 (into layer 1).
#     kernel sum 355, cost 365, busy 300 (the collective clipped at
#     300); block = the marker and the GEMM on stream 7 (sum 150, busy
#     150, cost 160, wall 0-150); side = the 5 us op and the collective
#     (sum 205, busy 150-300 = 150, wall 150); no idle; no gap (nothing
#     ran before); task classes comm 200/355, kernel 155/355.
#   layer 1 [300, 600): marker 300-400, GEMM 450-500.  The collective
#     runs on until 350: gap 0; idle inside 400-450 = 50; the 100 us
#     after the GEMM are the gap before layer 2.
#   layer 2 [600, 760): marker 600-700, GEMM 700-760; the last, so it
#     ends at its last kernel (before the reference gap of 300); gap 100.
#   pass: wall 760 = device busy 610 + idle 50 + between 100; share of
#     the step 0.76.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tstep\twait_ns\n' >in.tsv
printf 'window\t0\t1000000\t0\t\tProfilerStep#1\t1\t\n' >>in.tsv
k() { printf 'kernel\t%s\t%s\t0\t%s\t%s\t1\t%s\n' "$1" "$2" "$3" "$4" "$5" >>in.tsv; }
k 0 100000 7 flash_fwd_kernel 10000
k 100000 50000 7 sgemm_128x64 ''
k 150000 200000 9 ncclDevKernel_AllReduce ''
k 160000 5000 7 vectorized_elementwise_kernel ''
k 300000 100000 7 flash_fwd_kernel ''
k 450000 50000 7 sgemm_128x64 ''
k 600000 100000 7 flash_fwd_kernel ''
k 700000 60000 7 sgemm_128x64 ''
f="$top_srcdir/tests/cols.awk"
prof-layers in.tsv >out.tsv || exit 1
awk -v kind=pass,layer -v want=kind,ts_ns,dur_ns,layer,kernel_sum_ns,busy_ns,cost_total_ns,idle_ns,gap_ns,between_ns,step_share_ratio,step,micro -f "$f" out.tsv
awk -v kind=pass,layer -v want=kind,layer,block_wall_ns,block_busy_ns,block_sum_ns,block_cost_ns,side_wall_ns,side_busy_ns,side_sum_ns,side_cost_ns,task_mix -f "$f" out.tsv
awk -v kind=layer_type,model,metric -v want=kind,name,value,cost_total_ns,idle_ns,gap_ns,block_busy_ns,block_sum_ns,block_cost_ns,side_busy_ns,side_sum_ns,side_cost_ns,tags,evidence -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $1 != "metric" || $2 ~ /passes_per_step|macro/'
