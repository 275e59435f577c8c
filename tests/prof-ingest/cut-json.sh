# JSON cut inside an event is reported, never taken as the end; the
# events before the cut are still written.
cd "$DATA" && prof-ingest kineto_cut.json >"$OLDPWD/out"
echo "exit $?"
grep -c -v '^#' "$OLDPWD/out"
