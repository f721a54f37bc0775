# "Sinusoidal Position Encoding, Derived": build, test and reproduce.
# The two commands a reader needs: `make book` and `make test`. `make help` lists the rest; the
# table it prints is CONTRIBUTING.md's "Make targets" (the one place the targets are described).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
UV     := $(BIN)/uv
STAMP  := $(VENV)/.installed
LAB_STAMP := $(VENV)/.installed-lab
HTML   := _build/html
STRICT := -W -n --keep-going
# The print edition: its name is the LaTeX target in _config.yml (latex: latex_documents).
PDF_NAME := $(shell sed -n 's/^ *targetname: *\(.*\)[.]tex *$$/\1/p' _config.yml)
PDF    := _build/pdf/$(PDF_NAME).pdf
# The Chinese edition's (tools/translations.py latex; print_edition.py names it)
PDF_ZH := _build/pdf/$(PDF_NAME)-zh.pdf
# Debian packages `make pdf` needs (.ci/run installs them when they are missing)
PDF_DEBS := texlive-xetex texlive-latex-extra texlive-fonts-recommended \
  texlive-lang-chinese latexmk fonts-freefont-otf fonts-dejavu-core poppler-utils
PORT   ?= 8000
# `make check`: the tests that need neither a build, nor the built site, nor every figure
# rendered (pyproject.toml lists the markers)
FAST   := not build and not site and not browser and not render and not pdf and not lab and not train
# two test processes, one test file at a time each, so that a file's module fixtures (every
# figure rendered, every page in the browser) are computed once
PYTEST := $(PY) -m pytest -n 2 --dist loadfile
# `make lock UPGRADE=--upgrade` (or `UPGRADE="--upgrade-package numpy"`) to move pins on purpose
UPGRADE ?=
# One OpenBLAS thread per process: pytest runs two processes on two cores, and a matrix product
# that starts a thread per core would wait for the other process.
export OPENBLAS_NUM_THREADS ?= 1
# Python's bytecode cache, which pytest also keeps its rewritten test modules in: where the
# environment sets PYTHONDONTWRITEBYTECODE, every process (each test worker, each kernel, each
# build) compiles src/, tools/ and tests/ again. `make check` took 79 s with it and 65 s without.
unexport PYTHONDONTWRITEBYTECODE

.DEFAULT_GOAL := help
.NOTPARALLEL:
.PHONY: help book book-en book-zh wheel translations pdf test check lint figures bench lab \
  notebooks serve clean lock vendor experiments

help:
	@echo "Sinusoidal Position Encoding, Derived (the table is in CONTRIBUTING.md)"
	@sed -n '/^## Make targets/,/^## /p' CONTRIBUTING.md \
	  | awk -F' *[|] *' '/^[|] `make/ {gsub(/`/, ""); n = split($$3, w, " "); line = ""; \
	      name = sprintf("  %-16s", $$2); for (i = 1; i <= n; i++) { \
	        if (length(line) + length(w[i]) > 76) { print name " " line; name = sprintf("%18s", ""); line = "" } \
	        line = line (line ? " " : "") w[i] } print name " " line }'

# The virtual environment, exactly as pinned: the interpreter's pip installs uv (its version
# pinned in requirements.txt), uv makes the venv match the two requirements files exactly and
# installs posenc editable (a library change is seen at once), compiling the bytecode once.
$(STAMP): requirements.txt requirements-nodeps.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	test -x $(UV) || $(PY) -m pip install --quiet --disable-pip-version-check \
	  "$$(grep -m1 '^uv==' requirements.txt)"
	$(UV) pip sync --quiet --compile-bytecode --python $(PY) \
	  requirements.txt requirements-nodeps.txt
	$(UV) pip install --quiet --compile-bytecode --python $(PY) --no-deps \
	  --no-build-isolation -e .
	touch $@

book: book-en book-zh
	@echo "make book: open $(HTML)/index.html (中文版: $(HTML)/zh/index.html), or run 'make serve'"

# A failed strict build discards Sphinx's saved environment: a rebuild could otherwise pass
# without reading the failing page again.
book-en: wheel
	$(BIN)/jupyter-book build . --builder html $(STRICT) \
	  || { rm -rf _build/.doctrees; echo "make book: the strict build failed"; exit 1; }

# The Chinese edition into _build/html/zh, from the same execution cache (tools/translations.py)
book-zh: wheel
	$(PY) tools/translations.py build

