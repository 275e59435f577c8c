# --rank=total ranks by sums over all calls; --top moves the rank limit;
# --all-devs pools the devices.  'many' costs 20 us a call, 10 calls;
# 'rare' 100 us, once; 'waity' is a 1 us kernel after 99 us of wait,
# three times on dev 0 and once on dev 1.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\twait_ns\n' >in.tsv
awk 'BEGIN { OFS = "\t"
	for (i = 0; i < 10; i++) print "kernel", t += 100, 20000, 0, 1, "many", 0
	print "kernel", t += 100, 100000, 0, 1, "rare", 0
	for (i = 0; i < 3; i++) print "kernel", t += 100, 1000, 0, 1, "waity", 99000
	print "kernel", t += 100, 1000, 1, 1, "waity", 99000
}' >>in.tsv
w=dev,name,calls,dur_avg_ns,cost_avg_ns,dur_total_ns,cost_total_ns,rank_cost,rank_dur,tags
f="$top_srcdir/tests/cols.awk"
prof-waitanchor in.tsv | awk -v kind=op -v want=$w -f "$f"
echo '--- --top=1'
prof-waitanchor --top=1 in.tsv | awk -v kind=op -v want=$w -f "$f"
echo '--- --rank=total --top=1'
prof-waitanchor --rank=total --top=1 in.tsv | awk -v kind=op -v want=$w -f "$f"
echo '--- -a'
prof-waitanchor -a in.tsv | awk -v kind=op,metric -v want=kind,$w,value -f "$f"
