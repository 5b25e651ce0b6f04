# Two commands on a fresh machine: `make demo` and `make test`.
# Both create (or reuse) the virtual environment in .venv and install what they need.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) examples/gallery.py --out out

# system_check.py prints, in one line, the apt-get command for a missing GL stack (and fails under CI).
test: $(STAMP)
	$(PY) tests/system_check.py
	$(PY) -m pytest -q -n 2

# docs/<isa>.md are generated from the descriptions, semantics docstrings and reference.md prose.
docs: $(STAMP)
	$(PY) -m shaderkit.isa.docs --write docs

bench: $(STAMP)
	$(VENV)/bin/shaderkit bench -m tpp

clean:
	rm -rf out .pytest_cache .hypothesis
