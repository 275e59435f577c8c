# Usage errors: exit 2 with the option and value named.
for o in --underfeed=1.5 --heavy=abc --mixed=. --recurring=-1 \
    --idle-rule=both --top=-1 --near=x --min-heavy=1.5 --tag-share=0.1234567891 \
    --floor=-1 --floor=1ms; do
	prof-bubbles "$o" </dev/null >/dev/null
	echo "$o: exit $?"
done
prof-bubbles a b >/dev/null
echo "two operands: exit $?"
