# One entry point for every service: each *-service/ folder is an independent npm package, and
# packages/service-kit/ is the local package they share (each depends on it as file:../packages/service-kit).
SHELL := /bin/bash
KIT := packages/service-kit
SERVICES := $(patsubst %/package.json,%,$(wildcard *-service/package.json))
PACKAGES := $(KIT) $(SERVICES)
NPM := npm --no-audit --no-fund --loglevel=error

.PHONY: help install build start start-dist reset-data test test-mongo lint format bench bench-scale bench-wal test-reliability test-reliability-beside test-reliability-quiet
.DEFAULT_GOAL := help

help: ## List the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-24s %s\n", $$1, $$2}'

# cd-service first: it compiles SQLite's driver from source (two minutes or so, on one core)
# while the others install beside it.
install: ## Install every package exactly as locked (npm ci): the kit, the services, bench/, two at a time
	@bash scripts/in-packages.sh "npm ci" "$(NPM) ci" cd-service $(filter-out cd-service,$(PACKAGES)) bench

# The packages among $(1) not installed since their lock file last changed, cd-service first: it
# compiles SQLite's driver on one core while the others install beside it.
stale = $(foreach p,$(filter cd-service,$(1)) $(filter-out cd-service,$(1)),$(if $(shell [ -e $(p)/node_modules/.package-lock.json ] && [ ! $(p)/package-lock.json -nt $(p)/node_modules/.package-lock.json ] || echo stale),$(p)))
# A command that installs those, two at a time (JOBS) as make install does, saying how it goes.
install-stale = bash scripts/in-packages.sh "npm ci (first install)" "$(NPM) ci" $(call stale,$(1))

.PHONY: bench-installed
bench-installed:
	@$(call install-stale,bench)

build: ## Compile the kit and every service to JavaScript (dist/), as the images do
	@$(call install-stale,$(PACKAGES))
	@for p in $(PACKAGES); do echo "== $$p: build"; (cd $$p && $(NPM) run build) || exit 1; done

# Request logs are off unless LOG_REQUESTS says otherwise: they would bury the Ready line.
start: ## Start every service from its TypeScript sources, installing what is missing first (edit, Ctrl-C, start again)
	@LOG_REQUESTS=$${LOG_REQUESTS:-false} bash scripts/run-services.sh '$(call install-stale,$(PACKAGES))' \
	  'exec node --conditions=source --import tsx src/server.ts' $(SERVICES)

# Runs each service's `npm start` command (its scripts.start, as the images do), but without npm,
# so that the signal reaches node (scripts/run-services.sh).
start-dist: build ## Start every service from the compiled JavaScript, as in production
	@bash scripts/run-services.sh true \
	  'cmd=$$(node -p "require(\"./package.json\").scripts.start") && PATH="$$PWD/node_modules/.bin:$$PATH" exec sh -c "exec $$cmd"' \
	  $(SERVICES)

reset-data: ## Put cd-service's sample collection back: deletes its SQLite file (CD_DB_PATH), which the next start reloads from seeds/cds.json; refused while cd-service runs
	@$(call install-stale,$(KIT) cd-service)
	@cd cd-service && node --conditions=source --import tsx scripts/reset-data.ts

# The test targets write no colour codes when their output is not a terminal (a CI log, a file):
# mocha's ✔ is coloured by picocolors, which takes CI=true for a terminal but honours NO_COLOR.
test: ## Run the kit's and every service's tests, two packages at a time (JOBS); fails if any fails
	@$(call install-stale,$(PACKAGES))
	@[ -t 1 ] || export NO_COLOR=1; bash scripts/in-packages.sh tests "$(NPM) test" $(PACKAGES)

test-mongo: ## cd-service's MongoDB suites: against MONGODB_URI, else the wire emulator of ../shared/mongo-wire, else it fails saying what to set
	@$(call install-stale,$(KIT) cd-service)
	@[ -t 1 ] || export NO_COLOR=1; bash scripts/test-mongo.sh

lint: ## Type-check and lint the kit, every service and bench/
	@$(call install-stale,$(PACKAGES) bench)
	@failed=""; \
	for p in $(PACKAGES) bench; do echo "== $$p: lint"; (cd $$p && $(NPM) run lint) || failed="$$failed $$p"; done; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed"; exit 1; fi

