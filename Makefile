# Odeon: the two set-up commands are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/odeon

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) bench/run_all.py

lint: $(STAMP)
	$(VENV)/bin/ruff check engine app tests bench plugins

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache
