# One entry point for every service: each *-service/ folder is an independent npm package.
SERVICES := $(patsubst %/package.json,%,$(wildcard *-service/package.json))
INSTALLED := $(addsuffix /node_modules/.package-lock.json,$(SERVICES))
NPM := npm --no-audit --no-fund --loglevel=error

.PHONY: help install start test lint format
.DEFAULT_GOAL := help

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

install: ## Install every service's packages exactly as locked (npm ci)
	@for s in $(SERVICES); do echo "== $$s: npm ci"; (cd $$s && $(NPM) ci) || exit 1; done

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

lint: $(INSTALLED) ## Type-check and lint every service
	@failed=""; \
	for s in $(SERVICES); do echo "== $$s: lint"; (cd $$s && $(NPM) run lint) || failed="$$failed $$s"; done; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed"; exit 1; fi

format: $(INSTALLED) ## Rewrite every service's code in the house style
	@for s in $(SERVICES); do (cd $$s && $(NPM) run format); done
