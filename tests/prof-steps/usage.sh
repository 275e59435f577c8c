# Usage errors: exit 2 and the Try line.
prof-steps -t abc; echo "exit $?"
prof-steps --tolerance=101; echo "exit $?"
prof-steps a.tsv b.tsv; echo "exit $?"
prof-steps $(for i in $(seq 17); do printf -- '-m x%d ' $i; done); echo "exit $?"
prof-steps --period=1; echo "exit $?"
prof-steps -p x; echo "exit $?"
