# Odeon: the two set-up commands are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: run test bench lint clean system-deps system-deps-test

# Debian packages (Qt + OpenGL libraries; Xvfb and libode8 for the tests), only when missing.
system-deps:
	@bash scripts/system-deps.sh

system-deps-test:
	@bash scripts/system-deps.sh --test

PACKAGES := $(VENV)/.packages
WARMUP_LOG := $(VENV)/warmup.log
# what `make run` starts once the packages are in (bench/bench_start.py --clone times a probe)
ODEON ?= $(VENV)/bin/odeon

$(PACKAGES): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(PACKAGES)

# Python bytecode of our own sources, written at install and again for the files that
# changed: a start then reads it instead of compiling about 330 modules (0.75 s of a
# 3 s start), also where PYTHONDONTWRITEBYTECODE keeps Python from writing it. A file
# that does not compile is reported when it is imported, with its line, as before.
BYTECODE := $(VENV)/.bytecode
PY_SOURCES := $(shell find engine app -name '*.py' 2>/dev/null)

$(BYTECODE): $(PACKAGES) $(PY_SOURCES)
	-@$(PY) -m compileall -q -j 0 engine app > /dev/null
	@touch $(BYTECODE)

# Installing ends by compiling the engine's kernels once (engine/warmup.py, with its
# progress), so the first world run or test does not wait for numba.
$(STAMP): $(PACKAGES)
	$(PY) -m engine.warmup
	$(PY) -m app.warmup
	touch $(STAMP)

# On a fresh install the app opens at once while the kernels compile in the background
# (progress in $(WARMUP_LOG)); Run starts stepping when they are ready (decision 0026).
# The viewport's two kernels (app/warmup.py, a few seconds) are compiled first, so the
# first paint does not wait for them.
run: system-deps $(PACKAGES) $(BYTECODE)
	@if [ ! -f $(STAMP) ]; then \
	  $(PY) -m app.warmup; \
	  echo "Compiling the physics engine's kernels in the background (a few minutes; progress in $(WARMUP_LOG))."; \
	  setsid sh -c '$(PY) -m engine.warmup > $(WARMUP_LOG) 2>&1 && touch $(STAMP)' < /dev/null > /dev/null 2>&1 & \
	fi
	$(ODEON)

# The app's tests need an X server with OpenGL: Xvfb (installed by system-deps-test)
# unless a display is already there.
GUI_ENV := QT_QPA_PLATFORM=xcb PYOPENGL_PLATFORM=glx

test: system-deps-test $(STAMP) $(BYTECODE)
	@if [ -n "$$DISPLAY" ]; then $(GUI_ENV) $(PY) -m pytest; \
	elif command -v xvfb-run >/dev/null; then \
	  $(GUI_ENV) xvfb-run -a -s "-screen 0 1280x1024x24" $(PY) -m pytest; \
	else echo "make test: the app's tests need Xvfb: apt-get install xvfb xauth libgl1-mesa-dri" >&2; exit 1; fi

bench: $(STAMP)
	$(PY) bench/run_all.py

# ruff; vulture (dead code: settings in pyproject.toml, reasons in vulture_whitelist.py);
# no new `# type: ignore` (no type checker runs yet).
lint: $(STAMP)
	$(VENV)/bin/ruff check engine app tests bench plugins
	$(VENV)/bin/vulture
	$(PY) -m pytest -q -p no:cacheprovider tests/test_type_ignores.py
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache
