# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables set here are used by the scripts that source it
# Shared by the scripts in containers/ (sourced, not run).
#
# The engine is Docker (the Engine, with Compose): `docker compose` (Compose v2) when
# `docker compose version` works, else `docker-compose` (v1.29); COMPOSE_ENGINE forces one
# ("docker compose" or "docker-compose"). detect_engine sets COMPOSE (an array: the compose
# command) and ENGINE_NAME (for messages); engine_start also checks that the engine answers.

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROJECT=${COMPOSE_PROJECT_NAME:-koa-services}
# Image names follow the project (docker-compose.yml names them after it): two stacks keep apart.
export COMPOSE_PROJECT_NAME=$PROJECT
SERVICES=(games-service travel-service cd-service)
# The base of every image we build, and the local stand-in for it where it cannot be pulled
# (containers/base-image.sh), under a name of its own: the official image is never shadowed.
BASE_IMAGE=node:24.18.1-bookworm-slim
LOCAL_BASE_IMAGE=${LOCAL_BASE_IMAGE:-localhost/koa-services/$BASE_IMAGE}
# What the builds use: the official image, or the local stand-in (ensure_base_image sets it).
NODE_IMAGE=$BASE_IMAGE
# The image of the mongo service, and that of its local stand-in (docker-compose.mongo-standin.yml).
MONGO_IMAGE=$(sed -nE 's/^ +image: *(mongo:[^ ]+)$/\1/p' "$REPO_ROOT/docker-compose.yml")
MONGO_STANDIN_IMAGE=${MONGO_STANDIN_IMAGE:-$(sed -nE 's/.*MONGO_STANDIN_IMAGE:-([^}]+)\}.*/\1/p' "$REPO_ROOT/docker-compose.mongo-standin.yml")}

log() { printf '[%s] %s\n' "${LOG_TAG:-containers}" "$*" >&2; }

# The phases of a long check (smoke-test.sh, thousandfold.sh): `phase NAME` logs it and closes the
# one before, `phase_times` prints how long each took; `skip_check VAR REASON` says SKIPPED and
# exits 0, or 1 when the variable VAR (SMOKE_REQUIRED, ...) is 1.
t0=$SECONDS phase_name="" phase_start=$SECONDS timings=()
phase() {
  [ -z "$phase_name" ] || timings+=("$(printf '%4d s  %s' $((SECONDS - phase_start)) "$phase_name")")
  phase_name=$*; phase_start=$SECONDS
  log "== $* ($((SECONDS - t0)) s)"
}
phase_times() {
  printf '  %s\n' "${timings[@]}"
  printf '  %4d s  in all\n' "$((SECONDS - t0))"
}
skip_check() {
  local required=$1; shift
  echo "SKIPPED: $*"
  if [ "${!required:-0}" = 1 ]; then echo "$required=1: a skip is a failure"; exit 1; fi
  exit 0
}
die() { log "ERROR: $*"; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

detect_engine() {
  local choice=${COMPOSE_ENGINE:-}
  have docker || die "docker is not installed: install Docker Engine and Compose (Debian: apt-get install docker.io docker-compose)"
  if [ -z "$choice" ]; then
    if docker compose version >/dev/null 2>&1; then choice="docker compose"
    elif have docker-compose; then choice=docker-compose
    else die "neither \`docker compose\` nor docker-compose is installed (Debian: apt-get install docker-compose)"; fi
  fi
  case $choice in
    "docker compose") COMPOSE=(docker compose) ;;
    docker-compose) COMPOSE=(docker-compose) ;;
    *) die "COMPOSE_ENGINE=$choice: not one of \"docker compose\", docker-compose" ;;
  esac
  ENGINE_NAME=$choice
}

engine_start() {
  detect_engine
  local err
  err=$(timeout 20 docker info 2>&1 >/dev/null) ||
    die "the Docker engine does not answer (start it: your system's docker service, or dockerd as root): ${err##*$'\n'}"
}

