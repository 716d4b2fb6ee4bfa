#!/usr/bin/env bash
# make check-k8s: renders every kustomization of deploy/kubernetes (the base and each overlay)
# with `kubectl kustomize`, then validates each rendered object offline, with no cluster: against
# Kubernetes' schemas (unknown fields included) and the project's own rules (rules.mjs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
manifests=$(dirname "$here")
cd "$manifests/../.."

if ! command -v kubectl >/dev/null; then
  echo "check-k8s: kubectl is not installed; it renders the manifests (kubectl kustomize, no cluster needed)." >&2
  echo "check-k8s: install kubectl 1.27 or later (kustomize is built in), then run make check-k8s again." >&2
  exit 1
fi
echo "kubectl $(kubectl version --client 2>/dev/null | tr '\n' ' ')"

echo "== deploy/kubernetes/check: npm ci"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
echo "== deploy/kubernetes/check: the checker's own tests"
(cd "$here" && node --test --test-reporter=spec)

rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT
for kustomization in "$manifests"/base "$manifests"/overlays/*/; do
  name=deploy/kubernetes/${kustomization#"$manifests"/}
  name=${name%/}
  kubectl kustomize "$kustomization" >"$rendered" || { echo "$name: kubectl kustomize failed" >&2; exit 1; }
  node "$here/check.mjs" "$name" <"$rendered"
done
