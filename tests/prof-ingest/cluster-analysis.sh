# msprof-analyze's cluster-analysis outputs read as what they are: the
# rank rows of cluster_step_trace_time.csv become each rank's
# step_trace_time metrics (exact ns), a stage row becomes stage_ metrics
# with the stage's ranks in group; cluster_communication.json gives one
# comm record per op and rank ("Total Op Info" is no op), with the op's
# transit, wait, synchronisation and idle times and each link's transit
# size and time in pmu as written, and the links' sizes in bytes (SDMA,
# the sum of HCCS and PCIE again, not added).  A Type that is
# neither rank nor stage is an error naming the line.  (Rows shaped like
# the corpus's msinsight_2023-09 copy, figures shortened.)
mkdir c
cat >c/cluster_step_trace_time.csv <<'CSV'
Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive)
2,rank,0,75174.57464453117,146614.02034375005,6987.3,153601.3,69909.50350390615,291698.0,0.0,146614.02
2,rank,1,75422.22,151303.54,7129.46,158433.0,67860.8,294586.5,0.0,151303.54
2,stage,"(0, 1)",75422.22,151303.54,7129.46,158433.0,69909.5,294586.5,0,151303.54
CSV
cat >c/cluster_communication.json <<'JSON'
{"(0, 1)": {"step2": {"hcom_broadcast__483_0@935": {
 "0": {"Communication Time Info": {"Start Timestamp(us)": 1695115378715400.2, "Elapse Time(ms)": 4.969808, "Transit Time(ms)": 0.0128, "Wait Time(ms)": 3.6, "Synchronization Time(ms)": 3.6, "Idle Time(ms)": 1.35},
   "Communication Bandwidth Info": {"RDMA": {"Transit Size(MB)": 0, "Transit Time(ms)": 0}, "HCCS": {"Transit Size(MB)": 0.131088, "Transit Time(ms)": 0.0128}, "PCIE": {"Transit Size(MB)": 4e-05, "Transit Time(ms)": 0.00162}, "SDMA": {"Transit Size(MB)": 0.131128, "Transit Time(ms)": 0.01442}}}},
 "1": {"Communication Time Info": {"Start Timestamp(us)": 1695115378711707.0, "Elapse Time(ms)": 8.66528, "Wait Time(ms)": 0.0}}},
 "Total Op Info": {"0": {"Communication Time Info": {"Start Timestamp(us)": 0, "Elapse Time(ms)": 1}}}}}}
JSON
prof-ingest c | grep -v '^#' | cut -f1-4,6,7,8,10,15,22
prof-ingest c | awk -F'\t' '$1 == "comm" { print $4, $21, $23 }'
prof-ingest c | prof-cluster | awk -F'\t' '$1 == "rank_step" || $1 == "rank_wait"' | cut -f1,4 
sed 's/^2,stage/2,pipe/' c/cluster_step_trace_time.csv >cluster_step_trace_time.csv
prof-ingest cluster_step_trace_time.csv >/dev/null
echo "exit $?"
