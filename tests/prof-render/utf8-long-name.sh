# A kernel name of 700 two-, three- and four-byte characters is shortened
# in every human format at a character boundary: each report is
# well-formed UTF-8 (iconv checks), none carries half a character.
name=$(awk 'BEGIN { for (i = 0; i < 100; i++) printf "\303\251\342\202\254\360\237\230\200"; for (i = 0; i < 400; i++) printf "\303\251" }')
printf 'Name,Type,Start Time(us),Duration(us)\n%s,MatMul,1.0,2.0\nok,MatMul,5.0,1.0\n' "$name" >kernel_details.csv
prof-ingest -q kernel_details.csv | prof-steps -q | prof-merge | prof-bubbles |
    prof-attrib | prof-waitanchor | prof-roofline | prof-layers |
    prof-verdict >s.tsv
for f in md text json svg; do
	prof-render -f $f s.tsv >out.$f || echo "$f: status $?"
	iconv -f UTF-8 -t UTF-8 out.$f >/dev/null 2>&1 && echo "$f: well-formed" ||
	    echo "$f: ill-formed UTF-8"
done
