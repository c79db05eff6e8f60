# warledger developer commands.
#   make demo    run the demo (installs the package into .venv first)
#   make extras  install the optional extras (analytics, serve, postgres) into .venv
#   make test    run the test suite (installs dev + postgres extras); PYTEST_ARGS="..." passes through.
#                The PostgreSQL tests run on WARLEDGER_TEST_POSTGRES, or on a throwaway server
#                that .ci/test starts and stops; WARLEDGER_TEST_POSTGRES=skip opts out.
#                It installs Debian's chromium for the viewer's browser tests (.ci/chromium).
#   make lint    ruff + mypy --strict
#   make bench   run the benchmarks
#   make mutation            mutation testing of every module in mutation/targets.py (slow;
#   make mutation MODULE=domain/dice.py    one module)   never part of `make test`
#
# The venv is created once; installs re-run only when pyproject.toml changes
# (stamp files inside .venv). `make clean-venv` forces a fresh one.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
PYTEST_ARGS ?=
# If set, `make test` writes pytest's own exit code there (make itself exits 2 on failure).
PYTEST_RC_FILE ?=

RUN_STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo extras test lint bench mutation venv venv-dev clean-venv

demo: $(RUN_STAMP)
	$(VENV)/bin/warledger demo

# The optional extras (`stats --plot` and Parquet, `serve`, PostgreSQL) into the venv.
extras: $(RUN_STAMP)
	$(PIP) install -q -e '.[analytics,serve,postgres]'

test: $(DEV_STAMP)
	@bash .ci/chromium
	@rc=0; echo "$(PY) -m pytest $(PYTEST_ARGS)"; \
	bash .ci/test $(PY) $(PYTEST_ARGS) || rc=$$?; \
	if [ -n "$(PYTEST_RC_FILE)" ]; then echo $$rc > "$(PYTEST_RC_FILE)"; fi; \
	exit $$rc

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict domain events projections replay warledger

bench: $(DEV_STAMP)
	$(PY) -m bench.run

# One module at a time, one mutant at a time, its own tests only (docs/testing.md).
MODULE ?=
mutation: $(DEV_STAMP)
	$(PY) -m mutation.run $(if $(MODULE),$(MODULE),--all)

venv: $(RUN_STAMP)
venv-dev: $(DEV_STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PIP) install -q -e .
	touch $@

# The dev install is a superset of the plain one, so it refreshes both stamps.
$(DEV_STAMP): pyproject.toml | $(PY)
	$(PIP) install -q -e '.[dev,postgres]'
	touch $(RUN_STAMP) $@

clean-venv:
	rm -rf $(VENV)