format: ## Rewrite the code in the house style
	@$(call install-stale,$(PACKAGES) bench)
	@for p in $(PACKAGES) bench; do (cd $$p && $(NPM) run format); done

bench: build bench-installed ## Benchmarks of the compiled services: each route against plain Koa replaying its answer and a bare node:http replay, layer costs from a CPU profile, growth with the data, the CD WAL under steady writes, memory (writes bench/RESULTS.md; about 27 minutes)
	@cd bench && node --import tsx src/bench.ts --write

bench-scale: build bench-installed ## The bench's growth section alone: 1,000 records against 100,000 games (and the CDs' large size); rewrites that section of bench/RESULTS.md (about 10 minutes)
	@cd bench && node --import tsx src/bench.ts --scale --write

bench-wal: build bench-installed ## cd-service's WAL under 5 minutes of steady writes at 1,000,000 CDs: its largest size, writes/s, failures (prints it; about 7 minutes)
	@cd bench && node --import tsx src/bench.ts --wal

test-reliability: build bench-installed ## Fuzzing, load, SIGKILL faults and security checks against the compiled services
	@[ -t 1 ] || export NO_COLOR=1; cd bench && $(NPM) test

# The suite's two parts, which CI runs apart (bench/README.md): the tests in bench/reliability/quiet/
# hold a time bound or measure under a load of fixed length, which a busy machine would break or
# weaken; the others check only what comes back, and may run beside other work.
test-reliability-beside: build bench-installed ## The reliability tests that may run beside other work (all but bench/reliability/quiet/)
	@[ -t 1 ] || export NO_COLOR=1; cd bench && $(NPM) run test:beside

test-reliability-quiet: build bench-installed ## The reliability tests that want the machine to themselves (bench/reliability/quiet/: load, probes, drains, hostile connections)
	@[ -t 1 ] || export NO_COLOR=1; cd bench && $(NPM) run test:quiet

# ---- Containers (containers/README.md), on the Docker engine: `docker compose`, else
# docker-compose (COMPOSE_ENGINE=... forces one). Builds print one line per step (VERBOSE=1:
# everything).
.PHONY: up up-sqlite down logs ps rolling-restart test-containers check-containers smoke-containers test-thousandfold

up: ## Build and start the stack (edge, 2 replicas each, MongoDB), wait until ready; MONGO_STANDIN=1: a stand-in for MongoDB
	@bash containers/stack.sh up

up-sqlite: ## The same without MongoDB: one cd-service on SQLite in a named volume
	@bash containers/stack.sh up-sqlite

down: ## Stop and remove the stack's containers (the data volumes stay)
	@bash containers/stack.sh down

logs: ## Follow the logs of the stack (Ctrl-C stops following)
	@bash containers/stack.sh logs

ps: ## List the stack's containers and their health
	@bash containers/stack.sh ps

rolling-restart: ## Restart the replicas one at a time, each back in the edge's rotation before the next
	@bash containers/rolling-restart.sh

test-containers: ## Run every service's tests inside its test image (Dockerfile target `test`)
	@bash containers/stack.sh test

check-containers: ## Static checks: every compose file combination, every Dockerfile linted, nothing engine-specific, the edge's config
	@bash containers/check.sh

smoke-containers: ## Build the images and smoke-test both stacks through the edge on Docker (SKIPPED when no engine answers)
	@bash containers/smoke-test.sh

test-thousandfold: bench-installed ## The SQLite stack on Docker at 1,000 times the seeds under 64 clients through the edge for 120 s, and games alone on its seed's texts 1,000 times over: fails on a 5xx, an answer over 10 s, a restart or an OOM kill (SKIPPED when no engine answers; about 4 minutes)
	@bash containers/thousandfold.sh

# ---- Kubernetes (deploy/kubernetes/README.md): kubectl renders the kustomizations, npm's
# kubernetes-models validates every object; no cluster is needed.
.PHONY: check-k8s

check-k8s: ## Render the Kubernetes manifests (base, overlays) and validate them offline
	@bash deploy/kubernetes/check/check.sh
