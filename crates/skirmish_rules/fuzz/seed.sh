#!/bin/sh
# Seed the fuzz corpora from the shipped content (run from this folder):
# each content file, prefixed by the byte that picks it, and each tier line.
set -e
mkdir -p corpus/content_loader corpus/tier_notation
i=0
for f in $(cd ../../../assets && find abilities ai classes encounters maps monsters rulesets -name '*.ron' | sort); do
    { printf "\\$(printf %03o $i)"; cat "../../../assets/$f"; } > "corpus/content_loader/seed-$i"
    i=$((i + 1))
done
grep -rhoE 'tiers: \("[^"]*", "[^"]*", "[^"]*"\)' ../../../assets | sed -E 's/tiers: \(//; s/\)$//' \
    | tr ',' '\n' | sed -E 's/^ *"//; s/"$//' | sort -u | awk '{ f = sprintf("corpus/tier_notation/line-%d", NR); printf "%s", $0 > f }'
