# Format recognised from content when the CSV comes on standard input.
prof-ingest <"$DATA/kd_level0_head.csv" | sed '/^#stage /d'
