#!/usr/bin/env bash
# The stack at 1,000 times the seeds, on the Docker engine with the compose file's memory limits:
#   1. generates each seed 1,000 times over (bench/src/thousandfold-data.ts: 145,000 games, 14,000
#      destinations, 61,000 CDs with the seeds' field sizes; and the games seed's own texts 1,000
#      times over);
#   2. starts the SQLite stack as `make up-sqlite` does (containers/stack.sh up-sqlite), the data
#      put in by a compose override of its own (GAMES_FILE, DESTINATIONS_FILE, CD_SEED_FILE on
#      bind mounts; docker-compose.yml is not changed), on ports 14001-14003;
#   3. for DURATION_S (120) seconds, 64 clients request every documented route and page through
#      the edge (containers/thousandfold-load.mjs), while `docker stats` is sampled every 2 s;
#   4. starts games-service alone (its compose service, its memory limit) on the games seed's own
#      texts 1,000 times over: it must become ready (then a single GET /api/games without
#      Accept-Encoding and a single GET /hidden-gems must leave it running), or refuse the file
#      at start with a message naming it, and exit non-zero;
#   5. removes what it started, whatever happened, and prints the time of each phase.
# Fails on any 5xx, any request without an answer, any answer slower than 10 s, any container
# restart or OOM kill (Docker's `oom` and `die` events, RestartCount, OOMKilled), or a games-service
# that neither becomes ready nor refuses clearly. Prints the load's table (requests, statuses,
# p50/p99/max per route) and each container's peak memory against its limit.
# Prints `SKIPPED: <reason>` and exits 0 when no Docker engine answers (THOUSANDFOLD_REQUIRED=1:
# exits 1). Env: THOUSANDFOLD_PORT_BASE (14000), DURATION_S (120), CLIENTS (64), TIMES (1000),
#      ALONE_TIMEOUT (120 s for games alone to be ready or to refuse), THOUSANDFOLD_KEEP=1 (leave
#      the stack of step 2 running, and the data, to look at them).
set -euo pipefail
LOG_TAG=thousandfold
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"
skip() { skip_check THOUSANDFOLD_REQUIRED "$@"; }

PROJECT=koa-services-thousandfold
export COMPOSE_PROJECT_NAME=$PROJECT
PORT_BASE=${THOUSANDFOLD_PORT_BASE:-14000}
TIMES=${TIMES:-1000}
export BIND_ADDRESS=127.0.0.1 UP_TIMEOUT=${UP_TIMEOUT:-240} ITINERARY_SEED=thousandfold
export GAMES_PORT=$((PORT_BASE + 1)) TRAVEL_PORT=$((PORT_BASE + 2)) CD_PORT=$((PORT_BASE + 3))
export GAMES_HTTPS_PORT=$((PORT_BASE + 441)) TRAVEL_HTTPS_PORT=$((PORT_BASE + 442)) CD_HTTPS_PORT=$((PORT_BASE + 443))
# Its 64 clients come from one address: the edge's per-client limits are lifted for them.
export EDGE_CLIENT_CONNECTIONS=100000 EDGE_CLIENT_REQUESTS=100000000 EDGE_CLIENT_WRITES=100000000
SQLITE=(-f docker-compose.yml -f docker-compose.sqlite.yml)
# Where the data files are mounted inside the containers.
DATA=/thousandfold

phase "the engine and the data"
have docker || skip "docker is not installed (apt-get install docker.io docker-compose)"
if ! err=$(timeout 20 docker info 2>&1 >/dev/null); then skip "the Docker engine does not answer: ${err##*$'\n'}"; fi
detect_engine
for port in "$GAMES_PORT" "$TRAVEL_PORT" "$CD_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port is taken (THOUSANDFOLD_PORT_BASE chooses others)"; fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/koa-thousandfold.XXXXXX")
chmod 755 "$work"
export BUILD_LOG_DIR=$work/build
started=0 stats_pid="" events_pid="" files=()
compose() { "${COMPOSE[@]}" -p "$PROJECT" "${files[@]}" "$@"; }
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  [ -z "$stats_pid" ] || kill "$stats_pid" 2>/dev/null || true
  [ -z "$events_pid" ] || kill "$events_pid" 2>/dev/null || true
  if [ "$started" = 1 ] && [ "${THOUSANDFOLD_KEEP:-0}" != 1 ]; then
    log "== teardown"
    compose down -v --remove-orphans --timeout 5 >"$work/down.log" 2>&1 || { cat "$work/down.log" >&2; status=1; }
  fi
  if [ "${THOUSANDFOLD_KEEP:-0}" = 1 ]; then
    log "THOUSANDFOLD_KEEP=1: the data is in $work; stop the stack with: ${COMPOSE[*]} -p $PROJECT ${files[*]} down -v"
  else rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$work/data"
