PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
RUNTIME_STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.installed-docs

.PHONY: demo test test-deep lint bench golden provider-docs architecture docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(STAMP) $(RUNTIME_STAMP)

# toolgen and its run-time dependencies only: what `toolgen build` and the generated package need
$(RUNTIME_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUNTIME_STAMP)

$(DOCS_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

## demo: build the example design into gen/ and run the example application
demo: $(RUNTIME_STAMP)
	$(BIN)/toolgen build examples/design -o gen/
	$(BIN)/python examples/app.py

## test: lint of toolgen's own code, then the whole suite (unit, property, golden, end-to-end;
## the suite also runs ruff and mypy --strict on generated packages)
test: $(STAMP)
	$(BIN)/ruff check toolgen tests bench examples
	$(BIN)/ruff format --check toolgen tests bench examples
	$(BIN)/mypy toolgen
	$(BIN)/basedpyright --pythonpath $(BIN)/python
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q -n auto

## test-deep: the scheduled larger run of the property tests: ten times the examples, random
## (not derandomized), each test allowed an hour; what fails is written into
## tests/hypothesis-examples, which every run (CI's too) replays first: commit it
test-deep: $(STAMP)
	TOOLGEN_DEEP=1 TOOLGEN_EXAMPLES_SCALE=10 TOOLGEN_FUZZ_EXAMPLES=200 \
		$(BIN)/python -m pytest -q -n auto --timeout=3600

## lint: ruff (check and format), mypy and pyright over toolgen's own code, and the layers contract (import-linter)
lint: $(STAMP)
	$(BIN)/ruff check toolgen tests bench examples
	$(BIN)/ruff format --check toolgen tests bench examples
	$(BIN)/mypy toolgen
	$(BIN)/basedpyright --pythonpath $(BIN)/python
	$(BIN)/lint-imports

## bench: benchmarks against peers; results go to bench/RESULTS.md
bench: $(STAMP)
	$(BIN)/python -m bench

## golden: regenerate the reviewed golden files under tests/cases/*/expected
golden: $(STAMP)
	$(BIN)/python -m tests.golden

## provider-docs: rewrite the README's provider table and docs/providers.md from the profiles
provider-docs: $(STAMP)
	$(BIN)/python -m toolgen.providers.table README.md docs/providers.md

## architecture: rewrite docs/architecture.md from the layers contract of pyproject.toml and the
## docstrings of toolgen's modules (tests/test_architecture.py fails while it is stale)
architecture: $(STAMP)
	$(BIN)/python -m tests.architecture

## docs: build the reference in docs/ as a site into site/ (mkdocs-material, works offline)
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) gen dist build site
