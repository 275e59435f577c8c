# -f text fits the width: $COLUMNS when standard output is no terminal,
# the terminal's own width when it is one (script(1) gives a terminal,
# stty sets its width), 80 without either; never narrower than 40.
v=$top_srcdir/tests/prof-render/verdict.tsv
# Columns, not bytes: UTF-8 continuation bytes are not counted.
widest() { tr -d '\200-\277' | awk '{ n = length($0) } n > w { w = n } END { print w + 0 }'; }
COLUMNS=50 prof-render -f text "$v" >50.txt || exit 1
echo "COLUMNS=50: widest $(widest <50.txt)"
head -n 8 50.txt
COLUMNS=10 prof-render -f text "$v" | widest | sed 's/^/COLUMNS=10: widest /'
COLUMNS=junk prof-render -f text "$v" | widest | sed 's/^/COLUMNS=junk: widest /'
(unset COLUMNS; prof-render -f text "$v") | widest | sed 's/^/no COLUMNS: widest /'
command -v script >/dev/null 2>&1 || exit 0
script -qec "stty cols 64 rows 50; COLUMNS=100 prof-render $v" /dev/null </dev/null |
    tr -d '\r' | widest | sed 's/^/terminal of 64 columns: widest /'
