#!/usr/bin/env bash
# Smoke test of the containers with podman, for CI (no Docker engine, no registry):
#   1. installs podman & co. when missing (containers/podman-setup.sh) and makes the base image
#      locally when it cannot be pulled (containers/base-image.sh);
#   2. builds each service's runtime image from its unchanged Dockerfile (podman build
#      --pull=never, build context: the repository root);
#   3. starts the stack without MongoDB (docker-compose.yml + docker-compose.sqlite.yml, through
#      docker-compose talking to `podman system service`), on ports 13001-13003 so as not to meet
#      services running on 3001-3003, and waits for every health check;
#   4. through the published ports: a page and an API route of each service; on cd-service a
#      write refused without the token, a CD created with it, the container restarted and then
#      recreated, the CD still there (the SQLite file lives in the named volume);
#   5. tears everything down (containers, network, volume, its podman service): nothing runs
#      after it, whatever happened.
# Prints `SKIPPED: <reason>` and exits 0 when podman cannot run containers on this machine
# (SMOKE_REQUIRED=1: exits 1 instead).
# Env: SMOKE_SERVICES (default: the three), SMOKE_PORT_BASE (default 13000), SMOKE_KEEP=1 (leave
#      the stack running, to look at it: the script then prints how to stop it).
set -euo pipefail
LOG_TAG=smoke
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"
t0=$SECONDS
phase() { log "== $* ($((SECONDS - t0)) s)"; }
skip() {
  echo "SKIPPED: $*"
  if [ "${SMOKE_REQUIRED:-0}" = 1 ]; then echo "SMOKE_REQUIRED=1: a skip is a failure"; exit 1; fi
  exit 0
}

PROJECT=koa-services-smoke
export COMPOSE_PROJECT_NAME=$PROJECT
read -r -a SMOKE_SERVICES <<<"${SMOKE_SERVICES:-${SERVICES[*]}}"
PORT_BASE=${SMOKE_PORT_BASE:-13000}
export IMAGE_TAG=smoke BIND_ADDRESS=127.0.0.1 LOG_REQUESTS=false
export GAMES_PORT=$((PORT_BASE + 1)) TRAVEL_PORT=$((PORT_BASE + 2)) CD_PORT=$((PORT_BASE + 3))
export CD_API_TOKEN=smoke-token-$RANDOM$RANDOM ITINERARY_SEED=smoke-seed
declare -A URL=([games-service]=http://127.0.0.1:$GAMES_PORT [travel-service]=http://127.0.0.1:$TRAVEL_PORT
  [cd-service]=http://127.0.0.1:$CD_PORT)
FILES=(-f docker-compose.yml -f docker-compose.sqlite.yml)
SOCK=/run/koa-services-smoke/podman.sock
[ "$(id -u)" = 0 ] || SOCK=${XDG_RUNTIME_DIR:-/tmp/podman-$(id -u)}/koa-services-smoke/podman.sock

# ---- 1. podman, or a clear reason why not
phase "podman"
setup_status=0
bash "$REPO_ROOT/containers/podman-setup.sh" || setup_status=$?
case $setup_status in
  0) ;;
  3) skip "podman, buildah, debootstrap or docker-compose is missing and cannot be installed here (needs root and apt-get)" ;;
  *) skip "podman, buildah, debootstrap or docker-compose is missing and apt-get could not install them (exit status $setup_status)" ;;
esac
podman_env
if ! err=$(podman info 2>&1 >/dev/null); then skip "podman does not work on this machine: ${err##*$'\n'}"; fi
ENGINE=podman
ensure_base_image
if ! err=$(podman run --rm --pull=never --network none "$BASE_IMAGE" node -e 'process.exit(0)' 2>&1); then
  skip "podman cannot start a container on this machine: ${err##*$'\n'}"
fi
log "podman $(podman version --format '{{.Client.Version}}'), docker-compose $(docker-compose version --short), base image $BASE_IMAGE (node $(podman run --rm --pull=never --network none "$BASE_IMAGE" node --version))"

