#!/usr/bin/env bash
# Smoke test of the stack on the Docker engine, for CI:
#   1. makes the base image locally when it cannot be pulled (containers/base-image.sh), then
#      builds, in parallel, the edge, the three services' runtime images and the MongoDB stand-in;
#   2. starts the SQLite stack as `make up-sqlite` does (containers/stack.sh up-sqlite), on ports
#      13001-13003 so as not to meet a stack on 3001-3003, and checks, through the edge: each
#      service's routes and containers; a cacheable answer is a MISS, then a HIT with the same
#      bytes; a random page and cd-service's answers are PASS; compression per variant; one cache
#      entry per representation (query order, percent-encoding, Host, 2,000 Origins);
#      X-Request-Id; HTTPS with the edge's self-signed certificate, HTTP/2 by ALPN, one cache for
#      both protocols, a write over HTTP/2 read over both, malformed HTTP/2 requests refused
#      before any replica (containers/hostile-h2.mjs); /metrics refused (read at each replica's own address); 2,000 parameters get the
#      service's JSON 400; the edge's own errors fit the path (a page or the JSON body), carry the
#      services' security headers and CORS for any origin, and a request it cannot parse gets
#      400; a CD written is seen by the next read, and one writer with 12 readers for 20 s sees no
#      stale read; CONNECT and TRACE refused by the edge; 20 s of hostile
#      connections (containers/hostile-connections.mjs) beside 12 bystanders restart no replica and
#      give no bystander another's answer; games and travel scaled to 3 replicas, each served,
#      a rolling restart of the six under a steady load loses no request, then back to 2; a
#      replica recreated with a new address is back in the rotation within 10 s; the CD after a
#      restart and in a new container (the SQLite volume); graceful stops;
#   3. starts the whole `make up` stack with the MongoDB stand-in (MONGO_STANDIN=1 stack.sh up):
#      the stand-in under its own name, healthy, on its volume; both cd replicas on it; a CD
#      written through the edge read by each, and after a rolling restart of both; the edge's
#      per-client limits as shipped (containers/edge-limits.mjs): 429s past the budget, and a
#      bystander at another address answered while one address holds 4,500 connections;
#      Chromium on another origin (containers/browser-checks.mjs): the games page and a CD's
#      read-modify-write over HTTPS with the edge's certificate, and the 429 read by a script;
#   4. removes what it started (containers, network, volumes), whatever happened, and prints
#      the time of each phase.
# Prints `SKIPPED: <reason>` and exits 0 when no Docker engine answers (SMOKE_REQUIRED=1: exits 1).
# Env: SMOKE_PORT_BASE (default 13000), SMOKE_KEEP=1 (leave the last stack running, to look at
#      it: the script then prints how to stop it).
set -euo pipefail
LOG_TAG=smoke
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"
skip() { skip_check SMOKE_REQUIRED "$@"; }

PROJECT=koa-services-smoke
export COMPOSE_PROJECT_NAME=$PROJECT
PORT_BASE=${SMOKE_PORT_BASE:-13000}
# The waits for a replica to come up (the stack, a restart) are generous: they catch one that never
# comes, and a machine loaded by other work (CI runs the tests beside) takes its time to start one.
export IMAGE_TAG=smoke BIND_ADDRESS=127.0.0.1 LOG_REQUESTS=true UP_TIMEOUT=120 READY_TIMEOUT=120
export GAMES_PORT=$((PORT_BASE + 1)) TRAVEL_PORT=$((PORT_BASE + 2)) CD_PORT=$((PORT_BASE + 3))
export GAMES_HTTPS_PORT=$((PORT_BASE + 441)) TRAVEL_HTTPS_PORT=$((PORT_BASE + 442)) CD_HTTPS_PORT=$((PORT_BASE + 443))
export CD_API_TOKEN=smoke-token-$RANDOM$RANDOM ITINERARY_SEED=smoke-seed
# The SQLite stack's loads (hostile connections, a steady load, many readers) come from one
# address: the edge's per-client limits are lifted there. The MongoDB stack keeps the shipped
# ones, and its checks meet them.
LIFTED_LIMITS=(EDGE_CLIENT_CONNECTIONS=100000 EDGE_CLIENT_REQUESTS=100000000 EDGE_CLIENT_WRITES=100000000)
export "${LIFTED_LIMITS[@]}"
declare -A URL=([games-service]=http://127.0.0.1:$GAMES_PORT [travel-service]=http://127.0.0.1:$TRAVEL_PORT
  [cd-service]=http://127.0.0.1:$CD_PORT)
declare -A PORT=([games-service]=3001 [travel-service]=3002 [cd-service]=3003)
SQLITE=(-f docker-compose.yml -f docker-compose.sqlite.yml)

# ---- 1. the engine, or a clear reason why not
phase "the engine and the images"
have docker || skip "docker is not installed (apt-get install docker.io docker-compose)"
if ! err=$(timeout 20 docker info 2>&1 >/dev/null); then skip "the Docker engine does not answer: ${err##*$'\n'}"; fi
detect_engine
ensure_base_image
if ! err=$(docker run --rm --network none --init "$NODE_IMAGE" node -e 'process.exit(0)' 2>&1); then
  skip "Docker cannot start a container on this machine: ${err##*$'\n'}"
fi
log "Docker $(docker version --format '{{.Server.Version}}'), $ENGINE_NAME $("${COMPOSE[@]}" version --short 2>/dev/null || true), base image $NODE_IMAGE"

work=$(mktemp -d "${TMPDIR:-/tmp}/koa-smoke.XXXXXX")
export BUILD_LOG_DIR=$work/build
started=0 stack_files=("${SQLITE[@]}") load_pid=""
declare -A build_pid=()
stack_down() {
  "${COMPOSE[@]}" -p "$PROJECT" "${stack_files[@]}" down -v --remove-orphans --timeout 5 >"$work/down.log" 2>&1 ||
    { cat "$work/down.log" >&2; return 1; }
}
cleanup() {
  local status=$? pid left
  trap - EXIT INT TERM
  [ -z "$load_pid" ] || kill "$load_pid" 2>/dev/null || true
  for pid in "${build_pid[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [ "$started" = 1 ] && [ "${SMOKE_KEEP:-0}" != 1 ]; then
    log "== teardown"
    stack_down || status=1
    left=$(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT")
    # shellcheck disable=SC2086  # one argument per container id
    if [ -n "$left" ]; then log "containers left behind, removing: $left"; docker rm -f $left >/dev/null; status=1; fi
    for volume in cd-data mongo-data; do
      if docker volume inspect "${PROJECT}_$volume" >/dev/null 2>&1; then docker volume rm -f "${PROJECT}_$volume" >/dev/null; status=1; fi
    done
  fi
  if [ "$started" = 1 ] && [ "${SMOKE_KEEP:-0}" = 1 ]; then
    log "SMOKE_KEEP=1: the stack runs on. Stop it with: ${COMPOSE[*]} -p $PROJECT ${stack_files[*]} down -v"
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

IMAGES=(proxy "${SERVICES[@]}" mongo-standin)
for name in "${IMAGES[@]}"; do
  ( start=$SECONDS
    case $name in
      proxy) build_image proxy "$PROJECT/proxy:$IMAGE_TAG" proxy ;;
      mongo-standin) bash containers/mongo-standin.sh ;;
      *) build_image "$name" "$PROJECT/$name:$IMAGE_TAG" . "$name/Dockerfile" runtime ;;
    esac 2>"$work/build-$name.out"
    echo "$((SECONDS - start))" >"$work/build-$name.seconds" ) &
  build_pid[$name]=$!
done
for name in "${IMAGES[@]}"; do
  status=0
  wait "${build_pid[$name]}" || status=$?
  if [ "$status" != 0 ]; then
    cat "$work/build-$name.out" >&2
    die "the $name image does not build (its build ended with status $status)"
  fi
  log "built $name in $(cat "$work/build-$name.seconds") s"
done
build_pid=()

passed=0 failed=0 failures=()
ok() { passed=$((passed + 1)); log "ok   $*"; }
fail() { failed=$((failed + 1)); failures+=("$*"); log "FAIL $*"; }

