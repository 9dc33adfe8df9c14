"""A griffe extension for the API reference: the docstrings' Sphinx roles as links, their
doctest sessions as code.

The package's docstrings name other objects the Sphinx way (:class:`Game`,
:func:`~kniffel.engine.rules.evaluate`, ``:mod:`kniffel.solver```). Markdown knows no roles, so
mkdocstrings would show them as ``:class:`` followed by code. This extension rewrites each role
into an optional cross-reference of mkdocs-autorefs: a link where the reference has the object,
plain code where it has not (an object it does not document), never a warning. A name is
looked up from the object that names it as Python would.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from html import escape
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`(~?)([\w.]+)(\(\))?`")


def qualified(target: str, obj: griffe.Object) -> str:
    """The full path the role's target names, resolved in ``obj``'s scope as Python would (its
    class, its module; an imported name to where it is defined), else the target as written."""
    if target.startswith("kniffel"):
        return target
    first, _, rest = target.partition(".")
    try:
        path = obj.resolve(first)
    except griffe.NameResolutionError:
        return target
    return f"{path}.{rest}" if rest else path


def link(match: re.Match[str], obj: griffe.Object) -> str:
    """The role of ``match`` as an optional autorefs reference."""
    tilde, target, call = match.group(1), match.group(2), match.group(3) or ""
    shown = target.rsplit(".", 1)[-1] if tilde else target
    identifier = escape(qualified(target, obj), quote=True)
    code = f"<code>{escape(shown)}{call}</code>"
    return f'<autoref identifier="{identifier}" optional>{code}</autoref>'


def fence_sessions(text: str) -> str:
    """``text`` with each doctest session (a paragraph whose first line starts with ``>>>``) in
    a ``pycon`` code block, so Markdown does not read its ``>>>`` as quotes."""
    lines, out, inside = text.splitlines(), [], False
    for line in lines:
        if not inside and line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not line.strip():
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


def objects(obj: griffe.Object) -> Iterator[griffe.Object]:
    """``obj`` and every object defined in it (no imported names), depth first."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from objects(member)  # type: ignore[arg-type]


class SphinxRoles(griffe.Extension):
    """Rewrites every docstring of a package once it is loaded whole (so that every name a
    docstring uses can be resolved): sessions fenced, roles linked."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the docstrings of ``pkg`` and everything in it."""
        for obj in objects(pkg):
            if obj.docstring is None:
                continue
            text = obj.docstring.value
            if ">>>" in text:
                text = fence_sessions(text)
            if ":" in text:
                text = ROLE.sub(functools.partial(link, obj=obj), text)
            obj.docstring.value = text
