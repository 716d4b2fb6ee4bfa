#!/usr/bin/env bash
# Restarts the stack's replicas one at a time, and waits after each until it is ready again:
# healthy for the engine, then in the proxy's rotation (its probes of /readyz). docker-compose v1
# has no rolling update; this is it.
#
# Usage: containers/rolling-restart.sh [REPLICA...]
#   without arguments: every running replica of a service that has two or more (games-service-1,
#   games-service-2, travel-service-1, ...; cd-service's only on MongoDB). A replica named alone,
#   with no other ready (cd-service-1 on SQLite), is restarted too, with a warning: its service
#   does not answer meanwhile.
# Env: COMPOSE_PROJECT_NAME (default koa-services), COMPOSE_ENGINE, READY_TIMEOUT (seconds to
#      wait for a replica to be ready again, default 90), STOP_TIMEOUT (seconds a replica gets to
#      stop before it is killed, default 15, as the stack's stop_grace_period).
set -euo pipefail
LOG_TAG=rolling-restart
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"
engine_start
[ -n "$(container_of proxy)" ] || die "no proxy runs in project $PROJECT (make up starts the stack)"
mapfile -t running < <(running_replicas)
# Whether another running replica of the same service is in the proxy's rotation.
other_ready() {
  local other
  for other in "${running[@]}"; do
    [ "${other%-*}" = "${1%-*}" ] && [ "$other" != "$1" ] && proxy_ready "$other" && return 0
  done
  return 1
}

if [ "$#" -gt 0 ]; then replicas=("$@")
else
  replicas=()
  for replica in "${running[@]}"; do
    if [ "$(printf '%s\n' "${running[@]}" | grep -c -- "^${replica%-*}-")" -ge 2 ]; then replicas+=("$replica")
    else log "$replica is the only replica of ${replica%-*}: left running (name it to restart it anyway)"; fi
  done
fi
[ "${#replicas[@]}" -gt 0 ] || die "no replica to restart in project $PROJECT"

start_all=$SECONDS
for replica in "${replicas[@]}"; do
  id=$(container_of "$replica")
  [ -n "$id" ] || die "$replica does not run in project $PROJECT"
  other_ready "$replica" || log "WARNING: no other replica of ${replica%-*} is ready: it does not answer until $replica is back"
  start=$SECONDS
  log "$replica: restarting (SIGTERM, then at most ${STOP_TIMEOUT:-15} s)"
  "$ENGINE" restart -t "${STOP_TIMEOUT:-15}" "$id" >/dev/null
  # Healthy: the new process answers its health check (podman, without systemd, runs it only
  # when asked; Docker marks a restarted container "starting" until its check passes).
  until if [ "$ENGINE" = podman ]; then podman healthcheck run "$id" >/dev/null 2>&1
        else [ "$(health_of "$id" | awk '{print $2}')" = healthy ]; fi; do
    [ $((SECONDS - start)) -lt "${READY_TIMEOUT:-90}" ] || die "$replica is not healthy $((SECONDS - start)) s after its restart ($(health_of "$id"))"
    sleep 1
  done
  # In the proxy's rotation: three good probes in a row (a second apart), all after the new
  # process answered.
  sleep 3
  wait_proxy_ready $(( ${READY_TIMEOUT:-90} - (SECONDS - start) )) "$replica" ||
    die "$replica is not in the proxy's rotation $((SECONDS - start)) s after its restart"
  log "$replica: ready again after $((SECONDS - start)) s"
done
log "restarted ${#replicas[@]} replicas, one at a time, in $((SECONDS - start_all)) s"
engine_stop_if_started