# The posenc wheel the download menus offer, built by the standard build tool (a source
# distribution, then the wheel from it), with the pins it was tested with (constraints.txt) and
# JupyterLab's (lab.txt, installed with --no-deps), in both editions
wheel: $(STAMP)
	rm -rf _build/dist $(HTML)/wheel $(HTML)/zh/wheel
	$(UV) build --quiet --python $(PY) --no-build-isolation --out-dir _build/dist .
	mkdir -p $(HTML)/wheel $(HTML)/zh
	cp _build/dist/*.whl $(HTML)/wheel/
	cat requirements.txt requirements-lab.txt > $(HTML)/wheel/constraints.txt
	cp requirements-lab.txt $(HTML)/wheel/lab.txt
	cp -r $(HTML)/wheel $(HTML)/zh/

# After an edit of the English: new messages into locale/zh_CN's catalogues (untranslated),
# changed ones marked fuzzy; the Chinese build fails until they are translated.
translations: $(STAMP)
	$(PY) tools/translations.py update
	$(PY) tools/translations.py check

# The print editions, English and Chinese, from the same chapters and execution cache as
# `make book`: Sphinx's LaTeX writer (strict), then XeLaTeX through latexmk, each in a fresh
# LaTeX folder (latexmk would trust an older run's auxiliary files). A site already built is
# built again, which copies each edition's PDF beside its root and makes its pages link it
# (tools/extensions/print_edition.py).
pdf: $(STAMP)
	@for tool in xelatex latexmk pdffonts; do command -v $$tool >/dev/null || { \
	  echo "make pdf: $$tool is missing; install Debian's $(PDF_DEBS)"; \
	  echo "  (bash .ci/run does, before make test)"; exit 1; }; done
	rm -rf _build/latex
	$(BIN)/jupyter-book build . --builder latex $(STRICT) \
	  || { rm -rf _build/.doctrees; echo "make pdf: the strict LaTeX build failed"; exit 1; }
	$(MAKE) -C _build/latex all-pdf LATEXMKOPTS=-silent > _build/latex/xelatex.log 2>&1 \
	  || { tail -40 _build/latex/$(PDF_NAME).log; echo "make pdf: XeLaTeX failed"; exit 1; }
	mkdir -p _build/pdf && cp _build/latex/$(PDF_NAME).pdf $(PDF)
	rm -rf _build/latex-zh
	$(PY) tools/translations.py latex \
	  || { echo "make pdf: the strict LaTeX build of the Chinese edition failed"; exit 1; }
	$(MAKE) -C _build/latex-zh all-pdf LATEXMKOPTS=-silent > _build/latex-zh/xelatex.log 2>&1 \
	  || { tail -40 _build/latex-zh/$(PDF_NAME)-zh.log; echo "make pdf: XeLaTeX failed (Chinese)"; exit 1; }
	cp _build/latex-zh/$(PDF_NAME)-zh.pdf $(PDF_ZH)
	if [ -f $(HTML)/index.html ]; then $(MAKE) book; fi
	@echo "make pdf: $(PDF), $$(pdfinfo $(PDF) | awk '/^Pages/ {print $$2}') pages"
	@echo "make pdf: $(PDF_ZH), $$(pdfinfo $(PDF_ZH) | awk '/^Pages/ {print $$2}') pages"

# Every test, in order: lint, both editions, the print edition, then pytest in two processes.
test: lint book pdf $(LAB_STAMP)
	$(PYTEST)

check: lint
	$(PYTEST) -m "$(FAST)"

# ruff (settings in pyproject.toml) on the Python sources, then on the chapters' code cells
# (tools/lint_chapters.py: findings point at book/*.md lines).
lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(PY) tools/lint_chapters.py

figures: $(STAMP)
	$(PY) -m posenc.figures figures

# Chapter 15's experiment: trains every run of the grid whose committed record is missing or
# was made from another configuration (python -m posenc.experiments: resumable, a progress bar,
# one worker process per core with XLA's Eigen threads off; an accelerator if JAX finds one).
# The records land in src/posenc/experiments/results/, which the chapter reads: `make book`
# trains nothing.
experiments: $(STAMP)
	$(PY) -m posenc.experiments

bench: $(STAMP)
	$(PY) bench/run.py --out _build/bench

notebooks: book
	mkdir -p $(HTML)/notebooks
	cp $(HTML)/_sources/book/*.ipynb $(HTML)/notebooks/
	@ls $(HTML)/notebooks

# JupyterLab's pins, exactly (--no-deps): make lock already resolved everything it needs and
# left out, on purpose, what requirements-lab-excludes.txt names.
$(LAB_STAMP): $(STAMP) requirements-lab.txt
	$(UV) pip install --quiet --compile-bytecode --no-deps --python $(PY) -r requirements-lab.txt
	touch $@

# JupyterLab on the executed chapters as the site offers them (_build/lab/): their text shows
# the book's numbers and references, which JupyterLab cannot compute from book/*.md (MyST-NB's
# glue and Sphinx's references exist only in the build). Edits belong in book/*.md: the next
# `make lab` copies the notebooks afresh.
lab: $(LAB_STAMP) book-en
	rm -rf _build/lab && mkdir -p _build/lab
	cp $(HTML)/_sources/book/*.ipynb _build/lab/
	$(BIN)/jupyter lab --ip=127.0.0.1 $$([ "$$(id -u)" = 0 ] && echo --allow-root) _build/lab/

serve:
	@test -f $(HTML)/index.html || { echo "no site yet: run 'make book' first"; exit 1; }
	$(PYTHON) -m http.server $(PORT) --bind 127.0.0.1 --directory $(HTML)

clean:
	rm -rf _build figures

# uv's resolver; pins already in the output files stay unless a requirement needs another
# version (UPGRADE=... moves them on purpose).
lock: $(STAMP)
	$(UV) pip compile --quiet --python $(PY) --custom-compile-command "make lock" $(UPGRADE) \
	  requirements.in -o requirements.txt
	$(UV) pip compile --quiet --python $(PY) --custom-compile-command "make lock" $(UPGRADE) \
	  requirements-lab.in -c requirements.txt --excludes requirements-lab-excludes.txt \
	  -o requirements-lab.txt

# Plotly's basic bundle at the plotly.js version the pinned plotly package writes figures for
# (the build refuses another)
vendor: $(STAMP)
	version=$$($(PY) -c "import plotly.offline; print(plotly.offline.get_plotlyjs_version())") \
	  && tmp=$$(mktemp -d) \
	  && (cd $$tmp && npm pack --silent plotly.js-basic-dist-min@$$version >/dev/null \
	      && tar xzf plotly.js-basic-dist-min-$$version.tgz) \
	  && cp $$tmp/package/plotly-basic.min.js $$tmp/package/LICENSE tools/vendor/plotly.js/ \
	  && rm -rf $$tmp && echo "tools/vendor/plotly.js: plotly.js-basic-dist-min $$version"
