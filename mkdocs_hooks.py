"""A hook of the documentation site (mkdocs.yml, ``hooks``): the package's docstrings name
other objects with reStructuredText roles (``:class:`State```, ``:func:`~chimera_dsl.load_variant```),
which Markdown renders as the role's text before a code span; the API pages show the name alone,
as the role means it (``~`` keeps the last part of a dotted name)."""
from __future__ import annotations

import re

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):<code>(~?)([^<]*)</code>")


def shown(match: re.Match) -> str:
    short, name = match.groups()
    return f"<code>{name.rsplit('.', 1)[-1] if short else name}</code>"


def on_page_content(html: str, **_) -> str:
    return ROLE.sub(shown, html)