work=$(mktemp -d "${TMPDIR:-/tmp}/koa-smoke.XXXXXX")
service_pid=""
build_containers_before=""
declare -A build_pid=()
kill_tree() {  # a process and its descendants, by PID
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
cleanup() {
  local status=$? pid
  trap - EXIT INT TERM
  local killed=0 cid
  for pid in "${build_pid[@]}"; do
    kill -0 "$pid" 2>/dev/null || continue
    kill_tree "$pid"; wait "$pid" 2>/dev/null || true; killed=1
  done
  if [ "$killed" = 1 ]; then  # the working containers of the builds stopped here
    for cid in $(buildah containers -q 2>/dev/null); do
      grep -qx "$cid" <<<"$build_containers_before" || buildah rm "$cid" >/dev/null 2>&1 || true
    done
  fi
  if [ -n "$service_pid" ] && [ "${SMOKE_KEEP:-0}" != 1 ]; then
    phase "teardown"
    docker-compose -p "$PROJECT" "${FILES[@]}" down -v --remove-orphans --timeout 5 >"$work/down.log" 2>&1 ||
      { cat "$work/down.log" >&2; status=1; }
    kill "$service_pid" 2>/dev/null || true
    wait "$service_pid" 2>/dev/null || true
    left=$(podman ps -aq --filter "label=com.docker.compose.project=$PROJECT")
    # shellcheck disable=SC2086  # one argument per container id
    if [ -n "$left" ]; then log "containers left behind, removing: $left"; podman rm -f $left >/dev/null; status=1; fi
    if podman volume exists "${PROJECT}_cd-data" 2>/dev/null; then podman volume rm -f "${PROJECT}_cd-data" >/dev/null; status=1; fi
  fi
  if [ -n "$service_pid" ] && [ "${SMOKE_KEEP:-0}" = 1 ]; then
    log "SMOKE_KEEP=1: the stack runs on. Stop it with:"
    log "  DOCKER_HOST=unix://$SOCK docker-compose -p $PROJECT ${FILES[*]} down -v; kill $service_pid"
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- 2. images, from the unchanged Dockerfiles
phase "building ${SMOKE_SERVICES[*]} (runtime targets, in parallel)"
build_containers_before=$(buildah containers -q 2>/dev/null || true)
for service in "${SMOKE_SERVICES[@]}"; do
  [ -f "$service/Dockerfile" ] || die "$service/Dockerfile is missing"
  [ -f "$service/src/server.ts" ] || die "$service/src/server.ts is missing: is $service finished? (SMOKE_SERVICES chooses the services)"
  ( start=$SECONDS
    # The registry sometimes times out in the middle of a build: a build that failed on the
    # network is tried again (the layers already built are reused); any other failure is final.
    for attempt in 1 2 3; do
      podman build --format docker --pull=never --force-rm --target runtime -f "$service/Dockerfile" \
        -t "$PROJECT/$service:$IMAGE_TAG" . >"$work/build-$service.log" 2>&1 && break
      if [ "$attempt" = 3 ] || ! grep -qE 'ETIMEDOUT|ECONNRESET|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|socket hang up' "$work/build-$service.log"; then
        exit 1
      fi
      log "$service: build attempt $attempt failed on the network, trying again"
    done
    echo "$((SECONDS - start))" >"$work/build-$service.seconds" ) &
  build_pid[$service]=$!
done
for service in "${SMOKE_SERVICES[@]}"; do
  if ! wait "${build_pid[$service]}"; then
    tail -40 "$work/build-$service.log" >&2
    die "the $service image does not build"
  fi
  log "built $PROJECT/$service:$IMAGE_TAG in $(cat "$work/build-$service.seconds") s"
done

# ---- 3. the stack without MongoDB
phase "starting the stack (SQLite) with docker-compose through podman's API"
for port in "$GAMES_PORT" "$TRAVEL_PORT" "$CD_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port is taken (SMOKE_PORT_BASE chooses others)"; fi
done
service_pid=$(podman_service_start "$SOCK" 0) || exit 1
[ -n "$service_pid" ] || die "a podman service already answers on $SOCK: not ours, not used"
export DOCKER_HOST=unix://$SOCK
docker-compose -p "$PROJECT" "${FILES[@]}" up -d --no-build --no-deps "${SMOKE_SERVICES[@]}" 2>&1 | sed 's/^/    /' >&2
wait_healthy "$PROJECT" 120 || { docker-compose -p "$PROJECT" "${FILES[@]}" logs --tail=40 >&2; die "the stack is not healthy"; }

# ---- 4. through the published ports
phase "requests"
passed=0 failed=0
# expect SERVICE DESCRIPTION STATUS PATTERN -- curl arguments (the URL last)
expect() {
  local service=$1 what=$2 want=$3 pattern=$4 got body
  shift 5
  body=$(curl -sS --max-time 10 -o "$work/body" -w '%{http_code}' "$@" 2>&1) || true
  got=$body; body=$(cat "$work/body" 2>/dev/null || true)
  if [ "$got" = "$want" ] && grep -qE -- "$pattern" <<<"$body"; then
    passed=$((passed + 1)); log "ok   $service: $what"
  else
    failed=$((failed + 1)); log "FAIL $service: $what: status $got (want $want), body: ${body:0:300}"
  fi
}
container_of() { podman ps -q --filter "label=com.docker.compose.project=$PROJECT" --filter "label=com.docker.compose.service=$1"; }
check_container() {
  local service=$1 id uid
  id=$(container_of "$service")
  uid=$(podman exec "$id" id -u 2>&1 || true)
  if [[ $uid =~ ^[1-9][0-9]*$ ]]; then passed=$((passed + 1)); log "ok   $service: runs as uid $uid (not root)"
  else failed=$((failed + 1)); log "FAIL $service: runs as uid '$uid'"; fi
  if [ "$(podman inspect --format '{{.HostConfig.RestartPolicy.Name}}' "$id")" = unless-stopped ]; then
    passed=$((passed + 1)); log "ok   $service: restart policy unless-stopped"
  else failed=$((failed + 1)); log "FAIL $service: no restart policy"; fi
}

# The runtime image runs compiled JavaScript only: no TypeScript source (declarations aside), no
# tests, no tsx, esbuild or typescript.
check_no_build_tools() {
  local service=$1 found
  found=$(podman exec "$(container_of "$service")" sh -c '
    cd /app
    find . -path "*/node_modules" -prune -o \( -name "*.ts" ! -name "*.d.ts" -o -name test -type d -o -name "*.test.*" \) -print
    for dir in */node_modules packages/*/node_modules; do
      for tool in tsx esbuild typescript @esbuild; do
        [ -n "$(ls -A "$dir/$tool" 2>/dev/null)" ] && echo "$dir/$tool"
      done
    done
    true' 2>&1 | head -5) || true
  if [ -z "$found" ]; then passed=$((passed + 1)); log "ok   $service: no TypeScript sources, tests, tsx, esbuild or typescript in the image"
  else failed=$((failed + 1)); log "FAIL $service: the image holds build or test files: ${found//$'\n'/ }"; fi
}

# What an image adds to its base, in MB: the runtime image is compiled JavaScript, production
# dependencies and the seed only.
declare -A SIZE_LIMIT_MB=([games-service]=15 [travel-service]=15 [cd-service]=30)
check_image_size() {
  local service=$1 base size added
  base=$(podman image inspect --format '{{.Size}}' "$BASE_IMAGE")
  size=$(podman image inspect --format '{{.Size}}' "$PROJECT/$service:$IMAGE_TAG")
  added=$(( (size - base) / 1000000 ))
  if [ "$added" -le "${SIZE_LIMIT_MB[$service]}" ]; then
    passed=$((passed + 1)); log "ok   $service: the image adds $added MB to its base (at most ${SIZE_LIMIT_MB[$service]})"
  else failed=$((failed + 1)); log "FAIL $service: the image adds $added MB to its base (at most ${SIZE_LIMIT_MB[$service]})"; fi
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# A new container answers /healthz within 3 s of being started.
check_cold_start() {
  local service=$1 u=$2 start elapsed
  start=$(now_ms)
  docker-compose -p "$PROJECT" "${FILES[@]}" up -d --no-build --no-deps --force-recreate "$service" >/dev/null 2>&1
  until curl -fsS --max-time 1 -o /dev/null "$u/healthz" 2>/dev/null; do
    [ $(( $(now_ms) - start )) -gt 30000 ] && break
    sleep 0.05
  done
  elapsed=$(( $(now_ms) - start ))
  if [ "$elapsed" -le 3000 ]; then passed=$((passed + 1)); log "ok   $service: a new container answers /healthz $elapsed ms after it is started (at most 3000)"
  else failed=$((failed + 1)); log "FAIL $service: a new container answers /healthz only $elapsed ms after it is started (at most 3000)"; fi
}
# `podman stop` sends SIGTERM (through init) and waits the grace period: the service drains and
# exits 0 by itself, well inside it, after logging that it shut down.
check_graceful_stop() {
  local service=$1 id start elapsed code
  id=$(container_of "$service")
  start=$(now_ms)
  podman stop "$id" >/dev/null
  elapsed=$(( $(now_ms) - start ))
  code=$(podman inspect --format '{{.State.ExitCode}}' "$id")
  if [ "$code" = 0 ] && [ "$elapsed" -lt 10000 ] && podman logs "$id" 2>&1 | grep -q '"message":"shut down"'; then
    passed=$((passed + 1)); log "ok   $service: podman stop: exit 0 after $elapsed ms, 'shut down' logged"
  else failed=$((failed + 1)); log "FAIL $service: podman stop: exit $code after $elapsed ms; last lines: $(podman logs --tail 3 "$id" 2>&1 | tr '\n' ' ')"; fi
}

for service in "${SMOKE_SERVICES[@]}"; do
  u=${URL[$service]}
  expect "$service" "GET /healthz" 200 '"status": *"ok"' -- "$u/healthz"
  expect "$service" "GET /metrics" 200 'http_request_duration_seconds_count' -- "$u/metrics"
  check_container "$service"
  check_no_build_tools "$service"
  check_image_size "$service"
  check_cold_start "$service" "$u"
  case $service in
    games-service)
      expect "$service" "GET / (page)" 200 '<html' -- "$u/"
      expect "$service" "GET /top-rated (page)" 200 '<html' -- "$u/top-rated"
      expect "$service" "GET /api/games" 200 '^\[\{"id"' -- "$u/api/games"
      expect "$service" "GET /api/games/999999 (JSON 404)" 404 '"status": *404' -- "$u/api/games/999999" ;;
    travel-service)
      expect "$service" "GET / (page)" 200 '<html' -- "$u/"
      expect "$service" "GET /api/itineraries" 200 '^\[' -- "$u/api/itineraries"
      seed=$(podman exec "$(container_of "$service")" printenv ITINERARY_SEED || true)
      if [ "$seed" = "$ITINERARY_SEED" ]; then passed=$((passed + 1)); log "ok   $service: ITINERARY_SEED passed through"
      else failed=$((failed + 1)); log "FAIL $service: ITINERARY_SEED is '$seed'"; fi ;;
    cd-service)
      cd_json='{"title":"Smoke Test","artist":"The Containers","genre":"Ambient","releaseYear":2024}'
      expect "$service" "GET /cds (seeded)" 200 '"title"' -- "$u/cds"
      # better-sqlite3 compiled against Node >= 24.19 headers aborts when the GC frees its
      # objects (see cd-service/Dockerfile): open and drop many databases, let the GC run.
      gc_check='const D=require("better-sqlite3");let n=0;const b=()=>{for(let i=0;i<2000;i++){const d=new D(":memory:");d.prepare("select 1").get();d.close()}if(++n<40)setTimeout(b,20);else setTimeout(()=>console.log("survived"),2000)};b()'
      if podman run --rm --network none "$PROJECT/cd-service:$IMAGE_TAG" node -e "$gc_check" 2>&1 | grep -q '^survived$'; then
        passed=$((passed + 1)); log "ok   $service: better-sqlite3 survives the GC of its objects"
      else failed=$((failed + 1)); log "FAIL $service: better-sqlite3 aborts when the GC frees its objects"; fi
      expect "$service" "POST /cds without the token: 401" 401 '"status": *401' -- \
        -X POST -H 'Content-Type: application/json' -d "$cd_json" "$u/cds"
      expect "$service" "POST /cds with CD_API_TOKEN: 201" 201 '"id"' -- \
        -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $CD_API_TOKEN" -d "$cd_json" "$u/cds"
      cd_id=$(sed -nE 's/.*"id": *"([^"]+)".*/\1/p' "$work/body")
      expect "$service" "GET /cds/<new id>" 200 '"Smoke Test"' -- "$u/cds/$cd_id"
      phase "restarting the cd-service container"
      docker-compose -p "$PROJECT" "${FILES[@]}" restart cd-service 2>&1 | sed 's/^/    /' >&2
      wait_healthy "$PROJECT" 60 || die "cd-service is not healthy after a restart"
      expect "$service" "the CD is still there after a restart" 200 '"Smoke Test"' -- "$u/cds/$cd_id"
      phase "recreating the cd-service container (a new container, the same volume)"
      docker-compose -p "$PROJECT" "${FILES[@]}" up -d --no-build --no-deps --force-recreate cd-service 2>&1 | sed 's/^/    /' >&2
      wait_healthy "$PROJECT" 60 || die "cd-service is not healthy after being recreated"
      expect "$service" "the CD is still there in a new container" 200 '"Smoke Test"' -- "$u/cds/$cd_id"
      ;;
  esac
done

phase "graceful stops"
for service in "${SMOKE_SERVICES[@]}"; do check_graceful_stop "$service"; done

phase "done"
echo "smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
