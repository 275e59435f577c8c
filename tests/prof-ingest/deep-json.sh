# JSON nested deep takes time linear in its size: an event whose args
# nest 100,000 deep (well-formed: kept; a stray comma: an error naming
# the depth), a top-level value and a communication.json as deep.  Each
# run has 20 s; at the old quadratic cost the first took most of an hour.
# An event of more than 2^21 values is refused: its tokens alone would
# take memory out of all proportion.
mkdir bad
python3 -c '
d = 100000
a = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"deep\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 2, \"args\": {\"x\": "
open("good.json", "w").write(a + "{\"a\": " * d + "1" + "}" * d + "}}]}\n")
open("bad.json", "w").write(a + "[" * d + "1," + "]" * d + "}}]}\n")
open("top.json", "w").write("{\"deviceProperties\": " + "[" * d + "]" * d + ", \"traceEvents\": [{\"ph\": \"i\", \"name\": \"m\", \"pid\": 1, \"tid\": 1, \"ts\": 1}]}\n")
open("wide.json", "w").write(a + "[" + "1," * 3000000 + "1]}}]}\n")
open("communication.json", "w").write("{\"step1\": {\"collective\": " + "{\"a\": " * d + "1" + "}" * d + "}}\n")
open("bad/communication.json", "w").write("{\"step1\": {\"collective\": " + "{\"a\": " * d + "1," + "}" * d + "}}\n")
'
for f in good.json bad.json top.json wide.json communication.json bad/communication.json; do
	timeout 20 prof-ingest $f >out
	echo "$f: exit $?, $(grep -vc '^#' out) lines"
done
