# The two commands a newcomer needs: `make test` and (later) `make serve`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BUILT := $(VENV)/.compiled
# The modules mypyc compiles, as listed in pyproject.toml ([tool.pokerroom] compiled).
COMPILED := $(shell sed -n '/^compiled = \[/,/^\]/p' pyproject.toml | grep -o 'src/[^"]*')

.PHONY: test test-all lint lock bench serve clean chromium nginx node

# The lint and the compile each keep one core busy for about 40 s: side by side on two.
MAKEFLAGS += --jobs=2

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Every package, the build backend included, comes from requirements.lock (exact versions
# and hashes), so a clone builds the same environment on any day; `make lock` refreshes
# it. The project itself is installed uncompiled; the next rule compiles in place.
$(STAMP): requirements.lock pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements.lock
	POKERROOM_PURE=1 $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Re-resolves pyproject.toml's ranges to today's newest releases, on purpose. Commit the
# result once `make test` passes with it.
lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml --extra dev --generate-hashes --universal \
	  --python-version 3.11 --upgrade --quiet -o requirements.lock
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements.lock

# Rebuilt whenever a compiled module changes, so tests never run a stale extension.
$(BUILT): $(COMPILED) setup.py pyproject.toml | $(STAMP)
	@echo "compiling the rules core with mypyc (about 30 s)"
	find src -name '*.so' -delete  # a module taken off the list leaves no extension behind
	$(BIN)/python setup.py --quiet build_ext --inplace > $(VENV)/compile.log 2>&1 || { cat $(VENV)/compile.log; exit 1; }
	touch src/*__mypyc.*.so $(BUILT)  # built from the sources as they are now (tests check)

lint: $(STAMP) node_modules/.installed
	$(BIN)/ruff check setup.py src tests benchmarks
	$(BIN)/ruff format --check setup.py src tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo  # the layer order and the I/O-free core: pyproject.toml [tool.importlinter]
	node_modules/.bin/tsc -p tsconfig.json  # the browser client's JSDoc types (tsconfig.json); it emits nothing

# TypeScript, only to check the client (the page is served as written): the version and its
# hash pinned by package-lock.json, installed by `npm ci` into node_modules.
node_modules/.installed: package.json package-lock.json | node
	npm ci --no-audit --no-fund
	touch $@

# Debian packages the tests drive, installed when missing (never a downloaded build):
# node and npm for the client's type check (`make lint`); chromium for the browser tests; nginx, openssl and curl for tests/cli/test_deploy_nginx.py
# (docs/deploy.md's balancer: the package's own service is not started, the test runs one).
# make runs two jobs at once (above): an install waits for the other's dpkg lock.
APT_WAIT := -o DPkg::Lock::Timeout=600
define apt_install
	@test -x $(1) || { echo "installing Debian's $(2) for the tests"; \
	  sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$sudo apt-get $(APT_WAIT) install -y $(2) || { $$sudo apt-get $(APT_WAIT) update && $$sudo apt-get $(APT_WAIT) install -y $(2); }; }
endef

chromium:
	$(call apt_install,/usr/bin/chromium,chromium)

node:
	$(call apt_install,/usr/bin/node,nodejs)
	$(call apt_install,/usr/bin/npm,npm)

nginx:
	$(call apt_install,/usr/sbin/nginx,nginx)
	$(call apt_install,/usr/bin/openssl,openssl)
	$(call apt_install,/usr/bin/curl,curl)

# Three processes on two cores, each test file on one (a file's tests share its Redis
# database and fixtures): most tests wait on sockets, timers and other processes, and with
# two the cores stood half idle. pytest-xdist hands out the files with the most tests first
# (its --loadscope-reorder): the single-test files come last, and the workers end within
# half a minute of each other (measured). The slowest are named; the suite has 30 minutes at most.
test: lint chromium nginx $(BUILT)
	$(BIN)/pytest -m "not slow" -q -n 3 --dist loadfile --durations=25

test-all: lint chromium nginx $(BUILT)
	$(BIN)/pytest -q

# Repeating sit & gos of each game: no-limit and fixed-limit hold'em, pot-limit Omaha and Omaha Hi-Lo.
serve: $(BUILT)
	$(BIN)/pokerroom serve --sit-and-go sng6,sng6_limit,sng6_plo,sng6_plo8,sng6_pko --schedule demo

bench: $(BUILT)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) node_modules build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find src -name '*.so' -delete
