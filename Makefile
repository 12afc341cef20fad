# The same targets CI uses. Run `make venv` once (or use the README's commands).
PY ?= .venv/bin/python

.PHONY: venv check fast test lint interpreter verify-interpreter bench

venv:
	python3 -m venv .venv && .venv/bin/pip install -e '.[dev]'

check:
	$(PY) tools/check.py

fast:
	$(PY) tools/check.py --fast

test:
	$(PY) -m pytest

lint:
	$(PY) -m ruff check runtime server tests bench tools && $(PY) -m ruff format --check runtime server tests bench tools

interpreter:
	python-wasm/build.sh

verify-interpreter:
	$(PY) python-wasm/manifest.py check

bench:
	$(PY) -m bench