# Why a pull failed, in a few words, from the engine's error message $1: no registry reachable
# (its name does not resolve), no network to it (no connection), or the registry's refusal.
pull_failure_cause() {
  local err=$1 host
  host=$(grep -oE 'lookup [^ :]+' <<<"$err" | head -1 | cut -d' ' -f2 || true)
  [ -n "$host" ] || host=$(grep -oE 'https?://[^/" ]+' <<<"$err" | head -1 | sed -E 's#https?://##' || true)
  host=${host:-the registry}
  case $err in
    *"no such host"* | *"server misbehaving"* | *"name resolution"* | *"not known"*)
      echo "no registry reachable ($host does not resolve here)" ;;
    *"network is unreachable"* | *"no route to host"* | *"connection refused"* | *"i/o timeout"* | \
      *"TLS handshake timeout"* | *"connection reset"* | *"dial tcp"*)
      echo "no network to the registry ($host: $(grep -oE '(network is unreachable|no route to host|connection refused|i/o timeout|TLS handshake timeout|connection reset by peer)' <<<"$err" | head -1))" ;;
    *"manifest unknown"* | *"not found"* | *"unauthorized"* | *"denied"* | *"toomanyrequests"*)
      echo "the registry refuses it ($(tail -1 <<<"$err" | sed -E 's/^Error[^:]*: //' | cut -c1-160))" ;;
    *) echo "$(tail -1 <<<"$err" | sed -E 's/^Error[^:]*: //' | cut -c1-200)" ;;
  esac
}

# Makes sure image $1 is here, pulling it when it is not; when it cannot be, stops with one line:
# the cause, then what to do ($2).
ensure_pulled() {
  local image=$1 advice=$2 err
  docker image inspect "$image" >/dev/null 2>&1 && return 0
  log "pulling $image"
  err=$(docker pull -q "$image" 2>&1 >/dev/null) && return 0
  die "$image cannot be pulled: $(pull_failure_cause "$err"). $advice"
}

# The base image of every image we build: the official one, pulled; where that fails, the local
# stand-in (made once by containers/base-image.sh: Debian from debootstrap, Node from the npm
# registry). Sets NODE_IMAGE, which build_image passes to every Dockerfile.
ensure_base_image() {
  local err
  if docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then NODE_IMAGE=$BASE_IMAGE; return 0; fi
  if docker image inspect "$LOCAL_BASE_IMAGE" >/dev/null 2>&1; then
    NODE_IMAGE=$LOCAL_BASE_IMAGE
    log "base image: the local stand-in $LOCAL_BASE_IMAGE ($BASE_IMAGE is not here)"
    return 0
  fi
  log "pulling $BASE_IMAGE"
  if err=$(docker pull -q "$BASE_IMAGE" 2>&1 >/dev/null); then NODE_IMAGE=$BASE_IMAGE; return 0; fi
  log "$BASE_IMAGE cannot be pulled: $(pull_failure_cause "$err"); making a local stand-in, $LOCAL_BASE_IMAGE (containers/base-image.sh, a few minutes once)"
  LOCAL_BASE_IMAGE=$LOCAL_BASE_IMAGE bash "$REPO_ROOT/containers/base-image.sh" ||
    die "the local base image cannot be made (containers/base-image.sh needs root, debootstrap and npm)"
  NODE_IMAGE=$LOCAL_BASE_IMAGE
}

# Build output goes to one log file per image; the terminal gets one line per build step
# (Docker's classic builder "Step 3/12 : ...", BuildKit's "#7 [deps 2/6] ..."), or everything
# with VERBOSE=1.
BUILD_STEP='^(Step [0-9]+/[0-9]+ : |#[0-9]+ \[)'
BUILD_LOG_DIR=${BUILD_LOG_DIR:-${TMPDIR:-/tmp}/$PROJECT-build}

