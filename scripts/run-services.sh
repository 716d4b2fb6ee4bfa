#!/usr/bin/env bash
# The foreground of `make start` and `make start-dist`: runs BEFORE (make start: installs what is
# missing), then COMMAND in each service's folder, beside make start's ready line.
# - Ctrl-C or SIGTERM, at any moment (installing included), stops everything, prints `stopped`
#   and exits 0.
# - A service that ends by itself (a setting that cannot be right, a port in use) stops the
#   others, and the script exits with its status (1 if it was 0), so make fails at once.
# COMMAND runs under `exec sh -c` and should itself `exec` the server, so that the signal reaches
# node: npm and its `sh -c` would not pass SIGTERM on, and the servers would outlive make.
# Usage: scripts/run-services.sh 'BEFORE' 'COMMAND' SERVICE...
set -uo pipefail
before=$1 command=$2
shift 2
pids=()
declare -A service_of=() # pid -> service

stop_all() {
  kill -TERM "${pids[@]}" 2>/dev/null
  wait
}
# Jobs started in the background by a script ignore SIGINT: this trap passes Ctrl-C on as SIGTERM.
trap 'stop_all; echo stopped; exit 0' INT TERM

bash -c "$before" &
pids=("$!")
wait "$!" || exit

pids=()
for service in "$@"; do
  (cd "$service" && exec sh -c "$command") &
  pids+=("$!")
  service_of[$!]=$service
done
node scripts/announce-ready.mjs &
pids+=("$!")

status=0
wait -n -p ended "${!service_of[@]}" || status=$?
stop_all
echo "${service_of[$ended]} ended by itself (exit $status): the other services were stopped" >&2
exit $((status == 0 ? 1 : status))
