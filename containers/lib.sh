# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables set here are used by the scripts that source it
# Shared by the scripts in containers/ (sourced, not run).
#
# Which engine runs the stack, chosen in this order (COMPOSE_ENGINE overrides it, with one of
# "docker compose", "docker-compose", "podman compose", "podman-compose", "podman"):
#   1. `docker compose` (Compose v2) when `docker compose version` works;
#   2. `docker-compose` (v1) when a Docker engine answers (`docker info`);
#   3. podman: docker-compose talking to `podman system service` (started here when needed,
#      as on machines without systemd), else `podman compose`, else podman-compose;
#   4. `docker-compose` alone (it will say that no engine answers).
# detect_engine sets COMPOSE (an array: the compose command), ENGINE (docker or podman: the CLI
# that inspects containers) and ENGINE_NAME (for messages); engine_start then starts what the
# engine needs (podman's API service, which exits by itself after PODMAN_SERVICE_IDLE seconds
# without a request, 900 by default).

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROJECT=${COMPOSE_PROJECT_NAME:-koa-services}
# Image names follow the project (docker-compose.yml names them after it): two stacks keep apart.
export COMPOSE_PROJECT_NAME=$PROJECT
SERVICES=(games-service travel-service cd-service)
BASE_IMAGE=docker.io/library/node:24.18.1-bookworm-slim
# The stack's compose services: the proxy, then the replicas (docker-compose.yml). On SQLite
# cd-service is one process, and MongoDB is left out.
STACK_SERVICES_SQLITE=(proxy games-service-1 games-service-2 travel-service-1 travel-service-2 cd-service-1)
# The image of the mongo service, and that of its local stand-in (docker-compose.mongo-standin.yml).
MONGO_IMAGE=$(sed -nE 's/^ +image: *(mongo:[^ ]+)$/\1/p' "$REPO_ROOT/docker-compose.yml")
MONGO_STANDIN_IMAGE=${MONGO_STANDIN_IMAGE:-$(sed -nE 's/.*MONGO_STANDIN_IMAGE:-([^}]+)\}.*/\1/p' "$REPO_ROOT/docker-compose.mongo-standin.yml")}

log() { printf '[%s] %s\n' "${LOG_TAG:-containers}" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

# podman on a machine without systemd (CI's): our containers.conf (ulimits the sandbox allows,
# runc, cgroupfs), unless the caller chose one.
podman_env() {
  if [ -z "${CONTAINERS_CONF:-}" ] && [ ! -d /run/systemd/system ]; then
    export CONTAINERS_CONF=$REPO_ROOT/containers/podman/containers.conf
  fi
}

podman_sock_default() {
  if [ "$(id -u)" = 0 ]; then echo /run/podman/podman.sock
  else echo "${XDG_RUNTIME_DIR:-/tmp/podman-$(id -u)}/podman/podman.sock"; fi
}

podman_ping() {
  if have curl; then curl -fsS --max-time 3 --unix-socket "$1" http://d/_ping >/dev/null 2>&1
  else timeout 5 podman --remote --url "unix://$1" version >/dev/null 2>&1; fi
}

# Starts `podman system service` on socket $1 unless one answers there; $2: idle seconds
# before it exits by itself (0: never). Prints the PID of a service it started, nothing else.
podman_service_start() {
  local sock=$1 idle=${2:-900} pid
  podman_ping "$sock" && return 0
  mkdir -p "$(dirname "$sock")"
  rm -f "$sock"
  setsid podman system service --time="$idle" "unix://$sock" \
    >"$(dirname "$sock")/service.log" 2>&1 </dev/null &
  pid=$!
  for _ in $(seq 50); do
    podman_ping "$sock" && { echo "$pid" >"$(dirname "$sock")/koa-services.pid"; echo "$pid"; return 0; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  cat "$(dirname "$sock")/service.log" >&2
  die "podman system service did not start on $sock"
}

detect_engine() {
  local choice=${COMPOSE_ENGINE:-}
  if [ -z "$choice" ]; then
    if have docker && docker compose version >/dev/null 2>&1; then choice="docker compose"
    elif have docker-compose && have docker && timeout 20 docker info >/dev/null 2>&1; then choice="docker-compose"
    elif have podman && have docker-compose; then choice="podman"
    elif have podman && podman compose version >/dev/null 2>&1; then choice="podman compose"
    elif have podman && have podman-compose; then choice="podman-compose"
    elif [ "${KOA_PODMAN_SETUP_TRIED:-0}" = 0 ] && bash "$REPO_ROOT/containers/podman-setup.sh" >&2; then
      # No engine answered: podman set up by the project's own script (as the smoke test does).
      KOA_PODMAN_SETUP_TRIED=1 detect_engine
      return
    else
      die "no container engine answers: Docker is not running here (\`docker info\` fails) and podman cannot be set up; start Docker (with Compose), or install podman and docker-compose (apt-get install podman docker-compose)"
    fi
  fi
  ENGINE_NAME=$choice
  case $choice in
    "docker compose") COMPOSE=(docker compose); ENGINE=docker ;;
    docker-compose) COMPOSE=(docker-compose); ENGINE=docker ;;
    "podman compose") podman_env; COMPOSE=(podman compose); ENGINE=podman ;;
    podman-compose) podman_env; COMPOSE=(podman-compose); ENGINE=podman ;;
    podman)
      podman_env
      PODMAN_SOCK=${PODMAN_SOCK:-$(podman_sock_default)}
      export DOCKER_HOST=unix://$PODMAN_SOCK
      COMPOSE=(docker-compose); ENGINE=podman
      ENGINE_NAME="docker-compose with podman (DOCKER_HOST=$DOCKER_HOST)" ;;
    *) die "COMPOSE_ENGINE=$choice: not one of docker compose, docker-compose, podman compose, podman-compose, podman" ;;
  esac
}

