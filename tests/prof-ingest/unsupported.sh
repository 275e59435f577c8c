# A file named on the command line that is no profile.
cd "$DATA" && prof-ingest notes.txt
