# A small raw Kineto trace: the whole stream, every kind it holds.
prof-ingest "$DATA/kineto_before_fix.json" | sed '/^#stage /d; /^#source /s| [^ ]*/| |'