engine_start() {
  detect_engine
  if [ "$ENGINE" = podman ] && [ "${COMPOSE[0]}" = docker-compose ]; then
    PODMAN_SERVICE_PID=$(podman_service_start "$PODMAN_SOCK" "${PODMAN_SERVICE_IDLE:-900}") || exit 1
  fi
}

# After a command that needed the engine only while it ran: stops the podman service that
# engine_start started for it, if any.
engine_stop_if_started() {
  if [ -n "${PODMAN_SERVICE_PID:-}" ]; then podman_service_stop "$PODMAN_SOCK"; fi
}

# Stops the podman service that podman_service_start started on socket $1, if it still runs.
podman_service_stop() {
  local pidfile pid
  pidfile="$(dirname "$1")/koa-services.pid"
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if ps -p "$pid" -o args= 2>/dev/null | grep -q 'podman system service'; then kill "$pid" 2>/dev/null || true; fi
  rm -f "$pidfile"
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
      echo "the registry refuses it ($(tail -1 <<<"$err" | sed -E 's/^Error: //' | cut -c1-160))" ;;
    *) echo "$(tail -1 <<<"$err" | sed -E 's/^Error: //' | cut -c1-200)" ;;
  esac
}

# Makes sure image $1 is here, pulling it when it is not; when it cannot be, stops with one line:
# the cause, then what to do ($2).
ensure_pulled() {
  local image=$1 advice=$2 err
  # podman resolves a short name only through registries.conf, which often names none: the
  # name Docker means (docker.io, library/ for an official image).
  if [ "$ENGINE" = podman ]; then
    case ${image%%/*} in
      "$image") image=docker.io/library/$image ;;
      *.* | *:* | localhost) ;;
      *) image=docker.io/$image ;;
    esac
  fi
  "$ENGINE" image inspect "$image" >/dev/null 2>&1 && return 0
  log "pulling $image"
  err=$("$ENGINE" pull -q "$image" 2>&1 >/dev/null) && return 0
  die "$image cannot be pulled: $(pull_failure_cause "$err"). $advice"
}

# The base image of every image we build: pulled; with podman, where that fails, made locally
# (containers/base-image.sh: Debian from debootstrap and Node from the npm registry).
ensure_base_image() {
  local err
  "$ENGINE" image inspect "$BASE_IMAGE" >/dev/null 2>&1 && return 0
  if [ "$ENGINE" != podman ]; then
    ensure_pulled "$BASE_IMAGE" "Load it from a machine that has it (docker save, then docker load), or use podman, for which containers/base-image.sh makes a local stand-in."
    return
  fi
  log "pulling $BASE_IMAGE"
  err=$(podman pull -q "$BASE_IMAGE" 2>&1 >/dev/null) && return 0
  log "$BASE_IMAGE cannot be pulled: $(pull_failure_cause "$err"); making it locally (containers/base-image.sh, about 2 minutes once)"
  bash "$REPO_ROOT/containers/base-image.sh"
}

# Build output goes to one log file per image; the terminal gets one line per build step (the
# engine's own: podman/buildah "[2/6] STEP 3/5: ...", Docker's classic builder "Step 3/12 : ...",
# BuildKit's "#7 [deps 2/6] ..."), or everything with VERBOSE=1.
BUILD_STEP='^((\[[0-9]+/[0-9]+\] )?STEP [0-9]+/[0-9]+: |Step [0-9]+/[0-9]+ : |#[0-9]+ \[)'
BUILD_LOG_DIR=${BUILD_LOG_DIR:-${TMPDIR:-/tmp}/$PROJECT-build}

# build_image NAME IMAGE CONTEXT [DOCKERFILE] [TARGET]: builds with the engine itself (never
# through docker-compose v1, whose builder prints the legacy builder's deprecation notice). A
# build that failed on the network is tried again (the layers built are reused); any other
# failure stops with the end of the log.
build_image() {
  local name=$1 image=$2 context=$3 dockerfile=${4:-$3/Dockerfile} target=${5:-}
  local cmd logfile status_file status attempt
  cmd=("$ENGINE" build -f "$dockerfile" -t "$image")
  [ -z "$target" ] || cmd+=(--target "$target")
  [ "$ENGINE" != podman ] || cmd+=(--format docker --pull=never --force-rm)
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

# The stack's own images (the proxy and the three services' runtime images), one at a time.
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
    "$ENGINE" inspect --format \
      '{{.Name}} {{if ne .State.Status "running"}}{{.State.Status}}{{else if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' \
      "$id" 2>/dev/null | sed 's#^/##'
  done
}

# ---- The proxy (proxy/default.vcl) and its view of the replicas
PROXY_WORKDIR=/var/lib/varnish/edge
container_of() {
  "$ENGINE" ps -q --filter "label=com.docker.compose.project=$PROJECT" --filter "label=com.docker.compose.service=$1"
}
proxy_admin() { "$ENGINE" exec "$(container_of proxy)" varnishadm -n "$PROXY_WORKDIR" "$@"; }
# The proxy's name of a replica's backend: games-service-1 -> games_1.
backend_of() { echo "${1%%-service-*}_${1##*-}"; }
# The replicas (compose services *-service-N) running in the project, sorted.
running_replicas() {
  "$ENGINE" ps -q --filter "label=com.docker.compose.project=$PROJECT" |
    xargs -r "$ENGINE" inspect --format '{{ index .Config.Labels "com.docker.compose.service" }}' |
    { grep -E -- '-service-[0-9]+$' || true; } | sort
}
# Whether the proxy's last three probes of replica $1 were good (its probe history, newest last:
# H for a good one). Three good probes in a row: the replica is in the rotation, and whatever the
# proxy knew of a container that was there before is past.
proxy_ready() {
  local probes
  probes=$(proxy_admin backend.list -p "boot.$(backend_of "$1")" 2>/dev/null | awk '$2 == "Happy" { print $1 }')
  [[ $probes == *HHH ]]
}
# Waits until the proxy has each replica named ready; $1: timeout in seconds, then the replicas.
wait_proxy_ready() {
  local timeout=$1 start=$SECONDS replica waiting
  shift
  while :; do
    waiting=()
    for replica in "$@"; do proxy_ready "$replica" || waiting+=("$replica"); done
    [ "${#waiting[@]}" -gt 0 ] || return 0
    if [ $((SECONDS - start)) -ge "$timeout" ]; then
      log "the proxy does not have ${waiting[*]} in its rotation after $timeout s:"
      proxy_admin backend.list 2>&1 | sed 's/^/    /' >&2 || true
      return 1
    fi
    sleep 1
  done
}

# podman without systemd runs no health check by itself: this loop runs them every 3 s for the
# containers of project $1, until killed (for `depends_on: condition: service_healthy`).
health_loop() {
  local id
  while :; do
    for id in $(podman ps -q --filter "label=com.docker.compose.project=$1"); do
      podman healthcheck run "$id" >/dev/null 2>&1 || true
    done
    sleep 3
  done
}

# Waits until every container of project $1 is healthy (or runs with no health check); $2:
# timeout in seconds. Without systemd, podman runs health checks only when asked: ask.
wait_healthy() {
  local project=$1 timeout=${2:-180} start=$SECONDS ids states restarting
  while :; do
    mapfile -t ids < <("$ENGINE" ps -aq --filter "label=com.docker.compose.project=$project")
    [ "${#ids[@]}" -gt 0 ] || die "no container of project $project"
    if [ "$ENGINE" = podman ]; then
      for id in "${ids[@]}"; do podman healthcheck run "$id" >/dev/null 2>&1 || true; done
    fi
    states=$(health_of "${ids[@]}")
    if ! grep -qvE ' (healthy|none)$' <<<"$states"; then
      log "all healthy after $((SECONDS - start)) s:"; sed 's/^/    /' <<<"$states" >&2
      return 0
    fi
    restarting=$(for id in "${ids[@]}"; do
      "$ENGINE" inspect --format '{{.Name}} {{.RestartCount}}' "$id" 2>/dev/null | sed 's#^/##'
    done | awk '$2 >= 3 {print $1}')
    if [ -n "$restarting" ]; then
      log "keeps restarting (it exits soon after it starts): $restarting"; return 1
    fi
    if grep -qE ' (exited|dead|stopped|unhealthy)$' <<<"$states" && [ $((SECONDS - start)) -gt 60 ]; then
      log "not healthy:"; sed 's/^/    /' <<<"$states" >&2; return 1
    fi
    if [ $((SECONDS - start)) -ge "$timeout" ]; then
      log "still not healthy after $timeout s:"; sed 's/^/    /' <<<"$states" >&2; return 1
    fi
    sleep 2
  done
}
