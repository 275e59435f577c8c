# Marker windows on two devices: [S_i, S_i+1), the last step ending at its
# last kernel; records before the first step and after the last get an
# empty step; a straddling kernel counts in the step it starts in; a
# kernel whose own step id disagrees takes the window's and is counted;
# step_trace_time confirms step 2; timeless records pass unchanged.
cp "$top_srcdir/tests/prof-steps/markers.tsv" . && prof-steps markers.tsv | sed '/^#stage /d'
