# One entry point for every service: each *-service/ folder is an independent npm package.
SERVICES := $(patsubst %/package.json,%,$(wildcard *-service/package.json))
INSTALLED := $(addsuffix /node_modules/.package-lock.json,$(SERVICES))
NPM := npm --no-audit --no-fund --loglevel=error

.PHONY: help install start test lint format bench test-reliability
.DEFAULT_GOAL := help

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

install: ## Install every service's packages exactly as locked (npm ci)
	@for s in $(SERVICES) bench; do echo "== $$s: npm ci"; (cd $$s && $(NPM) ci) || exit 1; done

# Installs a service only when its lock file is newer than its node_modules.
%/node_modules/.package-lock.json: %/package-lock.json
	cd $* && $(NPM) ci

start: $(INSTALLED) ## Start every service in the foreground (Ctrl-C stops them all)
	@trap 'kill 0' INT TERM; \
	for s in $(SERVICES); do (cd $$s && exec node --import tsx src/server.ts) & done; \
	wait

test: $(INSTALLED) ## Run every service's tests; fails if any fails
	@failed=""; \
	for s in $(SERVICES); do echo "== $$s: tests"; (cd $$s && $(NPM) test) || failed="$$failed $$s"; done; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed"; exit 1; fi; echo "All tests passed."

lint: $(INSTALLED) bench/node_modules/.package-lock.json ## Type-check and lint every service (and bench/)
	@failed=""; \
	for s in $(SERVICES) bench; do echo "== $$s: lint"; (cd $$s && $(NPM) run lint) || failed="$$failed $$s"; done; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed"; exit 1; fi

format: $(INSTALLED) ## Rewrite every service's code in the house style
	@for s in $(SERVICES); do (cd $$s && $(NPM) run format); done

bench: $(INSTALLED) bench/node_modules/.package-lock.json ## Benchmarks: each route against a bare node:http server, and at 1,000 vs 100,000 records (writes bench/RESULTS.md)
	@cd bench && node --import tsx src/bench.ts --write

test-reliability: $(INSTALLED) bench/node_modules/.package-lock.json ## Fuzzing, load, SIGKILL faults and security checks against the real services
	@cd bench && $(NPM) test

# ---- Containers (README.md, section Docker). The engine is chosen by containers/lib.sh:
# `docker compose`, else docker-compose with a Docker engine, else podman (through docker-compose
# and podman's API service, or `podman compose`); COMPOSE_ENGINE=... forces one.
.PHONY: up up-sqlite down logs ps test-containers check-containers smoke-containers

up: ## Build and start the stack in containers (with MongoDB), wait until healthy, print the URLs
	@bash containers/stack.sh up

up-sqlite: ## The same without MongoDB: cd-service on SQLite in a named volume
	@bash containers/stack.sh up-sqlite

down: ## Stop and remove the stack's containers (the data volumes stay)
	@bash containers/stack.sh down

logs: ## Follow the logs of the stack (Ctrl-C stops following)
	@bash containers/stack.sh logs

ps: ## List the stack's containers and their health
	@bash containers/stack.sh ps

test-containers: ## Run every service's tests inside its test image (Dockerfile target `test`)
	@bash containers/stack.sh test

check-containers: ## Static checks: every compose file combination, every Dockerfile linted
	@bash containers/check.sh

smoke-containers: ## Build the images and smoke-test the stack with podman (SKIPPED when podman cannot run)
	@bash containers/smoke-test.sh
