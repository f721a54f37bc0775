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
# The print edition: its name is the LaTeX target in _config.yml (latex: latex_documents).
PDF_NAME := $(shell sed -n 's/^ *targetname: *\(.*\)[.]tex *$$/\1/p' _config.yml)
PDF    := _build/pdf/$(PDF_NAME).pdf
# present while `make test` builds the print edition beside the site's tests: it holds the PID
# of make test's shell; the tests that read the PDF wait for it to go (tests/conftest.py)
PDF_PENDING := _build/pdf.pending
# Debian packages `make pdf` needs (.ci/run installs them when xelatex, latexmk, the fonts
# or poppler-utils are missing)
PDF_DEBS := texlive-xetex texlive-latex-extra texlive-fonts-recommended \
  texlive-lang-chinese latexmk fonts-freefont-otf fonts-dejavu-core poppler-utils
PORT   ?= 8000
# pytest's selection for `make check`: everything that needs neither a build nor the built
# site, nor renders every figure
FAST   := not build and not site and not browser and not render and not pdf and not lab
# what `make test` runs while the book builds: all but the site, browser, figure renders, PDF
# and JupyterLab (installed after the build: see `test`)
BESIDE_BUILD := not site and not browser and not render and not pdf and not lab
PYTEST_PARALLEL := -n 2 --dist loadfile --no-loadscope-reorder
# the files that hold `timing` tests: the last, quiet pass collects only these (the others
# would cost it seconds of imports)
TIMED  := $(shell grep -l 'mark.timing' tests/test_*.py)
# `make lock UPGRADE=--upgrade` (or `UPGRADE="--upgrade-package numpy"`) to move pins on purpose
UPGRADE ?=
# Python may cache compiled code (where the environment says otherwise, as on the book's build
# machine, every process of `make test` compiled posenc, the build extensions and the tests
# again: each of about 60 kernels, builds and test processes, 0.3 s to import posenc from
# source; each pytest process 4-5 s to collect, pytest's rewritten test modules included).
# The caches are __pycache__ folders, which git, the wheel and the tests' small books ignore.
unexport PYTHONDONTWRITEBYTECODE
# One thread per process for NumPy's and SciPy's OpenBLAS: the book executes two chapters at a
# time and `make test` runs two test processes beside them, on a machine with two cores, so a
# matrix product that starts a thread per core competes with the other processes, and waits for
# them. Two processes each multiplying 400 x 400 matrices here: 0.21 s with OpenBLAS's threads,
# 0.065 s without (0.06 s for one process alone, either way); three chapters executed at once
# took 15 % less CPU in all. For the targets that run processes side by side (not `make lab`
# or `make bench`); OPENBLAS_NUM_THREADS=4 in the environment sets another count.
book book-en book-zh pdf test check figures: export OPENBLAS_NUM_THREADS ?= 1

.DEFAULT_GOAL := help
.PHONY: help book book-en book-zh translations pdf test check lint figures bench lab notebooks serve clean lock vendor

help:
	@echo "Sinusoidal Position Encoding, Derived (the table is in CONTRIBUTING.md)"
	@sed -n '/^## Make targets/,/^## /p' CONTRIBUTING.md \
	  | awk -F' *[|] *' '/^[|] `make/ {gsub(/`/, ""); printf "  %-16s %s\n", $$2, $$3}'

# The virtual environment, exactly as pinned. Bootstrap: the interpreter's own pip installs uv
# (its version pinned in requirements.txt) into the venv; uv then makes the venv match
# requirements.txt and requirements-nodeps.txt exactly (`uv pip sync` installs no unlisted
# dependency, so the no-deps file needs no flag) and installs posenc editable (a library change
# is seen at once). Redone when requirements.txt, requirements-nodeps.txt or pyproject.toml change.
# uv writes no bytecode: tools/precompile.py then compiles what the build and the tests import,
# once, so that the first processes of `make test` (the build, its two kernels and two test
# processes start at once) do not each compile NumPy, SciPy, SymPy and Matplotlib. (uv's
# --compile-bytecode compiled the whole venv instead: 22 s on both cores, against 6 s.)
$(STAMP): requirements.txt requirements-nodeps.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	test -x $(UV) || $(PY) -m pip install --quiet --disable-pip-version-check \
	  "$$(grep -m1 '^uv==' requirements.txt)"
	$(UV) pip sync --quiet --python $(PY) requirements.txt requirements-nodeps.txt
	$(UV) pip install --quiet --python $(PY) --no-deps --no-build-isolation -e .
	$(PY) tools/precompile.py
	touch $@