# ---- 2. the SQLite stack, as `make up-sqlite` starts it
phase "the SQLite stack: containers/stack.sh up-sqlite"
for port in "$GAMES_PORT" "$TRAVEL_PORT" "$CD_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port is taken (SMOKE_PORT_BASE chooses others)"; fi
done
start=$SECONDS started=1
# Its output, each line with the seconds since it started.
stamped() { local from=$SECONDS line; while IFS= read -r line; do printf '%4d s %s\n' $((SECONDS - from)) "$line"; done; }
# The lines of stack.sh's own, not the build steps or the engine's.
stack_lines() { grep -E '^ *[0-9]+ s \[(stack|mongo-standin|base-image)\]' "$1" | sed 's/^/    /' >&2 || true; }
bash containers/stack.sh up-sqlite 2>&1 | stamped >"$work/up-sqlite.out" || { cat "$work/up-sqlite.out" >&2; die "make up-sqlite's path failed"; }
stack_lines "$work/up-sqlite.out"
log "stack.sh up-sqlite: every replica in the edge's rotation after $((SECONDS - start)) s"

compose() { "${COMPOSE[@]}" -p "$PROJECT" "${stack_files[@]}" "$@"; }
# expect SERVICE DESCRIPTION STATUS PATTERN -- curl arguments (the URL last); the answer's
# headers are left in $work/headers, its body in $work/body.
expect() {
  local service=$1 what=$2 want=$3 pattern=$4 got body
  shift 5
  got=$(curl -sS --max-time 10 -D "$work/headers" -o "$work/body" -w '%{http_code}' "$@" 2>&1) || true
  body=$(cat "$work/body" 2>/dev/null || true)
  if [ "$got" = "$want" ] && grep -qE -- "$pattern" <<<"$body"; then ok "$service: $what"
  else fail "$service: $what: status $got (want $want), body: ${body:0:300}"; fi
}
# header NAME [FILE]: a header of the last answer (or of the headers kept in FILE).
header() { sed -nE "s/^$1: *([^\r]*)\r?$/\1/Ip" "${2:-$work/headers}" | tail -1; }
# expect_cache DESCRIPTION X-CACHE -- curl arguments: the edge's X-Cache of the answer.
expect_cache() {
  local what=$1 want=$2 got
  shift 3
  curl -sS --max-time 10 -D "$work/headers" -o "$work/body" "$@" >/dev/null 2>&1 || true
  got=$(header X-Cache)
  if [ "$got" = "$want" ]; then ok "edge: $what: X-Cache $got"
  else fail "edge: $what: X-Cache '$got' (want $want); $(head -1 "$work/headers" | tr -d '\r')"; fi
}
# A replica's own address (the host reaches the stack's network).
replica_url() { echo "http://$(address_of "$1"):${PORT[$(service_of "$1")]}"; }
check_container() {
  local service=$1 id uid
  id=$(container_of "$service")
  uid=$(docker exec "$id" id -u 2>&1 || true)
  if [[ $uid =~ ^[1-9][0-9]*$ ]]; then ok "$service: runs as uid $uid (not root)"; else fail "$service: runs as uid '$uid'"; fi
  if [ "$(docker inspect --format '{{.HostConfig.RestartPolicy.Name}}' "$id")" = unless-stopped ]; then
    ok "$service: restart policy unless-stopped"
  else fail "$service: no restart policy"; fi
  local logs
  logs=$(docker inspect --format '{{.HostConfig.LogConfig.Type}} {{index .HostConfig.LogConfig.Config "max-size"}} {{index .HostConfig.LogConfig.Config "max-file"}}' "$id")
  if [ "$logs" = "local 10m 3" ]; then ok "$service: its logs rotate (local driver, 3 files of 10 MB)"
  else fail "$service: its logs: '$logs' (want: local 10m 3)"; fi
}
# The runtime image runs compiled JavaScript only: no TypeScript source (declarations aside), no
# tests, no tsx, esbuild or typescript.
check_no_build_tools() {
  local service=$1 found
  found=$(docker exec "$(container_of "$service")" sh -c '
    cd /app
    find . -path "*/node_modules" -prune -o \( -name "*.ts" ! -name "*.d.ts" -o -name test -type d -o -name "*.test.*" \) -print
    for dir in */node_modules packages/*/node_modules; do
      for tool in tsx esbuild typescript @esbuild; do
        [ -n "$(ls -A "$dir/$tool" 2>/dev/null)" ] && echo "$dir/$tool"
      done
    done
    true' 2>&1 | head -5) || true
  if [ -z "$found" ]; then ok "$1: no TypeScript sources, tests, tsx, esbuild or typescript in the image"
  else fail "$1: the image holds build or test files: ${found//$'\n'/ }"; fi
}
# What an image adds to its base, in MB: the runtime image is compiled JavaScript, production
# dependencies and the seed only.
declare -A SIZE_LIMIT_MB=([games-service]=15 [travel-service]=15 [cd-service]=30)
check_image_size() {
  local service=$1 base size added
  base=$(docker image inspect --format '{{.Size}}' "$NODE_IMAGE")
  size=$(docker image inspect --format '{{.Size}}' "$PROJECT/$service:$IMAGE_TAG")
  added=$(( (size - base) / 1000000 ))
  if [ "$added" -le "${SIZE_LIMIT_MB[$service]}" ]; then ok "$service: the image adds $added MB to its base (at most ${SIZE_LIMIT_MB[$service]})"
  else fail "$service: the image adds $added MB to its base (at most ${SIZE_LIMIT_MB[$service]})"; fi
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# logs_with FILE PATTERN ID...: the logs of the containers in FILE, once a line matches PATTERN.
# The services write their logs asynchronously and the engine collects them, which a loaded
# machine delays: looked for again and again, for at most 30 s. Fails when the line never came.
logs_with() {
  local file=$1 pattern=$2 id
  for _ in $(seq 60); do
    for id in "${@:3}"; do docker logs "$id"; done >"$file" 2>&1 || true
    grep -qE -- "$pattern" "$file" && return 0
    sleep 0.5
  done
  return 1
}
# `docker stop` sends SIGTERM (through init) and waits the grace period: the service drains and
# exits 0 by itself, inside it, after logging that it shut down. Exit 0 is the proof: a process
# still running at the end of the grace period is killed (137), and one whose own drain outlasts
# its limit exits 1. How long `docker stop` took is shown, not bounded: a loaded machine slows it.
# Prints its verdict.
graceful_stop() {
  local id=$1 name start elapsed code
  name=$(name_of "$id")
  start=$(now_ms)
  docker stop "$id" >/dev/null 2>&1
  elapsed=$(( $(now_ms) - start ))
  code=$(docker inspect --format '{{.State.ExitCode}}' "$id")
  if [ "$code" = 0 ] && grep -q '"message":"shut down"' <(docker logs "$id" 2>&1); then
    echo "ok $name: docker stop: exit 0 after $elapsed ms, 'shut down' logged"
  else echo "FAIL $name: docker stop: exit $code after $elapsed ms; last lines: $(docker logs --tail 3 "$id" 2>&1 | tr '\n' ' ')"; fi
}
# The edge's cache entries (HAProxy's `show cache`, asked inside its container).
cache_entries() {
  docker exec "$(container_of proxy)" node -e '
    const s = require("net").connect(8081, "127.0.0.1", () => s.end("show cache\n"));
    let out = ""; s.on("data", (d) => (out += d)); s.on("end", () => console.log(out.split("\n").filter((l) => /hash:/.test(l)).length));'
}

phase "the SQLite stack: routes through the edge, the containers"
# The addresses `make up-sqlite` ends with answer.
mapfile -t printed < <(grep -oE 'http://[0-9.]+:[0-9]+[^ ]*' "$work/up-sqlite.out")
[ "${#printed[@]}" = 3 ] || fail "stack.sh up-sqlite printed ${#printed[@]} addresses, not 3"
for url in "${printed[@]}"; do expect stack.sh "the printed $url answers a page" 200 '<html' -- "$url"; done
for service in "${SERVICES[@]}"; do
  u=${URL[$service]}
  expect "$service" "GET /healthz through the edge" 200 '"status": *"ok"' -- "$u/healthz"
  expect "$service" "GET /metrics through the edge: refused" 404 '"status": *404' -- "$u/metrics"
  expect "$service" "GET /metrics at a replica's own address (the stack's network)" 200 'http_request_duration_seconds_count' -- "$(replica_url "$(container_of "$service")")/metrics"
  check_container "$service"
  check_no_build_tools "$service"
  check_image_size "$service"
  case $service in
    games-service)
      expect "$service" "GET / (page)" 200 '<html' -- "$u/"
      expect "$service" "GET /top-rated (page)" 200 '<html' -- "$u/top-rated"
      expect "$service" "GET /api/games" 200 '^\[\{"id"' -- "$u/api/games"
      expect "$service" "GET /api/games/999999 (JSON 404)" 404 '"status": *404' -- "$u/api/games/999999"
      # Past the 1,024 parameters HAProxy 2.6 can sort: the service's own JSON 400, not the edge's 500.
      expect "$service" "GET /api/games with 2,000 parameters (JSON 400)" 400 '"status": *400' -- "$u/api/games?$(seq -f 'p%g=1' 0 1999 | paste -sd'&')" ;;
    travel-service)
      expect "$service" "GET / (page)" 200 '<html' -- "$u/"
      expect "$service" "GET /api/itineraries" 200 '^\[' -- "$u/api/itineraries"
      for id in $(containers_of travel-service); do
        seed=$(docker exec "$id" printenv ITINERARY_SEED || true)
        if [ "$seed" = "$ITINERARY_SEED" ]; then ok "$(name_of "$id"): ITINERARY_SEED passed through"
        else fail "$(name_of "$id"): ITINERARY_SEED is '$seed'"; fi
      done ;;
    cd-service)
      expect "$service" "GET /cds (seeded)" 200 '"title"' -- "$u/cds"
      expect "$service" "GET /healthz: the store is SQLite" 200 '"store": *"sqlite"' -- "$u/healthz"
      # better-sqlite3 compiled against Node >= 24.19 headers aborts when the GC frees its
      # objects (see cd-service/Dockerfile): open and drop many databases, let the GC run.
      gc_check='const D=require("better-sqlite3");let n=0;const b=()=>{for(let i=0;i<2000;i++){const d=new D(":memory:");d.prepare("select 1").get();d.close()}if(++n<40)setTimeout(b,20);else setTimeout(()=>console.log("survived"),2000)};b()'
      if docker run --rm --network none "$PROJECT/cd-service:$IMAGE_TAG" node -e "$gc_check" 2>&1 | grep -q '^survived$'; then
        ok "$service: better-sqlite3 survives the GC of its objects"
      else fail "$service: better-sqlite3 aborts when the GC frees its objects"; fi ;;
  esac
done
sums=$(for id in $(containers_of travel-service); do curl -sS --max-time 10 "$(replica_url "$id")/api/itineraries/Buenos%20Aires" | sha256sum; done | sort -u)
if [ "$(wc -l <<<"$sums")" = 1 ]; then ok "the travel replicas answer GET /api/itineraries/Buenos Aires byte for byte the same"
else fail "the travel replicas answer GET /api/itineraries/Buenos Aires differently"; fi

phase "the SQLite stack: the edge's cache"
g=${URL[games-service]} t=${URL[travel-service]} c=${URL[cd-service]}
BR=(-H 'Accept-Encoding: br')
expect_cache "GET /api/games/top-rated (public, max-age), first" MISS -- "${BR[@]}" "$g/api/games/top-rated"
cp "$work/body" "$work/first"
expect_cache "GET /api/games/top-rated, second" HIT -- "${BR[@]}" "$g/api/games/top-rated"
if cmp -s "$work/first" "$work/body"; then ok "edge: the HIT has the same bytes as the MISS"; else fail "edge: the HIT differs from the MISS"; fi
for _ in 1 2; do expect_cache "GET / on games (random page, no-store), again" PASS -- "${BR[@]}" "$g/"; done
expect_cache "GET /cds?limit=2 on cd (never cached: every read goes to a replica)" PASS -- "${BR[@]}" "$c/cds?limit=2"
expect_cache "GET /cds?limit=2 on cd, again" PASS -- "${BR[@]}" "$c/cds?limit=2"
# Compression: each encoding is its own variant, stored and sent as the service made it
# (/api/games: over the services' 1 KB threshold).
curl -sS --max-time 10 -o "$work/identity" "$g/api/games"
for encoding in br gzip; do
  expect_cache "GET /api/games, Accept-Encoding: $encoding, first" MISS -- -H "Accept-Encoding: $encoding, deflate" "$g/api/games"
  expect_cache "GET /api/games, Accept-Encoding: $encoding, second" HIT -- -H "Accept-Encoding: deflate, $encoding" "$g/api/games"
  if [ "$(header Content-Encoding)" = "$encoding" ] && header Vary | grep -qi 'accept-encoding' &&
    cmp -s <(curl -sS --compressed -H "Accept-Encoding: $encoding" "$g/api/games") "$work/identity"; then
    ok "edge: the $encoding variant is $encoding-encoded, says Vary: Accept-Encoding, and decodes to the same bytes"
  else fail "edge: the $encoding variant: Content-Encoding '$(header Content-Encoding)', Vary '$(header Vary)'"; fi
done
# The first request without Accept-Encoding (above) stored the uncompressed variant apart.
expect_cache "GET /api/games without Accept-Encoding: the uncompressed variant, never a compressed one" HIT -- "$g/api/games"
if [ -z "$(header Content-Encoding)" ] && cmp -s "$work/identity" "$work/body"; then ok "edge: a client without Accept-Encoding gets no encoding"
else fail "edge: a client without Accept-Encoding got Content-Encoding '$(header Content-Encoding)'"; fi
expect_cache "GET /api/games, Accept-Encoding: br, after the uncompressed variant was stored: the br one" HIT -- "${BR[@]}" "$g/api/games"
if [ "$(header Content-Encoding)" = br ]; then ok "edge: a br client never gets the uncompressed variant"
else fail "edge: a br client got Content-Encoding '$(header Content-Encoding)'"; fi
# HEAD is GET without the body (RFC 9110 9.3.2): the same Content-Encoding, Vary and ETag, and a
# Content-Length only when the GET sends the same one (8.6), from the service and from the cache.
# The edge looks a HEAD up in the cache but stores only GETs: before any GET of the URL the HEAD
# goes to the service (PASS); after it, the cache answers it (HIT) from the stored GET.
head_url="$g/api/games?limit=50" GZIP=(-H 'Accept-Encoding: gzip')
expect_cache "HEAD /api/games?limit=50, gzip, before any GET: from the service" PASS -- -I "${GZIP[@]}" "$head_url"
cp "$work/headers" "$work/head-service"
expect_cache "GET /api/games?limit=50, gzip, first" MISS -- "${GZIP[@]}" "$head_url"
cp "$work/headers" "$work/get-service"
expect_cache "HEAD /api/games?limit=50, gzip, after the GET: from the cache" HIT -- -I "${GZIP[@]}" "$head_url"
cp "$work/headers" "$work/head-cache"
expect_cache "GET /api/games?limit=50, gzip, second" HIT -- "${GZIP[@]}" "$head_url"
cp "$work/headers" "$work/get-cache"
# head_differs HEAD-HEADERS GET-HEADERS: what the HEAD says otherwise than its GET (nothing: agrees).
head_differs() {
  local name mine theirs
  for name in Content-Encoding Vary ETag Content-Type Cache-Control; do
    mine=$(header "$name" "$1") theirs=$(header "$name" "$2")
    [ "$mine" = "$theirs" ] || printf "%s '%s' (GET: '%s'); " "$name" "$mine" "$theirs"
  done
  mine=$(header Content-Length "$1") theirs=$(header Content-Length "$2")
  [ -z "$mine" ] || [ "$mine" = "$theirs" ] || printf "Content-Length '%s' (GET: '%s'); " "$mine" "${theirs:-none}"
}
for from in service cache; do
  differs=$(head_differs "$work/head-$from" "$work/get-$from")
  if [ "$(header Content-Encoding "$work/get-$from")" = gzip ] && [ -z "$differs" ]; then
    ok "edge: a HEAD of a gzip answer from the $from agrees with the GET (Content-Length '$(header Content-Length "$work/head-$from")', GET's '$(header Content-Length "$work/get-$from")')"
  else fail "edge: a HEAD of a gzip answer from the $from: ${differs:-the GET is not gzip}"; fi
done
# One entry per representation: other spellings of one query, another Host, any Origin.
expect_cache "GET /api/games?limit=2&genre=Puzzle, first" MISS -- "${BR[@]}" "$g/api/games?limit=2&genre=Puzzle"
for spelling in 'genre=Puzzle&limit=2' 'limit=2&genre=Puzzle&' 'limit=2&genre=Puzzle&&' '&limit=2&&genre=Puzzle' '?limit=2&genre=Puzzle' 'genr%65=Puzzl%65&limit=2' 'limit=%32&genre=Puzzle'; do
  expect_cache "GET /api/games?$spelling: the same entry" HIT -- "${BR[@]}" "$g/api/games?$spelling"
done
expect_cache "GET http://127.0.0.1:PORT/api/games?limit=2&genre=Puzzle (absolute-form): the same entry" HIT -- "${BR[@]}" \
  --request-target "http://127.0.0.1:$GAMES_PORT/api/games?limit=2&genre=Puzzle" "$g"
expect_cache "GET /api/games?limit=2&genre=Puzzle with another Host: the same entry" HIT -- "${BR[@]}" -H 'Host: elsewhere.example' "$g/api/games?limit=2&genre=Puzzle"
expect_cache "GET /api/games/top-rated with an Origin: the same entry" HIT -- "${BR[@]}" -H 'Origin: https://one.example' "$g/api/games/top-rated"
if [ "$(header Access-Control-Allow-Origin)" = '*' ] && ! header Vary | grep -qi origin; then ok "edge: Access-Control-Allow-Origin: * without Vary: Origin ($(header Vary))"
else fail "edge: Access-Control-Allow-Origin '$(header Access-Control-Allow-Origin)', Vary '$(header Vary)'"; fi
entries_before=$(cache_entries)
origins=$(node -e '
  const http = require("node:http");
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const hits = { HIT: 0 }; let n = 0;
  const one = (i) => new Promise((resolve) => http.get(process.argv[1], { agent, headers: { Origin: `https://site-${i}.example`, "Accept-Encoding": "br" } },
    (r) => { r.resume(); r.on("end", () => { hits[r.headers["x-cache"]] = (hits[r.headers["x-cache"]] ?? 0) + 1; resolve(); }); }).on("error", resolve));
  (async () => { while (n < 2000) await Promise.all(Array.from({ length: 8 }, () => one(n++))); console.log(hits.HIT, JSON.stringify(hits)); })();' "$t/api/itineraries" 2>&1)
entries_after=$(cache_entries)
added=$((entries_after - entries_before))
if [ "$added" -le 2 ] && [ "${origins%% *}" -ge 1990 ]; then ok "edge: 2,000 Origins on one URL: $added cache entries added, ${origins%% *} HITs (${origins#* })"
else fail "edge: 2,000 Origins on one URL: $added cache entries added ($entries_before then $entries_after), X-Cache: ${origins#* }"; fi
# X-Request-Id: the client's own is passed to the service (its request log) and sent back, on a
# HIT too; a request without one gets one from the edge.
rid=smoke-$RANDOM$RANDOM
expect_cache "GET / on games with X-Request-Id" PASS -- -H "X-Request-Id: $rid" "$g/"
answered_id=$(header X-Request-Id)
# shellcheck disable=SC2046  # one argument per container id
if [ "$answered_id" = "$rid" ] && logs_with "$work/games.log" "\"requestId\":\"$rid\"" $(containers_of games-service); then
  ok "edge: X-Request-Id $rid reached the service (its log) and came back"
else fail "edge: X-Request-Id $rid: answered '$answered_id', or not in the services' logs"; fi
expect_cache "a HIT with X-Request-Id" HIT -- "${BR[@]}" -H "X-Request-Id: $rid-hit" "$g/api/games/top-rated"
if [ "$(header X-Request-Id)" = "$rid-hit" ]; then ok "edge: a HIT answers with this request's X-Request-Id"
else fail "edge: a HIT answers X-Request-Id '$(header X-Request-Id)'"; fi
expect_cache "a HIT without X-Request-Id" HIT -- "${BR[@]}" "$g/api/games/top-rated"
if [[ $(header X-Request-Id) =~ ^edge-[0-9a-f-]{36}$ ]]; then ok "edge: a request without X-Request-Id gets one ($(header X-Request-Id))"
else fail "edge: a request without X-Request-Id got '$(header X-Request-Id)'"; fi

phase "the SQLite stack: the edge's own errors"
# The security headers of the services' JSON answers (the service kit's API_SECURITY_HEADERS), by
# name: their values are read from a service's own JSON error, through the edge.
SECURITY_HEADERS=(Content-Security-Policy Cross-Origin-Resource-Policy Referrer-Policy X-Content-Type-Options X-Frame-Options)
expect games-service "GET /api/games/999999: the service's JSON 404, for its headers" 404 '"status": *404' -- "$g/api/games/999999"
cp "$work/headers" "$work/service-error"
# edge_headers WHAT EXPOSED...: the last answer, the edge's own, carries each of the services'
# security headers once, with their value, and a script of any origin may read it and EXPOSED.
edge_headers() {
  local what=$1 name wrong="" exposed
  for name in "${SECURITY_HEADERS[@]}"; do
    if [ "$(grep -ci "^$name:" "$work/headers")" != 1 ] || [ "$(header "$name")" != "$(header "$name" "$work/service-error")" ]; then
      wrong+="$name '$(header "$name")' (the service's: '$(header "$name" "$work/service-error")'); "
    fi
  done
  [ "$(header Access-Control-Allow-Origin)" = '*' ] || wrong+="Access-Control-Allow-Origin '$(header Access-Control-Allow-Origin)'; "
  exposed=$(header Access-Control-Expose-Headers)
  for name in X-Request-Id "${@:2}"; do
    grep -qiE "(^|,) *$name *(,|$)" <<<"$exposed" || wrong+="$name not in Access-Control-Expose-Headers '$exposed'; "
  done
  if [ -z "$wrong" ]; then ok "edge: $what: the services' security headers, readable from any origin"
  else fail "edge: $what: $wrong"; fi
}
# The services' own answers keep theirs, never doubled: a page its own policy and no CORS, a
# JSON answer (from the cache too) each security header once.
doubled=""
for name in "${SECURITY_HEADERS[@]}"; do [ "$(grep -ci "^$name:" "$work/service-error")" = 1 ] || doubled+="$name; "; done
expect_cache "GET /api/games/top-rated, for its headers" HIT -- "${BR[@]}" "$g/api/games/top-rated"
for name in "${SECURITY_HEADERS[@]}"; do [ "$(grep -ci "^$name:" "$work/headers")" = 1 ] || doubled+="$name (a HIT); "; done
expect games-service "GET /games/1 (page), for its headers" 200 '<html' -- "$g/games/1"
[[ $(header Content-Security-Policy) == *"default-src 'self'"* ]] && [ "$(grep -ci '^content-security-policy:' "$work/headers")" = 1 ] ||
  doubled+="a page's Content-Security-Policy '$(header Content-Security-Policy)'; "
[ -z "$(header Access-Control-Allow-Origin)" ] || doubled+="a page's Access-Control-Allow-Origin '$(header Access-Control-Allow-Origin)'; "
[ -z "$doubled" ] && ok "edge: the services' answers keep their own security headers, once, and pages get no CORS" ||
  fail "edge: the services' answers: $doubled"
# A request the edge cannot parse: 400 from the edge, never "no replica is ready".
bad=$(exec 3<>"/dev/tcp/127.0.0.1/$GAMES_PORT"; printf 'GET /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab' >&3; timeout 5 head -1 <&3 | tr -d '\r')
if [[ $bad == "HTTP/1.1 400"* ]]; then ok "edge: two Content-Lengths: $bad"; else fail "edge: two Content-Lengths: '$bad' (want 400)"; fi
# A valid chunked request with a chunk extension reaches the service (here: a method it refuses).
chunked=$(exec 3<>"/dev/tcp/127.0.0.1/$GAMES_PORT"; printf 'POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2;ext=1\r\n{}\r\n0\r\n\r\n' >&3; timeout 5 head -1 <&3 | tr -d '\r')
if [[ $chunked == "HTTP/1.1 405"* ]]; then ok "edge: a chunk extension is passed to the service: $chunked"; else fail "edge: a chunk extension: '$chunked' (want the service's 405)"; fi
# CONNECT and TRACE are refused by the edge, with a 405 whose body fits the path.
connect_answer=$(exec 3<>"/dev/tcp/127.0.0.1/$CD_PORT"; printf 'CONNECT x:1 HTTP/1.1\r\nHost: x:1\r\n\r\n' >&3; { timeout 5 sed '/^\r$/q' <&3 || true; } | tr -d '\r')
if [[ $connect_answer == "HTTP/1.1 405"* ]] && grep -qi '^allow: GET, HEAD$' <<<"$connect_answer"; then ok "edge: CONNECT gets the edge's 405"
else fail "edge: CONNECT: '${connect_answer:0:200}' (want the edge's 405)"; fi
expect cd-service "TRACE /%63ds/<id>: the edge's JSON 405 (the path percent-decoded)" 405 '^\{"error":"Method TRACE is not allowed","status":405\}$' -- -X TRACE "$c/%63ds/x"
[ "$(header Allow)" = 'GET, HEAD, PUT, DELETE' ] && ok "edge: its 405 on /cds/<id> allows GET, HEAD, PUT, DELETE" || fail "edge: its 405 on /cds/<id>: Allow '$(header Allow)'"
edge_headers "its JSON 405" Allow
expect games-service "TRACE /api/games: the edge's JSON 405" 405 '^\{"error":"Method TRACE is not allowed","status":405\}$' -- -X TRACE "$g/api/games"
edge_headers "its JSON 405 on games" Allow
expect games-service "TRACE /games/1: the edge's HTML 405" 405 '<h1>Method not allowed</h1>' -- -X TRACE "$g/games/1"
edge_headers "its HTML 405" Allow
mapfile -t games_ids < <(containers_of games-service)
# docker pause freezes the container's cgroup, which on a loaded machine can give up ("unable to
# freeze"): each is asked again, a few times. The last error is left in $pause_error.
pause_error=""
set_paused() { # set_paused true|false pause|unpause ID...
  local want=$1 action=$2 id
  for id in "${@:3}"; do
    for _ in 1 2 3 4 5; do
      [ "$(docker inspect --format '{{.State.Paused}}' "$id")" = "$want" ] && break
      pause_error=$(docker "$action" "$id" 2>&1 >/dev/null) || { log "docker $action $(name_of "$id"): $pause_error; again"; sleep 2; }
    done
    [ "$(docker inspect --format '{{.State.Paused}}' "$id")" = "$want" ] || return 1
  done
}
if ! set_paused true pause "${games_ids[@]}"; then fail "docker pause of the games replicas fails, five times each: $pause_error"
elif wait_edge_count games-service 0 30 any; then
  for attempt in 1 2; do
    # Paths the cache does not hold (a stored answer is still served while no replica is ready).
    expect games-service "no replica ready, a page path ($attempt): the edge's HTML page" 503 '<html' -- "$g/games/1?uncached=$attempt"
    [ "$(header Content-Type)" = 'text/html; charset=utf-8' ] && [ "$(header Cache-Control)" = no-store ] && [ "$(header Retry-After)" = 5 ] &&
      ok "edge: its page says text/html, no-store, Retry-After: 5" || fail "edge: its page: $(tr '\r\n' '  ' <"$work/headers")"
    edge_headers "its page 503 ($attempt)" Retry-After
    expect games-service "no replica ready, an API path ($attempt): the JSON error body" 503 '^\{"error":"No replica[^"]*","status":503\}$' -- "$g/api/games?uncached=$attempt"
    [ "$(header Content-Type)" = 'application/json; charset=utf-8' ] && [ "$(header Cache-Control)" = no-store ] &&
      ok "edge: its JSON error says application/json, no-store" || fail "edge: its JSON error: $(tr '\r\n' '  ' <"$work/headers")"
    edge_headers "its JSON 503 ($attempt)" Retry-After
  done
else fail "the edge still has games replicas in its rotation 30 s after they were paused"; fi
set_paused false unpause "${games_ids[@]}" || fail "docker unpause of the games replicas fails, five times each: $pause_error"
wait_edge_ready 30 "${games_ids[@]}" || fail "the games replicas are not back in the rotation after unpausing"

phase "the SQLite stack: reads after writes"
cd_json='{"title":"Smoke Test","artist":"The Containers","genre":"Ambient","releaseYear":2024}'
expect cd-service "GET /cds?artist=The Containers before the write: none" 200 '^\[\]$' -- "$c/cds?artist=The%20Containers"
expect cd-service "POST /cds without the token: 401" 401 '"status": *401' -- \
  -X POST -H 'Content-Type: application/json' -d "$cd_json" "$c/cds"
expect cd-service "POST /cds with CD_API_TOKEN: 201" 201 '"id"' -- \
  -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $CD_API_TOKEN" -d "$cd_json" "$c/cds"
cd_id=$(sed -nE 's/.*"id": *"([^"]+)".*/\1/p' "$work/body")
expect cd-service "the next read of the list has it" 200 '"Smoke Test"' -- "$c/cds?artist=The%20Containers"
expect cd-service "GET /cds/<new id>" 200 '"Smoke Test"' -- "$c/cds/$cd_id"
if out=$(node containers/read-after-write.mjs "$c" 2>&1); then ok "edge: one writer and 12 readers for 20 s, no stale read: $out"
else fail "edge: reads after writes: $out"; fi

phase "the SQLite stack: a hung replica, a killed one"
# load_summary FILE: "<answers that are not 200> <the slowest answer's ms> <what steady-load.mjs
# saw, per URL>", for `read -r lost slowest summary`.
load_summary() {
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    let lost = 0, slowest = 0; const parts = [];
    for (const [url, { requests, statuses, failures, slowestMs }] of Object.entries(r)) {
      const bad = requests - (statuses["200"] ?? 0);
      lost += bad;
      slowest = Math.max(slowest, slowestMs);
      parts.push(`${url}: ${requests} requests, ${bad} not 200 ${JSON.stringify({ ...statuses, ...failures })}, the slowest ${slowestMs} ms`);
    }
    console.log(`${lost} ${slowest} ${parts.join("; ")}`);' "$1" 2>/dev/null || echo "? ? the load's summary cannot be read: $(cat "$1")"
}
# One games replica of two hung (paused): the reads the cache does not hold, sent meanwhile, are
# answered, by the other replica, none later than 5 s (the edge gives a replica 4 s of silence).
mapfile -t games_ids < <(containers_of games-service)
if set_paused true pause "${games_ids[0]}"; then
  node containers/steady-load.mjs "$g/api/games?limit=1&offset={n}" >"$work/paused.json" 2>"$work/paused.err" &
  load_pid=$!
  sleep 8
  kill -TERM "$load_pid"; wait "$load_pid" || true; load_pid=""
  set_paused false unpause "${games_ids[0]}" || fail "docker unpause of a games replica fails: $pause_error"
  read -r lost slowest paused <<<"$(load_summary "$work/paused.json")"
  if [ "$lost" = 0 ] && [ "$slowest" -le 5000 ]; then ok "edge: one games replica paused: every read answered, none later than 5 s ($paused)"
  else fail "edge: one games replica paused: $paused (want every read 200 within 5000 ms)"; fi
  wait_edge_ready 30 "${games_ids[@]}" || fail "the paused games replica is not back in the rotation after unpausing"
else fail "docker pause of a games replica fails, five times: $pause_error"; fi

# cd's only replica hung: a read gets the edge's 504 within 5 s; a write its 504 that says its
# outcome is unknown. The write is then tried again with the same If-Match: a 412 if the first
# was made after all, a 200 if not, never twice.
cd_replica=$(container_of cd-service)
etag=$(curl -sS --max-time 10 -o /dev/null -D - "$c/cds/$cd_id" | sed -nE 's/^etag: *([^\r]*)\r?$/\1/Ip')
retried='{"title":"Smoke Test, retried"}'
if [ -n "$etag" ] && set_paused true pause "$cd_replica"; then
  curl -sS --max-time 20 -o "$work/paused-put.body" -w '%{http_code} %{time_total}' -X PUT -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $CD_API_TOKEN" -H "If-Match: $etag" -d "$retried" "$c/cds/$cd_id" >"$work/paused-put" 2>&1 &
  put_pid=$!
  read_answer=$(curl -sS --max-time 20 -D "$work/paused-get.headers" -o "$work/paused-get.body" -w '%{http_code} %{time_total}' "$c/cds/$cd_id" 2>&1 || true)
  wait "$put_pid" || true
  set_paused false unpause "$cd_replica" || fail "docker unpause of cd-service fails: $pause_error"
  read -r read_status read_seconds <<<"$read_answer"
  if [ "$read_status" = 504 ] && awk -v s="$read_seconds" 'BEGIN { exit !(s <= 5.5) }' && [ "$(header Retry-After "$work/paused-get.headers")" = 5 ]; then
    ok "edge: cd's replica paused: a read gets the edge's 504 with Retry-After after ${read_seconds} s"
  else fail "edge: cd's replica paused: a read got '$read_answer' (want 504 with Retry-After: 5 within 5.5 s): $(cat "$work/paused-get.body")"; fi
  read -r put_status _ <"$work/paused-put" || true # (curl writes no newline)
  if [ "$put_status" = 504 ] && grep -q 'may or may not have been made' "$work/paused-put.body"; then
    ok "edge: cd's replica paused: a write gets the 504 that says its outcome is unknown"
  else fail "edge: cd's replica paused: a write got '$(cat "$work/paused-put")': $(cat "$work/paused-put.body")"; fi
  wait_edge_ready 30 "$cd_replica" || fail "cd-service is not back in the rotation after unpausing"
  again=$(curl -sS --max-time 10 -o "$work/again.body" -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $CD_API_TOKEN" -H "If-Match: $etag" -d "$retried" "$c/cds/$cd_id" 2>&1 || true)
  if grep -q '"Smoke Test, retried"' "$work/again.body" && [ "$again" = 200 ]; then
    ok "edge: the write tried again with the same If-Match is made once: 200 (the first was not made)"
  elif [ "$again" = 412 ] && curl -sS --max-time 10 "$c/cds/$cd_id" | grep -q '"Smoke Test, retried"'; then
    ok "edge: the write tried again with the same If-Match is made once: 412 (the first was made)"
  else fail "edge: the write tried again with If-Match: $again $(cat "$work/again.body")"; fi
  curl -sS --max-time 10 -o /dev/null -X PUT -H 'Content-Type: application/json' -H "Authorization: Bearer $CD_API_TOKEN" \
    -d '{"title":"Smoke Test"}' "$c/cds/$cd_id" || true
else fail "cd's replica paused: no ETag ('$etag') or docker pause fails: $pause_error"; fi

# cd's only replica killed under reads and writes: each request gets an answer (the edge's 502,
# 503 or 504) or, when it was in flight on the replica over a kept-alive connection, that
# connection closed with no answer (HAProxy 2.6 does so for any request but a connection's first:
# containers/README.md#a-hung-or-killed-replica); never a reset of a new connection. The engine
# starts the replica again.
WRITE_BODY='{"genre":"Drone"}' WRITE_TOKEN=$CD_API_TOKEN WORKERS=2 \
  node containers/steady-load.mjs "$c/cds/$cd_id" "PUT $c/cds/$cd_id" >"$work/killed.json" 2>"$work/killed.err" &
load_pid=$!
sleep 2
docker kill "$cd_replica" >/dev/null
sleep 2
[ "$(docker inspect --format '{{.State.Running}}' "$cd_replica")" = true ] || docker start "$cd_replica" >/dev/null
wait_edge_ready 120 "$cd_replica" || fail "cd-service is not back in the rotation after it was killed"
sleep 1
kill -TERM "$load_pid"; wait "$load_pid" || true; load_pid=""
read -r _ _ killed <<<"$(load_summary "$work/killed.json")"
if node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const ok = Object.values(r).every((u) =>
    Object.keys(u.failures).every((f) => f === "unanswered-on-kept-alive") &&
    Object.keys(u.statuses).every((s) => ["200", "502", "503", "504"].includes(s)));
  process.exit(ok ? 0 : 1);' "$work/killed.json"; then
  ok "edge: cd's only replica killed under reads and writes: every request answered or its kept-alive connection closed, none reset ($killed)"
else fail "edge: cd's only replica killed: $killed (want 200, 502, 503 or 504, no failure but unanswered-on-kept-alive)"; fi

phase "the SQLite stack: HTTPS and HTTP/2"
gs=https://127.0.0.1:$GAMES_HTTPS_PORT cs=https://127.0.0.1:$CD_HTTPS_PORT
# The self-signed certificate start.sh made, as a client told to trust it checks it.
pem=$work/edge-certificate.pem
docker exec "$(container_of proxy)" cat /certs/certificate.pem >"$pem" 2>/dev/null || true
H2=(--http2 --cacert "$pem")
expect games-service "GET /api/games/1 over HTTPS, the edge's certificate trusted (curl --cacert)" 200 '"id": *1' -- "${H2[@]}" "$gs/api/games/1"
h2_version=$(curl -sS "${H2[@]}" -o /dev/null -w '%{http_version}' "$gs/api/games/1" || true)
if [ "$h2_version" = 2 ]; then ok "edge: ALPN gives HTTP/2 to a client that offers it"; else fail "edge: HTTPS with --http2 spoke HTTP/$h2_version"; fi
h1_version=$(curl -sS --http1.1 --cacert "$pem" -o /dev/null -w '%{http_version}' "$gs/api/games/1" || true)
if [ "$h1_version" = 1.1 ]; then ok "edge: HTTPS speaks HTTP/1.1 to a client that offers only that"; else fail "edge: HTTPS with --http1.1 spoke HTTP/$h1_version"; fi
if [ -z "$(header Strict-Transport-Security)" ]; then ok "edge: no Strict-Transport-Security with the self-signed certificate"
else fail "edge: Strict-Transport-Security with a self-signed certificate: $(header Strict-Transport-Security)"; fi
# One cache for both protocols: what HTTP/1.1 stored, HTTP/2 gets, byte for byte, with its ETag.
h2_url="$g/api/games?genre=Puzzle&limit=3"
expect_cache "GET $h2_url over HTTP/1.1, br" MISS -- "${BR[@]}" "$h2_url"
cp "$work/body" "$work/h1-body"; h1_etag=$(header ETag)
expect_cache "the same over HTTP/2: the entry HTTP/1.1 stored" HIT -- "${BR[@]}" "${H2[@]}" "$gs/api/games?genre=Puzzle&limit=3"
if cmp -s "$work/h1-body" "$work/body" && [ "$(header ETag)" = "$h1_etag" ]; then ok "edge: HTTP/2 gets the bytes and the ETag HTTP/1.1 got ($h1_etag)"
else fail "edge: HTTP/2 and HTTP/1.1 differ (ETag $(header ETag) against $h1_etag)"; fi
# A write over HTTP/2 is seen by the next read, over either protocol.
expect cd-service "PUT /cds/<id> over HTTP/2, with the token" 200 '"releaseYear": *2023' -- "${H2[@]}" -X PUT \
  -H 'Content-Type: application/json' -H "Authorization: Bearer $CD_API_TOKEN" -d '{"releaseYear":2023}' "$cs/cds/$cd_id"
expect cd-service "the next read over HTTP/2 has it" 200 '"releaseYear": *2023' -- "${H2[@]}" "$cs/cds/$cd_id"
expect cd-service "the next read over HTTP/1.1 has it" 200 '"releaseYear": *2023' -- "$c/cds/$cd_id"
expect games-service "TRACE over HTTP/2: the edge's own JSON 405" 405 '"status":405' -- "${H2[@]}" -X TRACE "$gs/api/games"
# What HTTP/1.1 would refuse, sent frame by frame over HTTP/2 (containers/hostile-h2.mjs): header
# names and values with uppercase, a colon, CR, LF, NUL; a content-length the DATA disagrees with;
# a stream reset mid-body. None may reach a replica as another request.
if out=$(CA="$pem" TOKEN="$CD_API_TOKEN" node containers/hostile-h2.mjs "$cs" "/cds?limit=1" "/cds/$cd_id" 2>&1); then
  ok "edge: malformed HTTP/2 requests refused, the connection serving on: $(grep -oE '"case":"[^"]*"' <<<"$out" | sort | uniq -c | tr -s ' \n' ' ')"
else fail "edge: malformed HTTP/2 requests: $out"; fi
# In the replicas' request logs: no malformed request at all; the one reset mid-body may have
# begun there (its headers go ahead of its body), but never as a whole request answered 2xx.
h2_ids=$(grep -oE 'h2-[a-z-]+-[0-9a-f]{8}' <<<"$out" | sort -u)
h2_lines=$(for id in $(containers_of cd-service); do docker logs "$id" 2>&1; done | grep -E 'h2-[a-z-]+-[0-9a-f]{8}' || true)
h2_wrong=$(grep -vE '"requestId":"h2-reset-mid-body-' <<<"$h2_lines" | grep . || true)
h2_wrong+=$(grep -E '"status":2[0-9][0-9]' <<<"$h2_lines" || true)
if [ -n "$h2_ids" ] && [ -z "$h2_wrong" ]; then ok "edge: none of the $(wc -w <<<"$h2_ids") malformed HTTP/2 requests reached a cd replica as a request; the reset one as $(grep -oE '"status":[0-9]+' <<<"$h2_lines" | head -1 || echo 'nothing')"
else fail "edge: malformed HTTP/2 requests reached a replica: ${h2_wrong:-(no ids printed)}"; fi
expect cd-service "the CD after them: unchanged" 200 '"releaseYear": *2023' -- "$c/cds/$cd_id"
# The certificate stays: kept in the edge-certs volume, it is not made anew when the edge restarts.
compose restart proxy >"$work/restart.out" 2>&1 || cat "$work/restart.out" >&2
wait_edge_ready 60 $(containers_of games-service) || fail "the edge does not have the replicas back after its restart"
if docker exec "$(container_of proxy)" cat /certs/certificate.pem 2>/dev/null | cmp -s - "$pem"; then ok "edge: the same certificate after a restart (the edge-certs volume)"
else fail "edge: a new certificate after a restart"; fi

phase "the SQLite stack: hostile connections beside 12 bystanders, 20 s"
# Every replica must stay up (the same container start, Docker's restart count unchanged), and
# every bystander get its own answer (containers/hostile-connections.mjs).
replica_states() { for id in $(containers_of games-service) $(containers_of travel-service) $(containers_of cd-service); do docker inspect --format '{{.Name}} {{.RestartCount}} {{.State.StartedAt}}' "$id"; done; }
states_before=$(replica_states)
if out=$(node containers/hostile-connections.mjs "$g/api/games/1" "$g/games/1" "$t/api/itineraries/kyoto" "$t/" "$c/cds?limit=5" "$c/livez" 2>&1); then
  ok "edge: hostile connections for 20 s, every bystander and pipelined request got its own answer, once: $out"
else fail "edge: hostile connections: $out"; fi
states_after=$(replica_states)
if [ "$states_before" = "$states_after" ]; then ok "edge: no replica restarted under the hostile connections"
else fail "edge: replicas restarted under the hostile connections: $(diff <(echo "$states_before") <(echo "$states_after") | tr '\n' ' ')"; fi

phase "the SQLite stack: scaled to 3, a rolling restart under a steady load, back to 2"
compose up -d --no-build --no-deps --no-recreate --scale games-service=3 --scale travel-service=3 games-service travel-service >"$work/scale.out" 2>&1 ||
  { cat "$work/scale.out" >&2; fail "docker compose up --scale games-service=3 --scale travel-service=3"; }
# A new replica is in the rotation once it answers /readyz twice (a few seconds; more when the
# machine is loaded).
if wait_edge_count games-service 3 120 && wait_edge_count travel-service 3 120; then
  ok "--scale games-service=3 travel-service=3: the edge has 3 replicas of each in its rotation, its configuration unchanged"
else fail "--scale to 3: the edge has $(edge_up_count games-service) games and $(edge_up_count travel-service) travel replicas (API, pages)"; fi
node containers/steady-load.mjs "$g/" "$t/" "$g/api/games/1" >"$work/load.json" 2>"$work/load.err" &
load_pid=$!
sleep 2
start=$SECONDS
if bash containers/rolling-restart.sh games-service travel-service >"$work/rolling.out" 2>&1; then
  ok "make rolling-restart's script restarted the 6 replicas of games and travel, one at a time, in $((SECONDS - start)) s"
else fail "containers/rolling-restart.sh: $(tail -3 "$work/rolling.out" | tr '\n' ' ')"; fi
sed 's/^/    /' "$work/rolling.out" >&2
sleep 1
kill -TERM "$load_pid"; wait "$load_pid" || true; load_pid=""
read -r lost _ load <<<"$(load_summary "$work/load.json")"
if [ "$lost" = 0 ]; then ok "no request failed through the edge during the rolling restart ($load)"
else fail "requests failed during the rolling restart: $load"; fi
# A replica is in two backends of the edge (API and pages): what it served is their sum.
served=$(edge_servers | awk '{ service = $1; sub(/_pages$/, "", service) }
  (service == "games" || service == "travel") && $3 == "UP" { served[service " " $2] += $5 }
  END { for (replica in served) { printf "%s %s; ", replica, served[replica]; if (served[replica] == 0) idle++ } print (idle + 0) }')
if [ "${served##*; }" = 0 ]; then ok "every replica of games and travel served requests (${served%; *})"
else fail "some replica served no request: $served"; fi
compose up -d --no-build --no-deps --no-recreate --scale games-service=2 --scale travel-service=2 games-service travel-service >"$work/scale.out" 2>&1 ||
  { cat "$work/scale.out" >&2; fail "docker compose up --scale games-service=2"; }
if wait_edge_count games-service 2 30 && wait_edge_count travel-service 2 30; then ok "back to 2 replicas each: the edge has 2 of each in its rotation"
else fail "back to 2: the edge has $(edge_up_count games-service) games and $(edge_up_count travel-service) travel replicas (API, pages)"; fi
expect games-service "answers after scaling down" 200 '^\[\{"id"' -- "$g/api/games?limit=3"

phase "the SQLite stack: a replica recreated with a new address"
old=$(container_of games-service)
old_address=$(address_of "$old")
network=$(docker inspect --format '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}} {{end}}' "$old" | awk '{print $1}')
image=$(docker inspect --format '{{.Config.Image}}' "$old")
docker rm -f "$old" >/dev/null
# Docker gives a freed address to the next container: a placeholder takes it, so that the
# replica comes back at another one, which the edge must find by name.
placeholder=$(docker run -d --rm --network "$network" --entrypoint sleep "$image" 300)
others=$(containers_of games-service)
compose up -d --no-build --no-deps --no-recreate games-service >"$work/recreate.out" 2>&1 || { cat "$work/recreate.out" >&2; fail "compose up after removing a replica"; }
new=$(containers_of games-service | grep -vxF "$others" || true)
if [ -n "$new" ] && [ "$(address_of "$new")" = "$old_address" ]; then
  fail "the recreated replica got its old address back ($old_address): the test shows nothing"
elif [ -n "$new" ]; then
  started_ms=$(date -d "$(docker inspect --format '{{.State.StartedAt}}' "$new")" +%s%3N)
  if wait_edge_ready 120 "$new"; then
    # When it went UP, from the edge's own record (seconds since its last change), not from
    # this loop's polls, which a loaded machine slows; and when its process began to listen.
    # (Dated by the moment HAProxy answered, not by this script's clock before docker exec, which
    # a loaded machine delays; its record is in whole seconds, so this may be up to 1 s late.)
    up_ms=$(edge_servers | awk -v a="$(address_of "$new"):" '$1 == "games" && index($2, a) == 1 { printf "%.0f\n", $6 - 1000 * $4 }')
    logs_with "$work/new.log" '"message":"games-service listening"' "$new" || true
    listened=$(sed -nE 's/.*"time":"([^"]+)".*"message":"games-service listening".*/\1/p' "$work/new.log" | head -1)
    listening_ms=$(date -d "${listened:-no time}" +%s%3N 2>/dev/null || echo "$up_ms")
    found=$((up_ms - listening_ms))
    [ "$found" -ge 0 ] || found=0 # the edge's record is in whole seconds: it may round to before
    what="a recreated replica (was $old_address, now $(address_of "$new")) is in the edge's rotation $((up_ms - started_ms)) ms after its container started, $found ms after it listened"
    # The edge's part is bounded: a machine loaded by other work only delays the process's start.
    if [ -z "$listened" ]; then fail "a recreated replica is in the edge's rotation, but it has not logged that it listens"
    elif [ "$found" -le 10000 ]; then ok "$what (at most 10000)"; else fail "$what (more than 10000)"; fi
  else fail "a recreated replica ($(address_of "$new")) is not in the edge's rotation 120 s after compose up"; fi
else fail "no new games replica after removing one"; fi
docker rm -f "$placeholder" >/dev/null

phase "the SQLite stack: the CD after a restart and in a new container, graceful stops"
bash containers/rolling-restart.sh cd-service 2>&1 | sed 's/^/    /' >&2
expect cd-service "the CD is still there after a restart" 200 '"Smoke Test"' -- "$c/cds/$cd_id"
compose up -d --no-build --no-deps --force-recreate cd-service >"$work/recreate.out" 2>&1 || cat "$work/recreate.out" >&2
wait_edge_ready 120 "$(container_of cd-service)" || fail "the edge does not have the new cd-service container in its rotation"
expect cd-service "the CD is still there in a new container" 200 '"Smoke Test"' -- "$c/cds/$cd_id"
# One replica of each service stopped at once, each draining on its own.
for service in "${SERVICES[@]}"; do graceful_stop "$(container_of "$service")" >"$work/stop-$service" & done
wait
for service in "${SERVICES[@]}"; do
  verdict=$(cat "$work/stop-$service")
  if [[ $verdict == ok* ]]; then ok "${verdict#ok }"; else fail "${verdict#FAIL }"; fi
done
stack_down || fail "the SQLite stack does not come down"

# ---- 3. the whole `make up` stack, with the MongoDB stand-in
phase "the MongoDB stack: MONGO_STANDIN=1 containers/stack.sh up"
stack_files=(-f docker-compose.yml -f docker-compose.mongo-standin.yml)
unset "${LIFTED_LIMITS[@]%%=*}"
# A page of this origin calls the CD API from a browser (containers/browser-checks.mjs), as the
# README tells a user to allow it.
page_origin=http://127.0.0.1:$((PORT_BASE + 999))
export CORS_ORIGINS=$page_origin
start=$SECONDS
MONGO_STANDIN=1 bash containers/stack.sh up 2>&1 | stamped >"$work/up.out" || { cat "$work/up.out" >&2; die "make up's path (MONGO_STANDIN=1) failed"; }
stack_lines "$work/up.out"
log "stack.sh up: every replica in the edge's rotation after $((SECONDS - start)) s"
mongo_id=$(container_of mongo)
image=$(docker inspect --format '{{.Config.Image}}' "$mongo_id")
if [ "$image" = "$MONGO_STANDIN_IMAGE" ]; then ok "mongo: runs the stand-in $image"; else fail "mongo: runs $image, not $MONGO_STANDIN_IMAGE"; fi
if ! docker image inspect "$MONGO_IMAGE" >/dev/null 2>&1 ||
  [ "$(docker image inspect --format '{{.Id}}' "$MONGO_IMAGE")" != "$(docker image inspect --format '{{.Id}}' "$MONGO_STANDIN_IMAGE")" ]; then
  ok "mongo: $MONGO_IMAGE is not shadowed by the stand-in"
else fail "mongo: the stand-in is tagged $MONGO_IMAGE"; fi
if [ "$(health_of "$mongo_id" | awk '{print $2}')" = healthy ]; then
  ok "mongo: healthy by the override's health check ($(docker inspect --format '{{join .Config.Healthcheck.Test " "}}' "$mongo_id"))"
else fail "mongo: not healthy ($(health_of "$mongo_id"))"; fi
if docker inspect --format '{{range .Mounts}}{{.Name}}={{.Destination}} {{end}}' "$mongo_id" | grep -q "${PROJECT}_mongo-data=/data/db"; then
  ok "mongo: its volume ${PROJECT}_mongo-data is mounted at /data/db"
else fail "mongo: the volume is not mounted at /data/db"; fi
mapfile -t cd_ids < <(containers_of cd-service)
[ "${#cd_ids[@]}" = 2 ] && ok "cd-service: 2 replicas on MongoDB" || fail "cd-service: ${#cd_ids[@]} replicas, not 2"
for id in "${cd_ids[@]}"; do
  expect "$(name_of "$id")" "on MongoDB, asked at its own address" 200 '"store": *"mongodb"' -- "$(replica_url "$id")/healthz"
done
cd_json='{"title":"Smoke Mongo","artist":"The Stand-in","genre":"Ambient","releaseYear":2024}'
expect cd-service "POST /cds through the edge: 201" 201 '"id"' -- \
  -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $CD_API_TOKEN" -d "$cd_json" "$c/cds"
cd_id=$(sed -nE 's/.*"id": *"([^"]+)".*/\1/p' "$work/body")
for id in "${cd_ids[@]}"; do
  expect "$(name_of "$id")" "reads the CD written through the edge" 200 '"Smoke Mongo"' -- "$(replica_url "$id")/cds/$cd_id"
done
for i in 1 2 3 4; do expect cd-service "GET /cds?artist=The Stand-in through the edge ($i)" 200 '"Smoke Mongo"' -- "$c/cds?artist=The%20Stand-in"; done
start=$SECONDS
if bash containers/rolling-restart.sh cd-service >"$work/rolling-cd.out" 2>&1; then
  ok "containers/rolling-restart.sh restarted both cd replicas in $((SECONDS - start)) s"
else fail "containers/rolling-restart.sh on cd: $(tail -3 "$work/rolling-cd.out" | tr '\n' ' ')"; fi
expect cd-service "the CD is there after the cd replicas restarted" 200 '"Smoke Mongo"' -- "$c/cds/$cd_id"

phase "the MongoDB stack: the edge's per-client limits, as shipped"
# Reads and writes past the budget of one address: 429s a script of another origin can read.
if out=$(node containers/edge-limits.mjs budget "$g/api/games/1" "$g/top-rated" "$c/cds/no-such-cd" 2>&1); then
  ok "edge: past its budget, a client gets 429 with Retry-After and RateLimit (JSON, a page), readable cross-origin, and is answered again once it waited: $out"
else fail "edge: the per-client budget: $out"; fi
# One address holds 4,500 half-sent requests (sent to the edge's own address on the stack's
# network, so that they come from this machine's address there) and sends cd 4 requests whose
# bodies come a byte a second, while a bystander in a container of its own, another address,
# reads cd (which takes 4 requests at once): the edge closes the connections past the first
# address's limit at once, holds the bodies itself, and the bystander is answered.
edge_address=$(address_of "$(container_of proxy)")
node containers/edge-limits.mjs hold "http://$edge_address:3001/" 4500 9 >"$work/hold.json" 2>&1 &
hold_pid=$!
node containers/edge-limits.mjs trickle "http://$edge_address:3003/cds?limit=1" 4 12 >"$work/trickle.json" 2>&1 &
trickle_pid=$!
sleep 1
if out=$(docker run --rm --network "${PROJECT}_default" -v "$PWD/containers:/checks:ro" --entrypoint node \
  "$PROJECT/games-service:$IMAGE_TAG" /checks/edge-limits.mjs read 'http://proxy:3003/cds?limit=1' 6 2>&1); then
  ok "edge: a bystander at another address read cd while one address held 4,500 connections and 4 bodies sent a byte a second: $out"
else fail "edge: a bystander beside 4,500 connections and 4 slow bodies from one address: $out"; fi
wait "$hold_pid" "$trickle_pid" || true
log "the slow bodies got: $(cat "$work/trickle.json")"
held=$(sed -nE 's/.*"heldToTheEnd":([0-9]+).*/\1/p' "$work/hold.json")
if [ -n "$held" ] && [ "$held" -le 100 ]; then ok "edge: of 4,500 connections from one address, it held $held (EDGE_CLIENT_CONNECTIONS, 100): $(cat "$work/hold.json")"
else fail "edge: one address kept more connections than its limit: $(cat "$work/hold.json")"; fi
# A browser on another origin: the games page and a CD's read-modify-write over HTTPS, trusting
# the edge's certificate, then the 429 as its script reads it.
if [ -d packages/service-kit/node_modules/playwright-core ] && [ -x /usr/bin/chromium-headless-shell ]; then
  docker exec "$(container_of proxy)" cat /certs/certificate.pem >"$work/edge-certificate.pem"
  spki=$(openssl x509 -in "$work/edge-certificate.pem" -pubkey -noout | openssl pkey -pubin -outform der |
    openssl dgst -sha256 -binary | base64)
  if out=$(SPKI=$spki TOKEN=$CD_API_TOKEN PAGE_ORIGIN=$page_origin node containers/browser-checks.mjs \
    "https://localhost:$GAMES_HTTPS_PORT" "https://localhost:$CD_HTTPS_PORT" "$g" "$cd_id" 2>&1); then
    ok "Chromium on another origin: the games page and a CD's read-modify-write over HTTPS, the 429 read by its script: $out"
  else fail "Chromium on another origin: $out"; fi
else
  log "SKIPPED the browser checks: no playwright-core in packages/service-kit (make install) or no /usr/bin/chromium-headless-shell"
fi
expect proxy "the edge's own metrics, on the stack's network: the 429s counted as denied requests" 200 'haproxy_frontend_requests_denied_total\{proxy="games"\} [1-9]' -- "http://$edge_address:8405/metrics"

phase "done"
echo
echo "smoke: time per phase"
phase_times
echo "smoke: $passed passed, $failed failed"
# Repeated last, where a CI log's tail shows them.
[ "$failed" -eq 0 ] || printf '  FAIL %s\n' "${failures[@]}"
[ "$failed" -eq 0 ]
