"""What several test files share: paths and readers of the book (book.py), throw-away books
built as a shell builds them (small_books.py), independent reference computations
(references.py). pytest's fixtures and hooks are in tests/conftest.py; the browser's helpers,
which `make bench` uses too, in tools/browser.py."""