# Both editions: the English site in _build/html, then the Chinese one in _build/html/zh
# (tools/translations.py: the same chapters with the catalogues of locale/zh_CN, reusing the
# English build's execution, so nothing executes twice; strict too, and an untranslated message
# fails it).
book: $(STAMP)
	@$(MAKE) --no-print-directory book-en
	@$(MAKE) --no-print-directory book-zh
	@echo "make book: open $(HTML)/index.html (中文版: $(HTML)/zh/index.html), or run 'make serve'"

book-en: $(STAMP)
	@# After a failed strict build Sphinx's saved environment could let a rebuild pass without
	@# re-reading the failing chapter, so a failure discards it.
	$(BIN)/jupyter-book build . --builder html -W -n --keep-going \
	  || { rm -rf _build/.doctrees; echo "make book: the strict build failed (see above)"; exit 1; }

book-zh: $(STAMP)
	$(PY) tools/translations.py build \
	  || { echo "make book: the strict build of the Chinese edition failed (see above)"; exit 1; }

# After an edit of the English: new messages into the catalogues of locale/zh_CN (untranslated),
# changed ones marked fuzzy; the Chinese build fails until they are translated
# (`python tools/translations.py export|import PAGE`, or any PO editor).
translations: $(STAMP)
	$(PY) tools/translations.py update
	$(PY) tools/translations.py check

# The print edition, from the same chapters and the same execution cache as `make book` (after
# `make book` nothing executes again): Sphinx's LaTeX writer (strict, as the site), then XeLaTeX
# through latexmk. The PDF lands in _build/pdf/, and beside the site's root when there is a
# site (the landing page links it there; tools/print_ext.py copies it on later HTML builds).
pdf: $(STAMP)
	@for tool in xelatex latexmk pdffonts; do command -v $$tool >/dev/null || { \
	  echo "make pdf: $$tool is missing; install Debian's $(PDF_DEBS)"; \
	  echo "  (bash .ci/run does, before make test)"; exit 1; }; done
	@# a fresh LaTeX folder: latexmk would otherwise trust the auxiliary files of an older run
	@start=$$(date +%s); rm -rf _build/latex; \
	$(BIN)/jupyter-book build . --builder latex -W -n --keep-going \
	  || { rm -rf _build/.doctrees; echo "make pdf: the strict LaTeX build failed (see above)"; exit 1; }; \
	$(MAKE) --no-print-directory -C _build/latex all-pdf LATEXMKOPTS=-silent > _build/latex/xelatex.log 2>&1 \
	  || { tail -40 _build/latex/xelatex.log; tail -40 _build/latex/$(PDF_NAME).log; \
	       echo "make pdf: XeLaTeX failed (_build/latex/$(PDF_NAME).log)"; exit 1; }; \
	mkdir -p _build/pdf && cp _build/latex/$(PDF_NAME).pdf $(PDF); \
	if [ -d $(HTML) ]; then cp $(PDF) $(HTML)/; fi; \
	echo "make pdf: $(PDF), $$(pdfinfo $(PDF) | awk '/^Pages/ {print $$2}') pages, built in $$(( $$(date +%s) - start )) s"

# Lint runs first (seconds); a finding fails the target only at the end, after every test
# has run. Both editions' strict builds start at once (their logs are printed when they end):
# the English one executes the chapters two at a time, while the Chinese one waits for them
# (tools/book_ext.py, cache_lock), then both read and write their pages, each on one core.
# Meanwhile the tests that need no built site run beside them: library tests and the small
# books of the build and fault tests. When they end, JupyterLab is installed, while the builds
# finish. Once the English edition has built, the print edition (Sphinx's LaTeX, then three
# XeLaTeX runs on one core) is built in the background from the same execution cache (nothing
# executes again); when the Chinese edition is done, the tests of the built site, the PDF, the
# browser and JupyterLab run, with the figure renders, as XeLaTeX finishes (the tests that
# read the PDF wait for it: conftest.py, PDF_PENDING); last and alone, every page of the site
# on a first view (tests/test_pages.py, marker `timing`: how soon MathJax is done must be the
# page's time, not the test suite's).
# pytest runs in two processes (pytest-xdist), one test file per process at a time, longest
# first, so that a file's module fixtures (the figure renders) are computed once
# (tests/conftest.py).
test: $(STAMP)
	@$(MAKE) --no-print-directory lint || { lint=1; echo "make test: lint failed; testing anyway"; }; \
	mkdir -p _build; \
	echo "make test: building both editions (logs in _build/book.log, _build/book-zh.log) and, meanwhile, testing"; \
	{ start=$$(date +%s); $(MAKE) --no-print-directory book-en > _build/book.log 2>&1; built=$$?; \
	  echo "make test: the build took $$(( $$(date +%s) - start )) s" >> _build/book.log; \
	  exit $$built; } & book=$$!; \
	{ start=$$(date +%s); $(MAKE) --no-print-directory book-zh > _build/book-zh.log 2>&1; zh=$$?; \
	  echo "make test: the Chinese edition was done after $$(( $$(date +%s) - start )) s" \
	    "(it waits while the English build executes the chapters)" >> _build/book-zh.log; \
	  exit $$zh; } & zh=$$!; \
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "$(BESIDE_BUILD)"; beside=$$?; \
	$(MAKE) --no-print-directory $(LAB_STAMP) || { wait $$book $$zh; exit 1; }; \
	wait $$book; built=$$?; cat _build/book.log; [ $$built = 0 ] || { wait $$zh; exit $$built; }; \
	echo $$$$ > $(PDF_PENDING); \
	{ $(MAKE) --no-print-directory pdf > _build/pdf.log 2>&1; printed=$$?; rm -f $(PDF_PENDING); \
	  exit $$printed; } & pdf=$$!; \
	wait $$zh; translated=$$?; cat _build/book-zh.log; [ $$translated = 0 ] || { wait $$pdf; exit $$translated; }; \
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "not ($(BESIDE_BUILD)) and not timing"; after=$$?; \
	wait $$pdf; printed=$$?; cat _build/pdf.log; [ $$printed = 0 ] || exit $$printed; \
	$(PY) -m pytest -m timing $(TIMED) && exit $$(( beside || after || $${lint:-0} ))

