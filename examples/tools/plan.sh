#!/bin/sh
# Example plan tool: compares the desired file examples/desired/<target> with the
# live file world/<target> and writes a chant-wave plan file (SPEC.md §4.2).
# Removing a live file is destructive; identical files are an empty plan.
# It keeps the planned content beside the plan file so apply applies exactly it.
set -eu
target=$1
plan=$2
desired="examples/desired/$target"
live="${DEMO_WORLD:-world}/$target"

echo "planning $target: $desired -> $live"
destructive=false
empty=false
if [ -f "$desired" ] && [ -f "$live" ] && cmp -s "$desired" "$live"; then
  empty=true; summary="no changes"
elif [ -f "$desired" ] && [ -f "$live" ]; then
  summary="1 to change"
elif [ -f "$desired" ]; then
  summary="1 to add"
elif [ -f "$live" ]; then
  destructive=true; summary="1 to destroy"
else
  empty=true; summary="no changes"
fi

if [ -f "$desired" ]; then cp "$desired" "$plan.desired"; else rm -f "$plan.desired"; fi
digest=$( { printf '%s\n' "$target"; cat "$desired" 2>/dev/null || echo "<absent>"; \
  printf '\n--\n'; cat "$live" 2>/dev/null || echo "<absent>"; } | sha256sum | cut -d' ' -f1)
printf '{ "planDigest": "sha256:%s", "destructive": %s, "empty": %s, "summary": "%s" }\n' \
  "$digest" "$destructive" "$empty" "$summary" > "$plan"
echo "$target: $summary"
