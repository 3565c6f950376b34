PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test lint console bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# setuptools tells every editable install of a project with a mapped package folder (data/ ships as
# kibitz_data) that a folder of a package's name could shadow it: information, not a fault, kept quiet
EDITABLE := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet -e

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(EDITABLE) .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(EDITABLE) ".[test]"
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/python -m bot

console: $(VENV)/.installed
	$(BIN)/python -m bot console

# mypy runs beside pytest (its output kept until pytest is done), as the tests spend time waiting;
# pytest keeps compiled modules (PYTHONDONTWRITEBYTECODE, as an image sets it, would have every worker
# and every `python -m bot` the tests start compile the whole project again)
test: $(VENV)/.installed-test
	@$(BIN)/mypy > $(VENV)/mypy.out 2>&1 & mypy=$$!; \
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q; tests=$$?; \
	$(BIN)/ruff check .; lint=$$?; \
	wait $$mypy; typed=$$?; cat $(VENV)/mypy.out; \
	[ $$tests -eq 0 ] && [ $$lint -eq 0 ] && [ $$typed -eq 0 ]

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/render_speed.py
	$(BIN)/python benchmarks/rules_speed.py

clean:
	rm -rf $(VENV) .pytest_cache