# build_image NAME IMAGE CONTEXT [DOCKERFILE] [TARGET]: builds with the engine itself, on
# NODE_IMAGE. A build that failed on the network is tried again (the layers built are reused);
# any other failure stops with the end of the log.
build_image() {
  local name=$1 image=$2 context=$3 dockerfile=${4:-$3/Dockerfile} target=${5:-}
  local cmd logfile status_file status attempt
  cmd=(docker build -f "$dockerfile" -t "$image" --build-arg "NODE_IMAGE=$NODE_IMAGE")
  [ -z "$target" ] || cmd+=(--target "$target")
  cmd+=("$context")
  mkdir -p "$BUILD_LOG_DIR"
  logfile=$BUILD_LOG_DIR/$name.log
  status_file=$(mktemp)
  for attempt in 1 2 3; do
    log "building $image (log: $logfile)"
    : >"$status_file"
    # The build's own status is in $status_file; whatever becomes of the display (grep -a: a
    # byte that is not text must not end the filter, and the build with it) does not count.
    { "${cmd[@]}" 2>&1; echo $? >"$status_file"; } | tee "$logfile" |
      if [ "${VERBOSE:-0}" = 1 ]; then sed -u "s/^/    $name: /"
      else { grep -a --line-buffered -E "$BUILD_STEP" || true; } | cut -c1-110 | sed -u "s/^/    $name: /"; fi >&2 || true
    status=$(cat "$status_file")
    status=${status:-"none (the build was interrupted)"}
    [ "$status" = 0 ] && break
    if [ "$attempt" = 3 ] || ! grep -qE 'ETIMEDOUT|ECONNRESET|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|socket hang up' "$logfile"; then
      break
    fi
    log "$name: the build failed on the network (attempt $attempt), trying again"
  done
  rm -f "$status_file"
  if [ "$status" != 0 ]; then
    tail -25 "$logfile" | sed 's/^/    | /' >&2
    log "$name: the image does not build (exit status $status; the whole log: $logfile)"
    return 1
  fi
}

# The stack's own images (the edge and the three services' runtime images), one at a time.
build_stack_images() {
  local tag=${IMAGE_TAG:-latest} service
  build_image proxy "$PROJECT/proxy:$tag" proxy || return 1
  for service in "${SERVICES[@]}"; do
    build_image "$service" "$PROJECT/$service:$tag" . "$service/Dockerfile" runtime || return 1
  done
}

# The health of the containers whose IDs are given, one "name status" line each
# (status: healthy, unhealthy, starting, none (no health check), or exited/...).
health_of() {
  local id
  for id in "$@"; do
    docker inspect --format \
      '{{.Name}} {{if ne .State.Status "running"}}{{.State.Status}}{{else if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' \
      "$id" 2>/dev/null | sed 's#^/##'
  done
}

