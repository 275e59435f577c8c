# The bottleneck rule per step and for the run, on prof-steps windows
# of 10000 ns (peaks: one FLOP and one byte are 1 ps each, ridge 1;
# --latency-pct 0 so that short kernels still count as compute or
# memory):
#  step 1: a compute-bound MatMul 0-6000, a comm kernel 6000-7000:
#          compute 6000 > idle 3000 -> compute
#  step 2: an allreduce 10000-16000, the MatMul 16000-17000 -> comm
#  step 3: ten tiny Adds of 100 ns, one per 1000 ns: idle 9000 ns with
#          no sync -> launch (10 tiny kernels)
#  step 4: a MatMul 30000-31000, then the host waits in
#          cudaDeviceSynchronize for 8000 ns: sync 8000 of idle 9000
#  run:    span 40000 (the windows), busy 16000, idle 24000 of which
#          8000 under the sync call: launch 16000 beats compute 8000,
#          comm 7000 and sync 8000 -> launch, value 0.4
# Then the same stream with prof-attrib labels on bubble records: idle
# is the bubbles' time, and a 'sync' label makes it synchronisation.
f="$top_srcdir/tests/cols.awk"
B=DT_BF16
hdr='#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcore\ttype\tstep\tin_shapes\tin_dtypes\tout_shapes\tout_dtypes\tlabels\n'
printf "$hdr" >in.tsv
r() { printf '%s\t%s\t%s\t0\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>in.tsv; }
mm() { r kernel $1 $2 1 MatMul AI_CORE MatMulV2 $3 '64,32;16,32' "$B;$B" '64,16' $B ''; }
r window 0 10000 '' 'step 1' '' '' 1 '' '' '' '' ''
mm 0 6000 1
r kernel 6000 1000 2 hcom_allReduce_ HCCL '' 1 '' '' '' '' ''
r window 10000 10000 '' 'step 2' '' '' 2 '' '' '' '' ''
r kernel 10000 6000 2 hcom_allReduce_ HCCL '' 2 '' '' '' '' ''
mm 16000 1000 2
r window 20000 10000 '' 'step 3' '' '' 3 '' '' '' '' ''
for i in 0 1 2 3 4 5 6 7 8 9; do
	r kernel $((20000 + i * 1000)) 100 1 Add AI_VECTOR_CORE Add 3 '64;64' "$B;$B" 64 $B ''
done
r window 30000 10000 '' 'step 4' '' '' 4 '' '' '' '' ''
mm 30000 1000 4
r host 31000 8000 9 cudaDeviceSynchronize '' '' 4 '' '' '' '' ''
prof-roofline --peak-flops bf16=1000000000000 --peak-bw 1000000000000 --latency-pct 0 in.tsv >out.tsv
awk -v kind=bottleneck,roof -v want=kind,scope,step,name,dur_total_ns,value,evidence,tags -f "$f" out.tsv |
    awk -F'\t' '$2 != "op"'
echo '--- with bubble records labelled by prof-attrib'
mv in.tsv in1.tsv
printf "$hdr" >in.tsv
r window 0 10000 '' 'step 1' '' '' 1 '' '' '' '' ''
mm 0 1000 1
r bubble 1000 7000 '' step_internal '' '' 1 '' '' '' '' 'sync'
r bubble 8000 2000 '' tail '' '' 1 '' '' '' '' 'host'
mv in.tsv in2.tsv
prof-roofline --peak-flops bf16=1000000000000 --peak-bw 1000000000000 --latency-pct 0 in2.tsv |
    awk -v kind=bottleneck -v want=scope,step,name,value,evidence,tags -f "$f"
