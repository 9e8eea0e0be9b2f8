# Two entry points, both doing all of their own set-up on a fresh machine:
#   make demo   the main job: ghbench on the embedded default (no token, no config)
#   make test   lint, type-check and the whole test suite (what CI runs)
VENV    ?= .venv
PYTHON  ?= python3
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest system-deps bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

system-deps:
	bash scripts/install-system-deps

demo: $(STAMP)
	$(BIN)/ghbench demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) system-deps
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
