#!/bin/sh
# The main job on the bundled example profile (examples/data/alexnet_2rank,
# a real two-rank torch_npu capture): its inventory and its record stream,
# written to examples/out/ under the build directory.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
PATH="$top_builddir/tools:$PATH"
out="$top_builddir/examples/out"
mkdir -p "$out"
cd "$top_srcdir/examples"

prof-ingest -q -i data/alexnet_2rank >"$out/inventory.tsv"
prof-ingest -q data/alexnet_2rank >"$out/stream.tsv"
sh kernel-time.sh >"$out/kernel-time.txt"

echo "Results of the bundled example (examples/data/alexnet_2rank):"
echo "  $out/inventory.tsv   what was found, per rank and source"
echo "  $out/stream.tsv      the prof-tsv record stream"
echo "  $out/kernel-time.txt device kernel time per rank and step"
echo
cat "$out/kernel-time.txt"
