# Every usage error: message, the try-help line, exit 2.
for a in "-g 0.5" "-g 1001" "-g x" "-c 2" "-c -0.1" "-w 1" "-w 99999999" "-p 1" "-w 16 -p 17" "-p x" "-d -m x" "a.tsv b.tsv"; do
	prof-layers $a </dev/null >/dev/null
	echo "$a: exit $?"
done
prof-layers -m '' </dev/null >/dev/null
echo "-m '': exit $?"
