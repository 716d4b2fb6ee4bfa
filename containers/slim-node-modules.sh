#!/bin/sh
# slim-node-modules.sh DIR...: removes from installed production dependencies what a running
# service never reads (source maps, type declarations, Markdown, tests and docs, a native addon's
# sources and build leftovers), and the empty folders npm prune leaves (scopes such as
# @esbuild), for the runtime images. Licence files stay.
set -eu
for dir in "$@"; do
  [ -d "$dir" ] || continue
  find "$dir" -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
    -o -iname '*.md' -o -iname '*.markdown' \) -delete
  find "$dir" -depth -type d \( -name test -o -name tests -o -name __tests__ -o -name docs \
    -o -name example -o -name examples \) -exec rm -rf {} +
  rm -rf "$dir/@types"
  # Native addons: only the compiled module of build/Release is loaded.
  find "$dir" -name binding.gyp -not -path '*/node_modules/*/node_modules/*/binding.gyp' | while read -r gyp; do
    addon=$(dirname "$gyp")
    rm -rf "$addon/deps" "$addon/src"
    if [ -d "$addon/build" ]; then
      find "$addon/build" -type f -not -path '*/Release/*.node' -delete
      find "$addon/build" -depth -type d -empty -delete
    fi
  done
  find "$dir" -mindepth 1 -depth -type d -empty -delete
done
