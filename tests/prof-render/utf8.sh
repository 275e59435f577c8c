# Ill-formed UTF-8 in a name (a profiler writes the bytes it gets; the
# stream is not checked for it): the JSON, Chrome and SVG outputs replace
# each maximal ill-formed subpart by U+FFFD, so that strict JSON and XML
# parsers accept them, and say how many.  Well-formed names pass whole.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >u8.tsv
printf 'kernel\t10\t5\t0\t1\tk\377\300\257\342\202\n' >>u8.tsv
printf 'kernel\t20\t5\t0\t1\t\346\265\213\355\240\200\n' >>u8.tsv
printf 'kernel\t30\t5\t0\t1\tgemm \342\206\222 \346\265\213\350\257\225\n' >>u8.tsv
# a rank named with a bad byte: the SVG shows rank names
printf 'kernel\t40\t5\tr\377\t1\tk4\nbusy\t40\t5\tr\377\t\tbusy\n' >>u8.tsv
for f in json chrome svg; do
	prof-render -f $f u8.tsv >u8.$f
	echo "-f $f: exit $?"
done
python3 -c '
import json, sys, xml.dom.minidom
json.load(open("u8.json"))
t = json.load(open("u8.chrome"))
xml.dom.minidom.parse("u8.svg")
print(ascii(xml.dom.minidom.parse("u8.svg").toxml()).count("\\ufffd"), "U+FFFD in the SVG")
for e in t["traceEvents"]:
    if e.get("cat") == "kernel" or e.get("ph") == "X" and e["name"][:1] in "kg\u6d4b":
        print(ascii(e["name"]))
print("valid JSON, JSON and XML")'
