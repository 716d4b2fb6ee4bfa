#!/usr/bin/env bash
# Restarts the replicas of the stack's services one at a time, and waits after each until the
# edge has it in its rotation again (its probes of /readyz). Compose v1 has no rolling update,
# and v2's `up` recreates every replica of a service at once: this is it.
#
# Usage: containers/rolling-restart.sh [SERVICE...]
#   without arguments: every service with two or more running replicas (games-service,
#   travel-service, and cd-service on MongoDB). A service named with one replica (cd-service on
#   SQLite) is restarted too, with a warning: it does not answer meanwhile.
# Env: COMPOSE_PROJECT_NAME (default koa-services), READY_TIMEOUT (seconds to wait for a replica
#      to be back in the rotation, default 60), STOP_TIMEOUT (seconds a replica gets to stop
#      before it is killed, default 15, as the stack's stop_grace_period).
set -euo pipefail
LOG_TAG=rolling-restart
# shellcheck source=containers/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"
engine_start
[ -n "$(container_of proxy)" ] || die "no edge (proxy) runs in project $PROJECT (make up starts the stack)"

if [ "$#" -gt 0 ]; then services=("$@")
else
  services=()
  while read -r service count; do
    if [ "$count" -ge 2 ]; then services+=("$service")
    else log "$service has one replica: left running (name it to restart it anyway)"; fi
  done < <(running_services)
fi
[ "${#services[@]}" -gt 0 ] || die "no service to restart in project $PROJECT"

start_all=$SECONDS restarted=0
for service in "${services[@]}"; do
  mapfile -t ids < <(containers_of "$service")
  [ "${#ids[@]}" -gt 0 ] || die "$service does not run in project $PROJECT"
  [ "${#ids[@]}" -ge 2 ] || log "WARNING: $service has one replica: it does not answer until it is back"
  for id in "${ids[@]}"; do
    name=$(name_of "$id")
    start=$SECONDS
    log "$name: restarting (SIGTERM, then at most ${STOP_TIMEOUT:-15} s)"
    docker restart -t "${STOP_TIMEOUT:-15}" "$id" >/dev/null
    # Back in the rotation: UP at its (maybe new) address, by probes of the new process (the
    # edge's last change of state came after the restart began; after 10 s, UP is enough, for a
    # replica stopped and started again too fast for the edge to see it leave).
    until edge_ready "$id" $((SECONDS - start)) || { [ $((SECONDS - start)) -ge 10 ] && edge_ready "$id"; }; do
      [ $((SECONDS - start)) -lt "${READY_TIMEOUT:-60}" ] ||
        die "$name is not in the edge's rotation $((SECONDS - start)) s after its restart ($(health_of "$id"))"
      sleep 0.5
    done
    log "$name: back in the rotation after $((SECONDS - start)) s"
    restarted=$((restarted + 1))
  done
done
log "restarted $restarted replicas, one at a time, in $((SECONDS - start_all)) s"
