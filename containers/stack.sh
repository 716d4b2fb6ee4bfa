#!/usr/bin/env bash
# The stack in containers, on the Docker engine with Compose (see containers/lib.sh).
# Used by the Makefile: make up | up-sqlite | down | logs | ps | test-containers.
#
#   containers/stack.sh up          build, start with MongoDB, wait until healthy, print the URLs
#   containers/stack.sh up-sqlite   the same without MongoDB: cd-service on SQLite (volume cd-data)
#   containers/stack.sh down        stop and remove the containers (the data volumes stay)
#   containers/stack.sh logs [svc]  follow the logs
#   containers/stack.sh ps          list the containers and their health
#   containers/stack.sh test        build each service's `test` stage and run its tests inside
#   containers/stack.sh engine      print the engine chosen
# Env: COMPOSE_ENGINE ("docker compose" or docker-compose), COMPOSE_PROJECT_NAME (default koa-services),
#      UP_TIMEOUT (seconds to wait for health, default 240), VERBOSE=1 (the whole build output;
#      otherwise one line per build step, the rest in a log file), MONGO_STANDIN=1 (up: a local
#      stand-in for MongoDB, containers/mongo-standin.sh, where the mongo image cannot be pulled),
#      and the stack's own variables (ITINERARY_SEED, CD_API_TOKEN, MONGODB_URI, GAMES_PORT, GAMES_HTTPS_PORT,
#      TRAVEL_PORT, CD_PORT, BIND_ADDRESS, PROXY_CACHE_MB).
#      EXTRA_COMPOSE_FILE: a compose file of your own, added after the stack's (an override).
set -euo pipefail
LOG_TAG=stack
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"

cmd=${1:-help}; shift || true
MONGO_FILES=(-f docker-compose.yml)
SQLITE_FILES=(-f docker-compose.yml -f docker-compose.sqlite.yml)
EXTRA_FILES=()
[ -z "${EXTRA_COMPOSE_FILE:-}" ] || EXTRA_FILES=(-f "$EXTRA_COMPOSE_FILE")

MONGO_ADVICE="make up-sqlite runs the stack without MongoDB; MONGO_STANDIN=1 make up runs it on a local stand-in for MongoDB (data in memory, for trying the stack only: containers/README.md); or load the image from a machine that has it (save, then load)."

print_urls() {
  local bind=${BIND_ADDRESS:-127.0.0.1}
  [ "$bind" = 0.0.0.0 ] && bind=127.0.0.1
  echo
  echo "  games-service   http://$bind:${GAMES_PORT:-3001}"
  echo "  travel-service  http://$bind:${TRAVEL_PORT:-3002}"
  echo "  cd-service      http://$bind:${CD_PORT:-3003}/docs  (the CD API: /cds)"
  echo "  over HTTPS and HTTP/2: https://$bind:${GAMES_HTTPS_PORT:-3441}, :${TRAVEL_HTTPS_PORT:-3442}, :${CD_HTTPS_PORT:-3443} (containers/README.md#https)"
  echo
  echo "  through the caching edge (X-Cache says HIT, MISS or PASS); $1"
  echo "  make logs (follow the logs), make ps, make down (stop; the data stays)"
}

