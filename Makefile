# "Sinusoidal Position Encoding, Derived": build, test and reproduce.
# The two commands a reader needs: `make book` and `make test`. `make help` lists the rest.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
STAMP  := $(VENV)/.installed
LAB_STAMP := $(VENV)/.installed-lab
HTML   := _build/html
PORT   ?= 8000

.DEFAULT_GOAL := help
.PHONY: help book test figures bench lab notebooks serve clean lock vendor

help: ## list the targets
	@echo "Sinusoidal Position Encoding, Derived"
	@awk 'BEGIN {FS = ":.*## "} /^[a-z]+:.*## / {printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# The virtual environment: pinned requirements, then posenc editable (so a library change is
# seen at once); rebuilt when requirements.txt or pyproject.toml change.
$(STAMP): requirements.txt requirements-nodeps.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-nodeps.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

book: $(STAMP) ## build the website strictly into _build/html (creates .venv first if needed)
	@# After a failed strict build Sphinx's saved environment could let a rebuild pass without
	@# re-reading the failing chapter, so a failure discards it.
	$(BIN)/jupyter-book build . --builder html -W -n --keep-going \
	  || { rm -rf _build/.doctrees; echo "make book: the strict build failed (see above)"; exit 1; }
	@echo "make book: open $(HTML)/index.html, or run 'make serve'"

test: book $(LAB_STAMP) ## build the book, then run every test (library, chapters, figures, site, browser)
	@# JupyterLab too: tests/test_routes.py opens a chapter in it, as `make lab` does
	$(PY) -m pytest

figures: $(STAMP) ## write every figure of the book as SVG, PNG and PDF into figures/
	$(PY) -m posenc.figures figures

bench: $(STAMP) ## measure builds, page weight and numerics (_build/bench/bench.md and .json)
	$(PY) bench/run.py --out _build/bench

notebooks: book ## each executed chapter as .ipynb in _build/html/notebooks (pages link their own)
	@# every build writes them next to the page sources, where each page's download button points
	mkdir -p $(HTML)/notebooks
	cp $(HTML)/_sources/book/*.ipynb $(HTML)/notebooks/
	@ls $(HTML)/notebooks

$(LAB_STAMP): $(STAMP) requirements-lab.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-lab.txt
	@# Open the MyST .md chapters as notebooks (jupytext) on a double click.
	mkdir -p $(VENV)/share/jupyter/lab/settings
	printf '%s\n' '{"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}}}' \
	  > $(VENV)/share/jupyter/lab/settings/overrides.json
	touch $@

lab: $(LAB_STAMP) ## open the chapters in JupyterLab (.md files open as notebooks; MyST renders)
	$(BIN)/jupyter lab --ip=127.0.0.1 $$([ "$$(id -u)" = 0 ] && echo --allow-root) book/

serve: ## preview the built site on http://127.0.0.1:8000 (PORT=... to change)
	@test -f $(HTML)/index.html || { echo "no site yet: run 'make book' first"; exit 1; }
	$(PYTHON) -m http.server $(PORT) --bind 127.0.0.1 --directory $(HTML)

clean: ## remove the build, the execution cache and figures/ (keeps .venv)
	rm -rf _build figures

lock: ## re-pin requirements.txt and requirements-lab.txt in a fresh throw-away environment
	rm -rf _build/lock-venv
	$(PYTHON) -m venv _build/lock-venv
	_build/lock-venv/bin/python -m pip install --quiet -r requirements.in
	{ head -n 2 requirements.txt; _build/lock-venv/bin/python -m pip freeze --all | grep -v '^pip=='; } > requirements.txt.new
	_build/lock-venv/bin/python -m pip install --quiet -r requirements-lab.in -c requirements.txt.new
	_build/lock-venv/bin/python -m pip freeze --all | grep -v '^pip==' | sort > _build/lock-all.txt
	{ head -n 2 requirements-lab.txt; grep -v '^#' requirements.txt.new | sort | comm -13 - _build/lock-all.txt; } > requirements-lab.txt.new
	mv requirements.txt.new requirements.txt
	mv requirements-lab.txt.new requirements-lab.txt
	rm -rf _build/lock-venv _build/lock-all.txt

vendor: $(STAMP) ## refresh Plotly's basic bundle in tools/vendor/ from npm (needs npm)
	@# The version is the plotly.js that the pinned plotly package writes figures for; the build
	@# refuses a bundle of another version.
	version=$$($(PY) -c "import plotly.offline; print(plotly.offline.get_plotlyjs_version())") \
	  && tmp=$$(mktemp -d) \
	  && (cd $$tmp && npm pack --silent plotly.js-basic-dist-min@$$version >/dev/null \
	      && tar xzf plotly.js-basic-dist-min-$$version.tgz) \
	  && cp $$tmp/package/plotly-basic.min.js $$tmp/package/LICENSE tools/vendor/plotly.js/ \
	  && rm -rf $$tmp && echo "tools/vendor/plotly.js: plotly.js-basic-dist-min $$version"
