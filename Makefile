# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Debian's python3.11 is built with PGO and LTO and runs the engine about a third faster than a
# plain source build; use it when the machine has it.
PYTHON ?= $(firstword $(wildcard /usr/bin/python3.11) python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

WEB := src/truco/web

.PHONY: run test bench web clean run-cluster bench-server

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installing compiles the engine's hot path with mypyc (setup.py), so it is redone whenever one
# of those modules changes; TRUCO_PURE_PYTHON=1 skips the compiler.
COMPILED := $(addprefix src/truco/,legal.py hand.py argentino.py pata_de_gallo.py pica_pica.py destantado.py paulista.py rooms.py engine.py tricks.py envido.py view.py)

$(STAMP): $(BIN)/python pyproject.toml constraints.txt setup.py $(COMPILED)
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test,bench,research]'
	touch $(STAMP)

# The browser client (Vite + TypeScript); node is only needed to build it.
$(WEB)/node_modules/.package-lock.json: $(WEB)/package.json $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund

# The build (dist/, its index.html written last by every build) is redone only when one of the
# client's sources is newer: `make run` then starts in about a second.
WEB_SOURCES := $(shell find $(WEB)/src -type f) \
	$(addprefix $(WEB)/,index.html package.json package-lock.json tsconfig.json vite.config.ts precompress.mjs)

$(WEB)/dist/index.html: $(WEB)/node_modules/.package-lock.json $(WEB_SOURCES)
	cd $(WEB) && npm run build
	touch $@

web: $(WEB)/dist/index.html

# The wire's constants for the browser client ($(WEB)/src/generated.ts, committed), written from
# the Python codec (truco.protocol); run after changing them (a test fails when it is stale).
.PHONY: generated
generated: $(STAMP)
	$(BIN)/python -m truco.protocol_ts

# The game server on http://127.0.0.1:8000 with SQLite (truco.db); `truco play` is the terminal.
run: $(STAMP) web
	$(BIN)/truco serve --host 127.0.0.1 --port 8000

# The lints first (seconds), then the three long parts at once: mypy, the web client's tests and
# pytest on TEST_WORKERS processes (pytest-xdist; each worker starts its own servers, PostgreSQL,
# Redis and Chromium). -O prints each part's output whole when it ends, so the logs do not
# interleave; any part failing fails `make test`. `pytest tests/test_x.py` alone runs in one
# process (no workers to start); `make test TEST_WORKERS=0` runs the whole suite that way.
TEST_WORKERS ?= 2
test: $(STAMP) web
	$(BIN)/ruff check src tests tools
	$(BIN)/ruff format --check src tests tools
	$(MAKE) --no-print-directory -j3 -Otarget test-mypy test-web test-pytest

.PHONY: test-mypy test-web test-pytest
test-mypy: $(STAMP)
	$(BIN)/mypy
test-web: $(WEB)/node_modules/.package-lock.json
	cd $(WEB) && npm test
test-pytest: $(STAMP)
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup

bench: $(STAMP)
	$(BIN)/truco bench

# PostgreSQL, Redis, two game servers and nginx on 127.0.0.1 (docs/operations.md); open
# http://127.0.0.1:8000. Needs the Debian packages postgresql, redis-server and nginx-light.
run-cluster: $(STAMP) web
	$(BIN)/python -m tools.localcluster --servers 2 --port 8000

# The game server under load (docs/operations.md): BENCH_TABLES tables at once for
# BENCH_SECONDS, against one process (SQLite) and against two behind Redis (PostgreSQL, nginx).
# Players think BENCH_THINK seconds on average (a person's pace; 1.0 is a fast, heavy load).
BENCH_TABLES ?= 500
BENCH_SECONDS ?= 30
BENCH_THINK ?= 3.0
# The third run plays rated tables: every person a player who claimed a name (docs/players.md).
bench-server: $(STAMP)
	$(BIN)/python -m tools.loadtest --tables $(BENCH_TABLES) --seconds $(BENCH_SECONDS) \
		--think $(BENCH_THINK) --processes 1
	$(BIN)/python -m tools.loadtest --tables $(BENCH_TABLES) --seconds $(BENCH_SECONDS) \
		--think $(BENCH_THINK) --processes 2
	$(BIN)/python -m tools.loadtest --tables $(BENCH_TABLES) --seconds $(BENCH_SECONDS) \
		--think $(BENCH_THINK) --processes 1 --rated

