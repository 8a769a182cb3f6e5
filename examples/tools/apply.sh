#!/bin/sh
# Example apply tool: makes world/<target> what plan.sh planned (the content it
# kept beside the plan file), or removes it when the plan destroys it.
set -eu
target=$1
plan=$2
world="${DEMO_WORLD:-world}"
mkdir -p "$world"
if [ -f "$plan.desired" ]; then
  cp "$plan.desired" "$world/$target"
  echo "applied $target: $(wc -l < "$world/$target") lines in $world/$target"
else
  rm -f "$world/$target"
  echo "applied $target: removed $world/$target"
fi
