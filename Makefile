# The two commands the README leads with: `make serve` and `make test`.
# Both set everything up on first run (scripts/setup.sh is idempotent and fast when done).
PY := .venv/bin/python
HOST ?= 127.0.0.1:8000
# mkdocs-material prints a banner about MkDocs 2 on every start; our markup already lives in
# Markdown extensions that its successor runs unchanged (see README), so keep output quiet.
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve build dist test lint format bench clean

setup:
	@bash scripts/setup.sh

serve: setup
	$(PY) -m mkdocs serve -a $(HOST)

build: setup
	$(PY) -m mkdocs build --strict

# The wheel users install (Pyodide and the start-up snapshot inside) -> dist/.
dist: setup
	$(PY) scripts/make_dist.py

# Static checks: ruff (lint, Google docstrings and format) over every Python file, mypy, tsc --strict
# for the browser code (JSDoc types, no build step; page, engine worker and offline service worker
# see different globals), Biome (lint and format) over the browser code's JS and CSS (biome.jsonc).
lint:
	@bash scripts/setup.sh --browser
	$(PY) -m ruff check rollbook tests scripts setup.py
	$(PY) -m ruff format --check rollbook tests scripts setup.py
	$(PY) -m mypy
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.worker.json
	node_modules/.bin/tsc -p tsconfig.sw.json
	node_modules/.bin/biome check

# Rewrite every file in the formats lint checks (ruff for Python, Biome for JS and CSS).
format: setup
	$(PY) -m ruff format rollbook tests scripts setup.py
	node_modules/.bin/biome format --write

# Coverage is reported (lines of rollbook/ the suite never ran), not enforced.
test: lint
	$(PY) -m pytest -n 2 -p no:cacheprovider --cov --cov-report=term

bench: setup
	$(PY) -m tests.bench

clean:
	rm -rf site dist .venv node_modules .cache
