# The two commands a newcomer needs: `make test` and (later) `make serve`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-all lint bench serve clean chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# The browser tests drive Debian's Chromium; install it when it is missing (never a
# downloaded browser).
chromium:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get install -y chromium || { apt-get update && apt-get install -y chromium; }; \
	  else sudo apt-get install -y chromium || { sudo apt-get update && sudo apt-get install -y chromium; }; fi; }

test: lint chromium
	$(BIN)/pytest -m "not slow" -q

test-all: lint chromium
	$(BIN)/pytest -q

serve: $(STAMP)
	$(BIN)/pokerroom serve

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
