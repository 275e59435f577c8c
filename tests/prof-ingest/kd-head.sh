# kernel_details.csv (2025-01 level0 header generation: no Stream ID).
prof-ingest "$DATA/kd_level0_head.csv" | sed '/^#stage /d; /^#source /s| [^ ]*/| |'
