# One transformer layer compiled by torch.compile on an MI300X
# (tests/data/mi300x_torch_compile_triton.json.gz, TraceLens): Triton's
# fused RMS norms and SiLU, hipBLASLt GEMMs (Cijk_) and Triton's flash
# attention, attn_fwd, which is a default marker.  One attention kernel
# in the trace (counted from the raw JSON), so one forward pass of one
# Dense layer, from attn_fwd to the last kernel.
J="$top_srcdir/tests/data/mi300x_torch_compile_triton.json.gz"
f="$top_srcdir/tests/cols.awk"
gzip -dc "$J" | grep -o '"name": *"attn_fwd"' | wc -l | awk '{ print "json: attn_fwd", $1 }'
prof-ingest -q "$J" | prof-layers >out.tsv || exit 1
awk -v kind=model,pass,layer -v want=kind,ts_ns,dur_ns,name,phase,layers,kernel_count,busy_ns,idle_ns,gap_ns,block_busy_ns,side_busy_ns,task_mix,value,evidence -f "$f" out.tsv
awk -v kind=role -v want=name,value,busy_ns,share_ratio -f "$f" out.tsv
