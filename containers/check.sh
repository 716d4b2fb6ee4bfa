#!/usr/bin/env bash
# Static checks of the container files (no engine needed):
#   - every compose file combination is valid (`docker-compose config -q`, or `docker compose`),
#     and every Dockerfile a compose file names exists (which `config -q` does not check);
#   - every Dockerfile (the services', the edge's, the MongoDB stand-in's) passes
#     `dockerfile-utils lint` (errors fail; warnings are shown), and each service's CMD is the
#     command of its `npm start`;
#   - the user's compose files hold nothing engine-specific: no fixed addresses, sysctls, IPAM
#     options or extra_hosts (the edge finds the replicas through the engine's DNS);
#   - the edge's configuration is valid (`haproxy -c`, where haproxy is installed);
#   - the MongoDB stand-in never takes the name of MongoDB's own image.
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
  "docker-compose.yml docker-compose.mongo-standin.yml"
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

for dockerfile in *-service/Dockerfile proxy/Dockerfile containers/mongo-standin/Dockerfile; do
  if out=$(npx --yes "$DOCKERFILE_UTILS" lint "$dockerfile" 2>/dev/null); then
    log "ok   dockerfile-utils lint $dockerfile"
    [ -z "$out" ] || sed 's/^/    /' <<<"$out" >&2
  else
    log "FAIL dockerfile-utils lint $dockerfile:"; sed 's/^/    /' <<<"$out" >&2; failed=1
  fi
done

# The runtime image runs what `npm start` runs, Node's flags included (the bench measures that command).
for dir in *-service; do
  start=$(node -p "require('./$dir/package.json').scripts.start")
  cmd=$(node -e '
    const stages = require("fs").readFileSync(process.argv[1], "utf8").split(/^FROM /m);
    const runtime = stages.find((stage) => / AS runtime\n/.test(stage)) ?? "";
    const line = runtime.split("\n").filter((l) => l.startsWith("CMD ")).pop();
    console.log(JSON.parse(line.slice(4)).join(" "));' "$dir/Dockerfile")
  if [ "$cmd" = "$start" ]; then log "ok   $dir/Dockerfile CMD is npm start's command"
  else log "FAIL $dir/Dockerfile CMD ($cmd) is not npm start's command ($start)"; failed=1; fi
done

# Nothing engine-specific in the files users run.
if out=$(grep -nE '^\s*(ipv4_address|ipv6_address|sysctls|ipam|extra_hosts|mac_address)\s*:' docker-compose*.yml); then
  log "FAIL engine-specific settings in the compose files:"; sed 's/^/    /' <<<"$out" >&2; failed=1
else
  log "ok   the compose files hold no fixed address, sysctls, IPAM option or extra_hosts"
fi

if have haproxy; then
  config=$(mktemp)
  sed "s#/usr/local/etc/haproxy/#$REPO_ROOT/proxy/#g" proxy/haproxy.cfg >"$config"
  # With the image's settings (proxy/Dockerfile's ENV), and a certificate as start.sh makes one.
  mapfile -t image_env < <(sed -nE 's/^(ENV +| +)([A-Z_]+)=("?)([^" \\]*)\3 *\\?$/\2=\4/p' proxy/Dockerfile)
  pem=$(mktemp)
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=check \
    -keyout "$pem.key" -out "$pem.crt" 2>/dev/null && cat "$pem.crt" "$pem.key" >"$pem"
  if out=$(env "${image_env[@]}" EDGE_TLS_PEM="$pem" haproxy -c -f "$config" 2>&1); then log "ok   haproxy -c proxy/haproxy.cfg"
  else log "FAIL haproxy -c proxy/haproxy.cfg:"; sed 's/^/    /' <<<"$out" >&2; failed=1; fi
  rm -f "$config" "$pem" "$pem.key" "$pem.crt"
else
  log "note: haproxy is not installed here: proxy/haproxy.cfg is checked when its image starts"
fi

case $MONGO_STANDIN_IMAGE in
  mongo:* | */mongo:* | "$MONGO_IMAGE" | "") log "FAIL the MongoDB stand-in's image name ($MONGO_STANDIN_IMAGE) would shadow $MONGO_IMAGE"; failed=1 ;;
  *) log "ok   the MongoDB stand-in is $MONGO_STANDIN_IMAGE, never $MONGO_IMAGE" ;;
esac

[ "$failed" = 0 ] || die "the container files have errors"
log "the container files are valid"