# up mongo|sqlite
up() {
  local store=$1 files=() extra=() mongo_volume="${PROJECT}_mongo-data" made_mongo_volume=0
  log "engine: $ENGINE_NAME"
  ensure_base_image
  if [ "$store" = sqlite ]; then
    files=("${SQLITE_FILES[@]}")
    extra=(--no-deps proxy "${SERVICES[@]}")   # leave out mongo
    docker volume inspect "$mongo_volume" >/dev/null 2>&1 || made_mongo_volume=1
  elif [ "${MONGO_STANDIN:-0}" = 1 ]; then
    files=("${MONGO_FILES[@]}" -f docker-compose.mongo-standin.yml)
    log "MONGO_STANDIN=1: MongoDB is replaced by a local stand-in (data in memory): $MONGO_STANDIN_IMAGE"
    NODE_IMAGE=$NODE_IMAGE bash containers/mongo-standin.sh
  else
    files=("${MONGO_FILES[@]}")
    ensure_pulled "$MONGO_IMAGE" "$MONGO_ADVICE"
  fi
  files+=("${EXTRA_FILES[@]}")
  build_stack_images || die "the images do not build"
  local status=0
  log "starting the stack"
  "${COMPOSE[@]}" -p "$PROJECT" "${files[@]}" up -d --no-build "${extra[@]}" 2>&1 | sed 's/^/    /' >&2 || status=$?
  # docker-compose v1 creates every volume of the files, used or not (Compose v2 only those of
  # the services it starts): the stack without MongoDB keeps no volume for it.
  if [ "$made_mongo_volume" = 1 ]; then docker volume rm "$mongo_volume" >/dev/null 2>&1 || true; fi
  [ "$status" = 0 ] || die "the stack did not start (make down removes what did)"
  # Ready: every replica in the edge's rotation (it answered /readyz twice). Docker's own health
  # checks are shown, not waited for: each starts a node process, which on a loaded machine can
  # outlast its 5 s timeout while the service itself answers.
  log "waiting until the edge has every replica in its rotation (at most ${UP_TIMEOUT:-240} s)"
  local replicas=() service counts=()
  for service in "${SERVICES[@]}"; do
    mapfile -t -O "${#replicas[@]}" replicas < <(containers_of "$service")
    counts+=("$(containers_of "$service" | wc -l) ${service%-service}")
  done
  if ! wait_edge_ready "${UP_TIMEOUT:-240}" "${replicas[@]}"; then
    "${COMPOSE[@]}" -p "$PROJECT" "${files[@]}" logs --tail=30 >&2 || true
    die "the edge does not reach every replica (make logs, make ps; make down stops it)"
  fi
  log "the edge has ${#replicas[@]} replicas in its rotation; Docker's health checks:"
  mapfile -t ids < <(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT")
  health_of "${ids[@]}" | sed 's/^/    /' >&2
  print_urls "replicas: $(IFS=,; echo "${counts[*]}" | sed 's/,/, /g')"
}

case $cmd in
  engine) detect_engine; echo "$ENGINE_NAME" ;;
  up) engine_start; up mongo ;;
  up-sqlite) engine_start; up sqlite ;;
  down)
    engine_start
    "${COMPOSE[@]}" -p "$PROJECT" "${SQLITE_FILES[@]}" down --remove-orphans "$@" ;;
  logs)
    engine_start
    # Ctrl-C is how a user stops following: say so in one line, without docker-compose's
    # "Aborting." and a failed make.
    trap 'echo stopped; exit 0' INT
    "${COMPOSE[@]}" -p "$PROJECT" "${SQLITE_FILES[@]}" logs -f --tail=100 "$@" \
      2> >(grep -v --line-buffered '^Aborting\.$' >&2) || true ;;
  ps)
    engine_start
    "${COMPOSE[@]}" -p "$PROJECT" "${SQLITE_FILES[@]}" ps
    mapfile -t ids < <(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT")
    if [ "${#ids[@]}" -gt 0 ]; then
      echo; echo "health:"; health_of "${ids[@]}" | sed 's/^/  /'
    fi ;;
  test)
    engine_start
    ensure_base_image
    # The test containers and their network go however this ends; a TERM or Ctrl-C first lets the
    # running container stop (it gets the signal too).
    test_down() { "${COMPOSE[@]}" -p "$PROJECT-test" -f docker-compose.test.yml down --remove-orphans >/dev/null 2>&1 || true; }
    trap test_down EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    failed=()
    for service in "${SERVICES[@]}"; do
      [ -f "$service/Dockerfile" ] || continue
      log "== $service: building its test image, then npm test inside it"
      if build_image "$service-test" "$PROJECT/$service:test" . "$service/Dockerfile" test &&
        "${COMPOSE[@]}" -p "$PROJECT-test" -f docker-compose.test.yml run --rm "$service-test"; then
        log "== $service: passed"
      else
        failed+=("$service")
      fi
    done
    [ "${#failed[@]}" -eq 0 ] || die "tests failed in: ${failed[*]}"
    log "all tests passed inside the containers" ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; [ "$cmd" = help ] ;;
esac