(cd bench && node --import tsx src/thousandfold-data.ts "$work/data" "$TIMES") >"$work/counts.json" ||
  die "the data cannot be generated (bench/src/thousandfold-data.ts)"
log "generated in $((SECONDS - phase_start)) s: $(cat "$work/counts.json"); files: $(cd "$work/data" && du -m -- *.json | awk '{printf "%s %s MB, ", $2, $1}')"

# The stack's own files, then one of this check's that hands each service its data.
override() { # override FILE GAMES_FILE: the override, with games on the file named
  cat >"$1" <<EOF
services:
  games-service:
    environment:
      GAMES_FILE: $DATA/$2
    volumes:
      - $work/data/$2:$DATA/$2:ro
  travel-service:
    environment:
      DESTINATIONS_FILE: $DATA/destinations.json
    volumes:
      - $work/data/destinations.json:$DATA/destinations.json:ro
  cd-service:
    environment:
      CD_SEED_FILE: $DATA/cds.json
    volumes:
      - $work/data/cds.json:$DATA/cds.json:ro
EOF
}
override "$work/stack.yml" games.json
files=("${SQLITE[@]}" -f "$work/stack.yml")

failed=0 failures=()
ok() { log "ok   $*"; }
fail() { failed=$((failed + 1)); failures+=("$*"); log "FAIL $*"; }

