# Links against a peak the user gives (--link-peak; none is assumed):
# the whole Qwen PP=2 DP=2 job moved 1,766,554,400 to 1,766,557,552
# bytes over HCCS in about 93 ms a rank (communication.json), 18.99 to
# 19.009 GB/s; against a peak of 56 GB/s that is 0.339 of it, the
# slowest rank (2) 33.9 %.  The type is matched without regard to case,
# a type without a peak gets no peak columns, and without the option
# the two columns are not added at all.
prof-ingest -q "$top_srcdir/tests/data/qwen_pp2dp2_4rank" | prof-steps -q |
    prof-merge >job.tsv || exit 1
prof-cluster --link-peak HCCS=56 --link-peak rdma=25 job.tsv |
    awk -v kind=link,cluster -v want=kind,dev,name,scope,bytes,transit_ns,gbps,peak_gbps,peak_ratio,evidence \
    -f "$top_srcdir/tests/cols.awk" | grep -e '^kind' -e '^link' -e slow_link
echo '--- without --link-peak'
prof-cluster job.tsv | grep -v '^#' | head -1 | tr '\t' '\n' |
    awk '/peak/ { n++ } END { print n + 0 " peak columns" }'
