# The partition, host_top and hostcov, checked by hand (ns):
#   B1 [1000,2000): sync = aten::copy_ [1300,1500) + aten::item [1920,
#      1960) = 240; input = the DataLoader event [900,1400) and the
#      Python frame of its __next__ [1450,1600), less sync: 300 + 100 =
#      400; launch [1700,1750) = 50; host = aten::mm [1600,1900) and the
#      optimizer [1850,1950), less launch and sync: 270; untraced
#      [1960,2000) = 40.  The Python frame of train.py, Kineto's Trace
#      span and the ProfilerStep#1 marker are none of these.  host_top:
#      DataLoader 0.4, aten::mm 0.3, aten::copy_ 0.2; host coverage 0.86
#      (the Python frame is not host work), sync 0.24 -> sync label.
#   B2 [3000,4000): two hcom_allReduce calls on two threads normalise to
#      one name, union [3000,3500) = 0.5; 'a;b' is written 'a,b' and ties
#      with aten::conv2d at 0.1 (ties by name; conv2d keeps its digit);
#      host 700, untraced 300; comm 0.5, and host work without launches
#      on a rank that launches: host_cpu_work.
#   B3 [5000,5500): aten::item 400 of 500 -> host_sync_stall; the
#      ProfilerStep#2 marker is no host work, so untraced 100.
# hostcov: step 1 (idle 2000) hcom 500, DataLoader 400, aten::mm 300;
# step 2 (500) aten::item 400; group g0 (2500) hcom 500, aten::item
# 440, DataLoader 400, aten::mm 300, aten::copy_ 200.
prof-attrib "$top_srcdir/tests/prof-attrib/partition.tsv" >out.tsv
awk -v kind=bubble -f "$top_srcdir/tests/cols.awk" \
    -v want=bubble_id,dur_ns,idle_sync_ns,idle_input_ns,idle_launch_ns,idle_host_ns,idle_untraced_ns,host_cov_ratio,sync_cov_ratio,comm_cov_ratio,labels out.tsv
awk -v kind=bubble -v want=bubble_id,host_top -f "$top_srcdir/tests/cols.awk" out.tsv
awk -v kind=hostcov -f "$top_srcdir/tests/cols.awk" \
    -v want=dev,name,scope,step,step_group,host_class,covered_ns,share_ratio out.tsv
# The five parts add up to dur_ns on every bubble.
awk -v kind=bubble -f "$top_srcdir/tests/cols.awk" \
    -v want=dur_ns,idle_sync_ns,idle_input_ns,idle_launch_ns,idle_host_ns,idle_untraced_ns out.tsv |
    awk -F'\t' 'NR > 1 && $1 != $2 + $3 + $4 + $5 + $6 {bad++}
	END {print (bad ? bad " bubbles do not add up" : "every partition adds up")}'