# Bot strength and decision latency (docs/bots.md): duplicate matches on all cores; a few
# hours on two busy cores. BOTS_MATCHES scales the main expert run. The last row times experto
# in every mode on one core and fails when a mode is over its budget (p50 50 ms, p99 250 ms).
BOTS_MATCHES ?= 1000
.PHONY: bench-bots
bench-bots: $(STAMP)
	$(BIN)/truco arena simple random --matches 1000 --seed 2000
	$(BIN)/truco arena expert simple --matches $(BOTS_MATCHES) --seed 1000
	$(BIN)/truco arena expert always-quiero --matches 400 --seed 3000
	$(BIN)/truco arena expert always-raise --matches 400 --seed 4000
	$(BIN)/truco arena expert never-bluff --matches 400 --seed 5000
	$(BIN)/truco arena 'expert*1' never-bluff --matches 400 --seed 5000
	$(BIN)/truco arena expert ventajero --matches 400 --seed 40000
	$(BIN)/truco arena expert-blind ventajero --matches 400 --seed 40000
	$(BIN)/truco arena expert-blind simple --matches 400 --seed 1000
	$(BIN)/truco arena expert simple --players 4 --matches 200 --seed 6000
	$(BIN)/truco arena expert simple --matches 200 --jobs 1 --seed 10000
	$(BIN)/truco arena expert simple --variant pata_de_gallo --matches 360 --seed 20000
	$(BIN)/truco arena expert simple --variant destantado --matches 360 --seed 21000
	$(BIN)/truco arena expert simple --variant pica_pica --matches 360 --seed 22000
	$(BIN)/truco arena normal facil --matches 400 --seed 30000
	$(BIN)/truco arena normal facil --matches 400 --seed 34000
	$(BIN)/truco arena simple facil:Tito --matches 400 --seed 34000
	$(BIN)/truco arena simple facil:Chiche --matches 400 --seed 34000
	$(BIN)/truco arena simple facil:Pocho --matches 400 --seed 34000
	$(BIN)/truco arena normal facil --players 4 --matches 400 --seed 36000
	$(BIN)/truco arena facil random --matches 400 --seed 35000
	$(BIN)/truco arena dificil simple --matches 400 --seed 31000
	$(BIN)/truco arena expert dificil --matches 400 --seed 32000
	$(BIN)/truco arena expert-fast-tell simple --matches 400 --seed 31000
	$(BIN)/truco arena dificil:Fito simple --matches 400 --seed 31000
	$(BIN)/truco arena expert dificil:Fito --matches 200 --seed 32000
	$(BIN)/truco arena dificil simple --variant paulista --matches 400 --seed 5
	$(BIN)/truco arena dificil normal --players 4 --matches 400 --seed 41000
	$(BIN)/truco arena dificil normal --players 6 --matches 400 --seed 42000
	$(BIN)/truco arena experto dificil --players 4 --matches 200 --seed 43000
	$(BIN)/truco arena experto openspiel:ismcts:100 --matches 100 --seed 50000 --jobs 1 --cpu-clock
	$(BIN)/truco arena experto openspiel:ismcts:400 --matches 40 --seed 52000 --jobs 1 --cpu-clock
	$(BIN)/truco arena experto dificil --players 6 --matches 200 --seed 44000
	$(BIN)/truco arena expert-plain-rollouts expert-sin-senas --players 4 --matches 400 --seed 40000
	$(BIN)/truco arena expert-plain-rollouts expert-sin-senas --players 6 --matches 400 --seed 41000
	$(BIN)/truco arena expert expert-sin-senas --players 4 --matches 400 --seed 40000
	$(BIN)/truco arena expert expert-sin-senas --players 6 --matches 400 --seed 41000
	$(BIN)/truco arena simple simple-sin-senas --players 4 --matches 2000 --seed 44000
	$(BIN)/truco arena expert expert-pimc --matches 400 --seed 7000 --cpu-clock
	$(BIN)/truco arena expert expert-pimc --matches 400 --seed 7001 --cpu-clock
	$(BIN)/truco arena expert expert-pimc --players 4 --matches 40 --seed 6100 --jobs 1 --cpu-clock
	$(BIN)/truco arena expert expert-pimc --players 6 --matches 20 --seed 6200 --jobs 1 --cpu-clock
	$(BIN)/truco arena simple simple-sin-senas --players 6 --matches 2000 --seed 44000
	$(BIN)/truco arena expert-plain-rollouts simple --players 4 --matches 400 --seed 42000
	$(BIN)/truco arena expert-plain-rollouts simple --players 6 --matches 400 --seed 43000
	$(BIN)/truco arena expert simple --players 4 --matches 400 --seed 42000
	$(BIN)/truco arena expert simple --players 6 --matches 400 --seed 43000
	$(BIN)/truco arena 'expert*2' 'expert*1' --matches 400 --seed 40000 --cpu-clock
	$(BIN)/truco arena 'expert*4' 'expert*1' --matches 400 --seed 40000 --cpu-clock
	$(BIN)/truco arena 'expert*8' 'expert*1' --matches 400 --seed 40000 --cpu-clock
	$(BIN)/truco arena dificil normal --matches 1000 --seed 30000 --jobs 1
	$(BIN)/truco arena normal facil --matches 1000 --seed 30000 --jobs 1
	for y in random simple always-quiero always-raise never-bluff ventajero; do \
	  for l in facil normal dificil; do $(BIN)/truco arena $$l $$y --matches 400 --seed 31000 --jobs 1; done; \
	done
	$(BIN)/truco arena expert-blueprint expert-pimc --matches 200 --seed 1 --jobs 1 --cpu-clock
	$(BIN)/truco arena expert-blueprint simple --matches 200 --seed 1000 --jobs 1 --cpu-clock
	$(BIN)/truco arena expert-blueprint blueprint --matches 100 --seed 32000 --jobs 1 --cpu-clock
	$(BIN)/truco arena explotador blueprint --matches 100 --seed 50000 --jobs 1 --cpu-clock
	for y in always-quiero always-raise never-bluff ventajero explotador; do \
	  $(BIN)/truco arena $$y expert-blueprint --matches 100 --seed 3000 --jobs 1 --cpu-clock; \
	done
	for y in always-quiero always-raise never-bluff ventajero explotador; do \
	  $(BIN)/truco arena $$y expert --matches 40 --seed 3000 --jobs 1 --cpu-clock; \
	done
	$(BIN)/truco explotabilidad uniforme src/truco/bots/blueprint/data/standard.txt.gz --deals 200 --held-out 200 --seed 1
	$(BIN)/truco bench --expert-latency --matches 24

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache \
		src/truco/*.so \
		$(WEB)/node_modules $(WEB)/dist
