# Usage errors exit 2 with the try line; each is checked on its own.
for args in '--rank=median' '--top=-1' '--top=x' 'a.tsv b.tsv'; do
	prof-waitanchor $args </dev/null >/dev/null
	echo "exit $?"
done
