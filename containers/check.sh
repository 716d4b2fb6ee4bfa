#!/usr/bin/env bash
# Static checks of the container files (no engine needed):
#   - every compose file combination is valid (`docker-compose config -q`, or `docker compose`),
#     and every Dockerfile a compose file names exists (which `config -q` does not check);
#   - every service Dockerfile passes `dockerfile-utils lint` (errors fail; warnings are shown),
#     and its CMD is the command of the service's `npm start`.
# Installs docker-compose (Debian package, without the Docker engine it recommends) when missing
# and it can (root with apt-get).
set -euo pipefail
LOG_TAG=check
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"
DOCKERFILE_UTILS=${DOCKERFILE_UTILS:-dockerfile-utils@0.16.3}
failed=0

if have docker-compose; then compose=(docker-compose)
elif have docker && docker compose version >/dev/null 2>&1; then compose=(docker compose)
elif [ "$(id -u)" = 0 ] && have apt-get; then
  log "installing docker-compose (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
  compose=(docker-compose)
else
  die "neither docker-compose nor docker compose is installed"
fi

combinations=(
  "docker-compose.yml"
  "docker-compose.yml docker-compose.sqlite.yml"
  "docker-compose.test.yml"
)
for combination in "${combinations[@]}"; do
  args=()
  for file in $combination; do args+=(-f "$file"); done
  if out=$("${compose[@]}" "${args[@]}" config 2>&1); then
    missing=""
    while read -r dockerfile; do
      [ -f "$dockerfile" ] || missing="$missing $dockerfile"
    done < <(sed -nE 's/^ +dockerfile: *//p' <<<"$out")
    if [ -n "$missing" ]; then
      log "FAIL ${compose[*]} ${args[*]}: no such Dockerfile:$missing"; failed=1
    else
      log "ok   ${compose[*]} ${args[*]} config"
    fi
  else
    log "FAIL ${compose[*]} ${args[*]} config:"; sed 's/^/    /' <<<"$out" >&2; failed=1
  fi
done

for dockerfile in *-service/Dockerfile; do
  if out=$(npx --yes "$DOCKERFILE_UTILS" lint "$dockerfile" 2>/dev/null); then
    log "ok   dockerfile-utils lint $dockerfile"
    [ -z "$out" ] || sed 's/^/    /' <<<"$out" >&2
  else
    log "FAIL dockerfile-utils lint $dockerfile:"; sed 's/^/    /' <<<"$out" >&2; failed=1
  fi
done

# The image runs what `npm start` runs, Node's flags included (the bench measures that command).
for dir in *-service; do
  start=$(node -p "require('./$dir/package.json').scripts.start")
  cmd=$(node -e '
    const line = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter((l) => l.startsWith("CMD ")).pop();
    console.log(JSON.parse(line.slice(4)).join(" "));' "$dir/Dockerfile")
  if [ "$cmd" = "$start" ]; then log "ok   $dir/Dockerfile CMD is npm start's command"
  else log "FAIL $dir/Dockerfile CMD ($cmd) is not npm start's command ($start)"; failed=1; fi
done

[ "$failed" = 0 ] || die "the container files have errors"
log "the container files are valid"