check: $(STAMP)
	@$(MAKE) --no-print-directory lint || { lint=1; echo "make check: lint failed; testing anyway"; }; \
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "$(FAST)" && exit $${lint:-0}

# ruff with pyproject.toml's settings on the Python sources, then on the chapters' code cells
# (read with jupytext, as JupyterLab reads them; findings point at book/*.md lines).
lint: $(STAMP)
	@status=0; \
	$(BIN)/ruff check src tests bench tools || status=1; \
	$(PY) tools/lint_chapters.py || status=1; \
	exit $$status

figures: $(STAMP)
	$(PY) -m posenc.figures figures

bench: $(STAMP)
	$(PY) bench/run.py --out _build/bench

notebooks: book
	@# every build writes them next to the page sources, where each page's download button points
	mkdir -p $(HTML)/notebooks
	cp $(HTML)/_sources/book/*.ipynb $(HTML)/notebooks/
	@ls $(HTML)/notebooks

# JupyterLab's pins, exactly: requirements-lab.txt already lists every package the lab needs
# (make lock resolved them), so nothing is resolved again here. Resolving again would add what
# make lock left out on purpose (requirements-lab-excludes.txt): a JupyterLab dependency asks for
# rfc3987-syntax, and `uv pip install -r` without --no-deps installed it.
$(LAB_STAMP): $(STAMP) requirements-lab.txt
	$(UV) pip install --quiet --compile-bytecode --no-deps --python $(PY) -r requirements-lab.txt
	@# Open the MyST .md chapters as notebooks (jupytext) on a double click.
	mkdir -p $(VENV)/share/jupyter/lab/settings
	printf '%s\n' '{"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}}}' \
	  > $(VENV)/share/jupyter/lab/settings/overrides.json
	touch $@

lab: $(LAB_STAMP)
	$(BIN)/jupyter lab --ip=127.0.0.1 $$([ "$$(id -u)" = 0 ] && echo --allow-root) book/

serve:
	@test -f $(HTML)/index.html || { echo "no site yet: run 'make book' first"; exit 1; }
	$(PYTHON) -m http.server $(PORT) --bind 127.0.0.1 --directory $(HTML)

clean:
	rm -rf _build figures

# uv's resolver, for the interpreter of .venv; pins already in the output files are kept unless
# a requirement needs another version (UPGRADE=... moves them on purpose).
lock: $(STAMP)
	$(UV) pip compile --quiet --python $(PY) --custom-compile-command "make lock" $(UPGRADE) \
	  requirements.in -o requirements.txt
	$(UV) pip compile --quiet --python $(PY) --custom-compile-command "make lock" $(UPGRADE) \
	  requirements-lab.in -c requirements.txt --excludes requirements-lab-excludes.txt -o requirements-lab.txt

vendor: $(STAMP)
	@# The version is the plotly.js that the pinned plotly package writes figures for; the build
	@# refuses a bundle of another version.
	version=$$($(PY) -c "import plotly.offline; print(plotly.offline.get_plotlyjs_version())") \
	  && tmp=$$(mktemp -d) \
	  && (cd $$tmp && npm pack --silent plotly.js-basic-dist-min@$$version >/dev/null \
	      && tar xzf plotly.js-basic-dist-min-$$version.tgz) \
	  && cp $$tmp/package/plotly-basic.min.js $$tmp/package/LICENSE tools/vendor/plotly.js/ \
	  && rm -rf $$tmp && echo "tools/vendor/plotly.js: plotly.js-basic-dist-min $$version"
