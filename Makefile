# Two commands for a newcomer: `make run` and `make test`. Each creates .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
SERVER_STAMP := $(VENV)/.installed-web

.PHONY: run test lint typecheck jscheck unit bench clean i18n

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,web,webtest,rl,dist,tui,multi]"
	touch $(STAMP)

# `make run` installs only what the server needs; `make test` adds the test and research extras.
$(SERVER_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[web]"
	touch $(SERVER_STAMP)

## run: the game server and browser UI on http://127.0.0.1:8000 (all seven games, lobby, bots)
run: $(SERVER_STAMP)
	@echo "cardplay: open http://127.0.0.1:8000 in a browser (Ctrl-C stops the server)"
	$(BIN)/cardplay serve --host 127.0.0.1 --port 8000

## test: lint, type-check (Python and the browser's scripts) and the whole test suite
test: lint typecheck jscheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# The browser's scripts: TypeScript's checker over the plain JavaScript, and ESLint (npm, Node 18+).
node_modules/.installed: package.json package-lock.json
	npm ci --silent --no-audit --no-fund
	touch node_modules/.installed

jscheck: node_modules/.installed
	npm run --silent check

unit: $(STAMP)
	$(BIN)/pytest -n 2 -p no:cacheprovider

## i18n: bring the catalogues (src/cardplay/locale/*.po) up to date, compile them and check
## every language (a missing, empty or mismatched translation is named); docs/i18n.md
i18n: $(STAMP)
	$(BIN)/python -m cardplay.catalogues extract
	$(BIN)/python -m cardplay.catalogues compile
	$(BIN)/python -m cardplay.catalogues check

## bench: playout speed of every game (figures only, no pass/fail)
bench: $(STAMP)
	$(BIN)/python benchmarks/playouts.py
	$(BIN)/python benchmarks/adapters.py

clean:
	rm -rf $(VENV) node_modules build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