# ---- The edge (proxy/haproxy.cfg) and its view of the replicas
# The containers of compose service $1 (running ones; -a: all), by ID.
containers_of() {
  docker ps -q "${@:2}" --filter "label=com.docker.compose.project=$PROJECT" --filter "label=com.docker.compose.service=$1"
}
container_of() { containers_of "$1" | head -1; }
# A container's name, and its address on the stack's network.
name_of() { docker inspect --format '{{.Name}}' "$1" | sed 's#^/##'; }
address_of() { docker inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}' "$1" | awk '{print $1}'; }
service_of() { docker inspect --format '{{ index .Config.Labels "com.docker.compose.service" }}' "$1"; }
# The services that run replicas behind the edge (games-service, ...) in the project.
running_services() {
  docker ps -q --filter "label=com.docker.compose.project=$PROJECT" |
    xargs -r docker inspect --format '{{ index .Config.Labels "com.docker.compose.service" }}' |
    { grep -E -- '-service$' || true; } | sort | uniq -c | awk '{print $2, $1}'
}
# The edge's replica slots that have an address, one line each: "backend address status
# seconds-since-its-last-change requests-served answered-at" (answered-at: when HAProxy answered,
# in ms since the epoch, to date its last change), from HAProxy's own view (`show servers state`
# and `show stat` on its admin socket, inside the edge's container). Status: UP (its probes
# passed: in the rotation), UP-GOING-DOWN (still sent requests, but its last probe failed), DOWN
# or MAINT. A slot that takes a new address leaves maintenance as UP-GOING-DOWN before any probe
# of the new replica (HAProxy 2.6 starts it "OK but checked at once"): that is not ready yet.
edge_servers() {
  docker exec "$(container_of proxy)" node -e '
    const socket = require("node:net").connect(8081, "127.0.0.1", () => socket.end("show servers state; show stat\n"));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("error", (error) => { console.error(error.message); process.exit(1); });
    socket.on("end", () => {
      const answeredAt = Date.now();
      const served = new Map(), shown = new Map();
      let stat;
      for (const line of text.split("\n")) {
        if (line.startsWith("# pxname")) stat = line.slice(2).split(",");
        else if (stat && line.includes(",")) {
          const row = line.split(",");
          const slot = `${row[stat.indexOf("pxname")]}/${row[stat.indexOf("svname")]}`;
          served.set(slot, row[stat.indexOf("stot")]);
          shown.set(slot, row[stat.indexOf("status")]);
        }
      }
      // show servers state: be_id be_name srv_id srv_name srv_addr srv_op_state srv_admin_state
      // srv_uweight srv_iweight srv_time_since_last_change ...
      for (const line of text.split("\n")) {
        const f = line.trim().split(/\s+/);
        if (f.length < 10 || !/^\d+$/.test(f[0]) || f[4] === "-" || f[4] === "0.0.0.0") continue;
        // `show stat` says "UP" once the probes passed, "UP 1/2" while going down.
        const up = shown.get(`${f[1]}/${f[3]}`) === "UP" ? "UP" : "UP-GOING-DOWN";
        const status = Number(f[6]) !== 0 ? "MAINT" : f[5] === "2" ? up : "DOWN";
        console.log([f[1], `${f[4]}:${f[18] ?? ""}`, status, f[9], served.get(`${f[1]}/${f[3]}`) ?? 0, answeredAt].join(" "));
      }
    });'
}
# The edge's backend of a service: games-service -> games.
backend_of() { echo "${1%-service}"; }
# Whether the edge has container $1 in its rotation (UP in every backend of its service: the
# API's, and the pages' where it has one), by its current address; $2: at most this many seconds
# since the edge last changed its state (to tell a replica back from a restart from the one before it).
edge_ready() {
  local id=$1 since=${2:-} backend address
  backend=$(backend_of "$(service_of "$id")")
  address=$(address_of "$id")
  [ -n "$address" ] || return 1
  edge_servers 2>/dev/null | awk -v b="$backend" -v a="$address" -v s="$since" '
    $1 == b || $1 == b "_pages" { backends[$1] = 1 }
    ($1 == b || $1 == b "_pages") && $2 ~ ("^" a ":") && $3 == "UP" && (s == "" || $4 <= s) { n++ }
    END { for (name in backends) k++; exit n == k && k > 0 ? 0 : 1 }'
}
# How many replicas of service $1 the edge has in its rotation, in each of its backends (they
# probe apart, so they can disagree for a second): "API PAGES", e.g. "2 2" (a service without a
# pages backend, cd, counts its one twice). UP only, or with $2 = any also those it still sends
# requests to while they are going down (UP-GOING-DOWN).
edge_up_count() {
  edge_servers 2>/dev/null | awk -v b="$(backend_of "$1")" -v any="${2:-}" '
    $1 == b "_pages" { has_pages = 1 }
    $3 == "UP" || (any == "any" && $3 == "UP-GOING-DOWN") { if ($1 == b) api++; else if ($1 == b "_pages") pages++ }
    END { print api + 0, (has_pages ? pages : api) + 0 }'
}
# Waits until the edge has each container named in its rotation; $1: timeout in seconds.
wait_edge_ready() {
  local timeout=$1 start=$SECONDS id waiting
  shift
  while :; do
    waiting=()
    for id in "$@"; do edge_ready "$id" || waiting+=("$(name_of "$id")"); done
    [ "${#waiting[@]}" -gt 0 ] || return 0
    if [ $((SECONDS - start)) -ge "$timeout" ]; then
      log "the edge does not have ${waiting[*]} in its rotation after $timeout s:"
      edge_servers 2>&1 | sed 's/^/    /' >&2 || true
      return 1
    fi
    sleep 0.5
  done
}
# Waits until the edge has exactly $2 replicas of service $1 in its rotation, in both backends;
# $3: timeout (s); $4 = any: counting those going down too (edge_up_count).
wait_edge_count() {
  local service=$1 want=$2 timeout=${3:-30} which=${4:-} start=$SECONDS
  until [ "$(edge_up_count "$service" "$which")" = "$want $want" ]; do
    if [ $((SECONDS - start)) -ge "$timeout" ]; then
      log "the edge has $(edge_up_count "$service" "$which") (API, pages) replicas of $service in its rotation after $timeout s, not $want"
      return 1
    fi
    sleep 0.5
  done
}
