# Usage errors (status 2), a missing operand (1), and a damaged input:
# the stage that read it says where, prof-report names it, exits 1, and
# the reports hold what came before the damage.
prof-report -o out
echo "exit $?"
prof-report -j x -o out "$DATA/resnet50_step6.json.gz"
echo "exit $?"
prof-report --bogus x
echo "exit $?"
prof-report -s sometimes x
echo "exit $?"
prof-report -N a/b x
echo "exit $?"
prof-report -o out no-such-dir
echo "exit $?"
prof-report -q -o out "$DATA/kineto_trunc.json.gz" 2>err
echo "exit $?"
sed "s|$DATA/||" err
ls out | grep -c .
