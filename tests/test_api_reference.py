"""The API reference appendix documents every public name, each linking the section that
derives it, and every such link resolves; each name comes from the module the package's table
names, imported at first use."""

from __future__ import annotations

import functools
import importlib
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from support.book import ROOT, built_page

import posenc

PAGE_SOURCE = ROOT / "book" / "appendix-api.md"
DIRECTIVE = re.compile(r"^\.\. auto(?:function|class):: posenc\.(\w+)$", re.MULTILINE)


def test_every_public_name_is_in_the_appendix_once():
    listed = DIRECTIVE.findall(PAGE_SOURCE.read_text(encoding="utf-8"))
    assert sorted(listed) == sorted(set(listed)), "a name is listed twice"
    assert set(listed) == set(posenc.__all__), (
        f"missing from book/appendix-api.md: {sorted(set(posenc.__all__) - set(listed))}; "
        f"listed but not public: {sorted(set(listed) - set(posenc.__all__))}"
    )


def test_each_public_name_comes_from_the_module_the_package_names():
    """posenc/__init__.py imports a module when one of its names is first used (its table
    _MODULES): each name is the one its module defines, a name outside the table is an
    AttributeError, and `import posenc` alone imports none of the modules (nor SciPy)."""
    for module, names in posenc._MODULES.items():
        defined = importlib.import_module(f"posenc.{module}")
        for name in names.split():
            assert getattr(posenc, name) is getattr(defined, name), (module, name)
    with pytest.raises(AttributeError, match="no_such_name"):
        posenc.no_such_name  # noqa: B018
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, posenc; print(*sorted(m for m in sys.modules"
            " if m.startswith(('posenc.', 'scipy'))))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert not imported, f"import posenc imported {len(imported)}: {imported[:8]} …"


@pytest.mark.parametrize("name", posenc.__all__)
def test_every_public_docstring_says_where_it_is_derived(name):
    doc = getattr(posenc, name).__doc__ or ""
    assert re.search(r"Derived\s+in\s+chapter\s+\d+\s+\(:ref:`[\w-]+`\)", doc), (
        f"posenc.{name}'s docstring must say 'Derived in chapter N (:ref:`label`)'"
    )


@pytest.fixture(scope="module")
def api_page(built_site):
    page = built_site / "book" / "appendix-api.html"
    return page, built_page(page)


@functools.cache
def ids_on(page: Path) -> set[str]:
    """The ids of the elements of a built page (found once: many names link one chapter)."""
    return {element["id"] for element in built_page(page).find_all(id=True)}


@pytest.mark.site
def test_every_public_name_is_rendered_with_a_working_derived_in_link(
    api_page, built_site
):
    page, soup = api_page
    problems = []
    for name in posenc.__all__:
        entry = soup.find(id=f"posenc.{name}")
        if entry is None:
            problems.append(f"{name}: no entry on the page")
            continue
        body = entry.find_parent("dl")
        links = [
            a
            for paragraph in body.find_all("p")
            if "Derived in" in paragraph.get_text(" ")
            for a in paragraph.find_all("a", href=True)
            if a["href"].split("#")[0].startswith("ch")
        ]
        if not links:
            problems.append(f"{name}: no 'Derived in' link to a chapter")
            continue
        for link in links:
            parts = urlsplit(link["href"])
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_file():
                problems.append(f"{name}: {link['href']} does not exist")
                continue
            if parts.fragment and unquote(parts.fragment) not in ids_on(target):
                problems.append(
                    f"{name}: {link['href']} has no anchor {parts.fragment!r}"
                )
    assert not problems, "\n".join(problems)