# The engine's `die` and `oom` events of the project's containers, from now on, into $work/events
# (followed as they come: the engine keeps only its last 256 events for a later `--since`).
watch_deaths() {
  [ -z "$events_pid" ] || kill "$events_pid" 2>/dev/null || true
  docker events --filter "label=com.docker.compose.project=$PROJECT" \
    --filter type=container --filter event=oom --filter event=die \
    --format '{{.Action}} {{index .Actor.Attributes "name"}}{{with index .Actor.Attributes "exitCode"}} exit {{.}}{{end}}' \
    >"$work/events" 2>&1 &
  events_pid=$!
}
# The containers' deaths, OOM kills and restarts since watch_deaths, one line each, from the
# engine's events and from each container's state.
deaths() {
  local id
  cat "$work/events"
  for id in $(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT"); do
    docker inspect --format '{{.Name}} {{.State.OOMKilled}} {{.RestartCount}} {{.State.Status}}' "$id" |
      awk '$2 == "true" || $3 != "0" || $4 != "running" { sub("^/", "", $1); print "state " $1 " OOMKilled=" $2 " restarts=" $3 " " $4 }'
  done
}
# The last lines of each container that died, to show why.
tell_deaths() {
  local name lines
  for name in $(awk '$1 == "die" || $1 == "oom" || $1 == "state" { print $2 }' "$1" | sort -u); do
    lines=$(docker logs --tail 5 "$name" 2>&1 | cut -c1-300 | sed 's/^/    /' || true)
    log "the last lines of $name: ${lines:+$'\n'}${lines:-(its log is empty)}"
  done
}

# ---- 2. the stack, as `make up-sqlite` starts it, with the data
phase "the SQLite stack at ${TIMES} times the seeds: containers/stack.sh up-sqlite"
started=1
watch_deaths
if ! EXTRA_COMPOSE_FILE=$work/stack.yml bash containers/stack.sh up-sqlite >"$work/up.out" 2>&1; then
  grep -vE "$BUILD_STEP|^    [a-z-]+: (Step|#)" "$work/up.out" | tail -40 >&2
  die "the stack does not start at ${TIMES} times the seeds"
fi
grep -E '^\[stack\]' "$work/up.out" | sed 's/^/    /' >&2 || true
log "every replica in the edge's rotation after $((SECONDS - phase_start)) s"

# ---- 3. the load, with docker stats sampled beside it
phase "the load: ${CLIENTS:-64} clients for ${DURATION_S:-120} s through the edge"
( while :; do
    # shellcheck disable=SC2046  # one argument per container id
    docker stats --no-stream --format '{{.Name}} {{.MemUsage}}' $(docker ps -q --filter "label=com.docker.compose.project=$PROJECT") 2>/dev/null || true
    sleep 2
  done >"$work/stats" ) &
stats_pid=$!
load_status=0
MANIFEST=$work/data/manifest.json node containers/thousandfold-load.mjs \
  "http://127.0.0.1:$GAMES_PORT" "http://127.0.0.1:$TRAVEL_PORT" "http://127.0.0.1:$CD_PORT" \
  >"$work/load.json" 2>"$work/load.table" || load_status=$?
kill "$stats_pid" 2>/dev/null || true; wait "$stats_pid" 2>/dev/null || true; stats_pid=""
sed 's/^/    /' "$work/load.table" >&2
summary=$(node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const fives = Object.entries(r.statuses).filter(([s]) => s >= 500).reduce((n, [, v]) => n + v, 0);
  const none = Object.values(r.failures).reduce((n, v) => n + v, 0);
  console.log(`${r.requests} requests in ${r.seconds} s by ${r.clients} clients; statuses ${JSON.stringify(r.statuses)}; ${fives} 5xx, ${none} without an answer ${JSON.stringify(r.failures)}, ${r.slow} slower than 10 s, ${r.unexpected} of another status than the route'"'"'s`);' \
  "$work/load.json" 2>/dev/null || echo "no summary from the load: $(tail -3 "$work/load.table")")
if [ "$load_status" = 0 ]; then ok "the load: $summary"; else fail "the load: $summary"; fi
# Peak memory per container (docker stats: "123.4MiB / 256MiB").
node -e '
  const peaks = new Map();
  const unit = { B: 1 / 1048576, KiB: 1 / 1024, kB: 1e3 / 1048576, MiB: 1, MB: 1e6 / 1048576, GiB: 1024, GB: 1e9 / 1048576 };
  const mib = (v) => parseFloat(v) * (unit[v.replace(/^[\d.]+/, "")] ?? 1);
  for (const line of require("fs").readFileSync(process.argv[1], "utf8").split("\n")) {
    const m = /^(\S+) (\S+) \/ (\S+)$/.exec(line.trim());
    if (!m) continue;
    const [, name, used, limit] = m;
    const p = peaks.get(name) ?? { peak: 0, limit: 0, samples: 0 };
    p.peak = Math.max(p.peak, mib(used)); p.limit = Math.max(p.limit, mib(limit)); p.samples++;
    peaks.set(name, p);
  }
  for (const [name, p] of [...peaks].sort())
    console.log(`${name.padEnd(48)} peak ${p.peak.toFixed(0).padStart(4)} MiB of ${p.limit.toFixed(0)} MiB (${(100 * p.peak / p.limit).toFixed(0)}%), ${p.samples} samples`);' \
  "$work/stats" | sed 's/^/    /' >&2
deaths >"$work/deaths"
if [ -s "$work/deaths" ]; then
  fail "containers died or restarted since the stack started: $(sort "$work/deaths" | uniq -c | awk '{$1 = $1 "x"; print}' | paste -sd';' | sed 's/;/; /g')"
  tell_deaths "$work/deaths"
else ok "no container died, restarted or was OOM-killed since the stack started"; fi

if [ "${THOUSANDFOLD_KEEP:-0}" = 1 ]; then
  log "THOUSANDFOLD_KEEP=1: the stack runs on, at http://127.0.0.1:$GAMES_PORT, :$TRAVEL_PORT, :$CD_PORT"
  exit "$((failed > 0))"
fi
compose down -v --remove-orphans --timeout 5 >"$work/down.log" 2>&1 || { cat "$work/down.log" >&2; fail "the stack does not come down"; }

# ---- 4. games alone, on its seed's own texts 1,000 times over
phase "games-service alone on its seed's own texts ${TIMES} times over"
override "$work/alone.yml" games-seed-times.json
files=("${SQLITE[@]}" -f "$work/alone.yml")
size_mb=$(du -m "$work/data/games-seed-times.json" | cut -f1)
watch_deaths
compose up -d --no-build --no-deps --scale games-service=1 games-service >"$work/alone.out" 2>&1 ||
  { cat "$work/alone.out" >&2; die "games-service does not start alone"; }
id=$(container_of games-service || true)
[ -n "$id" ] || id=$(containers_of games-service -a | head -1)
outcome="" start=$SECONDS
while [ $((SECONDS - start)) -lt "${ALONE_TIMEOUT:-120}" ]; do
  state=$(docker inspect --format '{{.State.Status}} {{.State.OOMKilled}} {{.RestartCount}}' "$id")
  address=$(address_of "$id" || true)
  if [ -n "$address" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://$address:3001/readyz")" = 200 ]; then
    outcome=ready; break
  fi
  read -r status oom restarts <<<"$state"
  if [ "$oom" = true ] || [ "$restarts" != 0 ] || [ "$status" != running ]; then outcome=stopped; break; fi
  sleep 1
done
log "after $((SECONDS - start)) s: $(docker inspect --format 'status {{.State.Status}}, exit code {{.State.ExitCode}}, OOMKilled {{.State.OOMKilled}}, restarts {{.RestartCount}}' "$id")"
case $outcome in
  ready)
    ok "games-service is ready on a $size_mb MB file (the seed's own texts ${TIMES} times over) in $((SECONDS - start)) s"
    url=http://$(address_of "$id"):3001
    for path in /api/games /hidden-gems; do
      got=$(curl -s -o /dev/null -w '%{http_code} %{size_download}' --max-time 60 "$url$path" 2>&1 || true)
      log "GET $path (no Accept-Encoding), at the replica: ${got% *}, ${got#* } bytes"
    done
    sleep 2 # the engine reports an OOM kill a moment after the connection broke
    deaths >"$work/deaths"
    peak=$(docker stats --no-stream --format '{{.MemUsage}}' "$id" 2>/dev/null || true)
    if [ -s "$work/deaths" ]; then
      fail "games-service alone: a single GET /api/games and GET /hidden-gems killed it: $(paste -sd';' "$work/deaths")"
      tell_deaths "$work/deaths"
    else ok "games-service alone: a single GET /api/games and GET /hidden-gems leave it running (now $peak)"; fi ;;
  stopped)
    sleep 2
    deaths >"$work/deaths"
    docker logs "$id" >"$work/alone.log" 2>&1 || true
    # The refusal names the file, its size and the memory limit.
    said=$(grep -F "$DATA/games-seed-times.json" "$work/alone.log" | grep -iE 'limit|memory' |
      grep -E '[0-9][0-9,.]* ?(bytes|[KMG]i?B)' | tail -1 | cut -c1-400 || true)
    exit_code=$(docker inspect --format '{{.State.ExitCode}}' "$id")
    if grep -q '^oom ' "$work/deaths" || [ "$(docker inspect --format '{{.State.OOMKilled}}' "$id")" = true ]; then
      fail "games-service alone was OOM-killed loading a $size_mb MB file: $(paste -sd';' "$work/deaths")"
      tell_deaths "$work/deaths"
    elif [ -n "$said" ] && [ "$exit_code" != 0 ] && [ "$exit_code" != 137 ]; then
      ok "games-service alone refused the $size_mb MB file at start, exit $exit_code: $said"
    else
      fail "games-service alone stopped (exit $exit_code) without a message naming the file, its size and the memory limit; its last lines: $(tail -3 "$work/alone.log" | cut -c1-300 | paste -sd' ')"
    fi ;;
  *) fail "games-service alone is neither ready nor stopped after ${ALONE_TIMEOUT:-120} s on a $size_mb MB file" ;;
esac

phase "done"
echo
echo "thousandfold: time per phase"
phase_times
if [ "$failed" -eq 0 ]; then echo "thousandfold: passed"
else
  echo "thousandfold: $failed failed"
  printf '  FAIL %s\n' "${failures[@]}"
fi
[ "$failed" -eq 0 ]
