# The two commands of the README:
#   make run    set up (virtualenv + dependencies, database migrations) and run the bot
#   make test   set up and run the whole test suite (PostgreSQL too when
#               ARBITRO_TEST_POSTGRES_URL is set; the report's first and last lines say which)
# For developers: make test-fast (rules + services, no bot process), make lint, make typecheck,
# make sandbox.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
# Some shells and containers export PYTHONDONTWRITEBYTECODE=1: every process would then
# compile every module from source, every time (each pytest worker re-compiles and
# assertion-rewrites the whole suite, ~5 s; each bot process started by the end-to-end tests
# compiles bot/ and cogs/ again).  Bytecode goes to __pycache__/, which git ignores.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-fast sandbox lint fmt typecheck bench lock hooks

# Installs exactly what requirements.lock pins (every package, with its hashes; setuptools too,
# the build backend), then Árbitro itself as an editable package without touching those pins.
$(STAMP): pyproject.toml requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Árbitro needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

# -n auto: one worker per core (pytest-xdist); --dist loadgroup keeps the tests that share a
# bot process or a module-scoped fixture on one worker (tests/conftest.py), so each worker
# starts them once.  A plain `python -m pytest …` stays serial, for debugging.
XDIST := -n auto --dist loadgroup

test: $(STAMP)
	$(PY) -m pytest $(XDIST)

# The pure rules and the services on real databases, without starting any bot (under a
# minute); the statistical tests marked slow run in make test only.
test-fast: $(STAMP)
	$(PY) -m pytest tests/rules tests/bot -q -m "not slow" $(XDIST)

sandbox: $(STAMP)
	$(PY) -m bot sandbox

lint: $(STAMP)
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

# What `make lint` asks for, done: imports sorted and the fixable checks fixed, then formatted.
fmt: $(STAMP)
	$(VENV)/bin/ruff check --fix . && $(VENV)/bin/ruff format .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# The benchmarks compare against peers run in the same run: d20 1.1.2 comes from the bench extra.
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[dev,postgres,bench]"
	@touch $(BENCH_STAMP)

# Every command players use during play against a bare discord.py bot through the stand-in, at
# 1, 20 and 100 members at once, on SQLite and (with ARBITRO_TEST_POSTGRES_URL) PostgreSQL, then
# start-to-READY and memory with 1 and 1,000 servers (issue 26). A part of it:
#   make bench BENCH_ARGS="--kinds check,attack --levels 100 --only floor --only sqlite"
# On a shared machine run it under the suite lock: flock /tmp/arbitro-suite.lock make bench
BENCH_ARGS ?=
bench: $(BENCH_STAMP)
	$(PY) benchmarks/dice_bench.py
	$(PY) benchmarks/dice_limits_bench.py
	$(PY) benchmarks/command_load_bench.py $(BENCH_ARGS)
	$(PY) benchmarks/command_load_bench.py --startup

# Tools that are not part of Árbitro's environment live in a venv of their own (.venv/tools),
# pinned here: pip-tools for `make lock`, pre-commit for `make hooks`.
TOOLS := $(VENV)/tools
TOOL_PINS := pip-tools==7.7.0 pre-commit==4.7.0
TOOLS_STAMP := $(TOOLS)/.installed-$(subst $() ,-,$(TOOL_PINS))

$(TOOLS_STAMP):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet $(TOOL_PINS)
	@touch $(TOOLS_STAMP)

# requirements.lock again from pyproject.toml (after a dependency changed there), with the
# hashes of every file the index has for each version: the pins already there are kept and a
# new dependency gets the newest version allowed; `make lock LOCK_FLAGS=--upgrade` moves
# every pin to the newest pyproject.toml allows (read the diff).
LOCK_FLAGS ?=

lock: $(TOOLS_STAMP)
	CUSTOM_COMPILE_COMMAND="make lock" $(TOOLS)/bin/pip-compile --quiet $(LOCK_FLAGS) \
	  --extra dev --extra postgres --all-build-deps --allow-unsafe --generate-hashes \
	  --strip-extras --no-emit-index-url --no-emit-find-links \
	  --output-file requirements.lock pyproject.toml

# The checks of .pre-commit-config.yaml before every commit in this clone.  Not in a linked
# worktree (`git worktree add`): its hooks are those of every worktree of the repository, some
# of which may predate the configuration; there, run `$(TOOLS)/bin/pre-commit run` by hand.
hooks: $(STAMP) $(TOOLS_STAMP)
	@test "$$(git rev-parse --git-dir)" = "$$(git rev-parse --git-common-dir)" || { \
	  echo "make hooks: a linked worktree shares its hooks; run $(TOOLS)/bin/pre-commit run"; exit 1; }
	$(TOOLS)/bin/pre-commit install
