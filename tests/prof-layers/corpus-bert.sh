# BERT-small inference on an H100 (tracelens): 4 encoder layers
# (num_hidden_layers of gaunernst/bert-small-uncased), one
# pytorch_flash::flash_fwd_kernel each; the raw JSON has 4 of them
# (counted here with grep), so one pass of 4 layers.
J="$CORPUS/pytorch_kineto/tracelens/h100_bert-small_infer.json.gz"
[ -f "$J" ] || exit 77
f="$top_srcdir/tests/cols.awk"
gzip -dc "$J" | grep -oE '"name": *"[^"]*flash_fwd_kernel' | wc -l | awk '{ print "json: flash_fwd_kernel", $1 }'
prof-ingest "$J" | prof-layers >out.tsv || exit 1
awk -v kind=pass,layer -v want=kind,ts_ns,dur_ns,name,pass,layer,phase,rule,layers,kernel_count,kernel_sum_ns,busy_ns,marker_dur_ns,tags -f "$f" out.tsv
awk -v kind=layer_type,role -v want=kind,name,layer_type,value,kernel_count,min_ns,median_ns,max_ns,cv_ratio,busy_ns,share_ratio -f "$f" out.tsv
