"""The production site's Python as bytecode (issue 42): every module of the site's zips compiled
by Pyodide itself, run by node, so a first visit's interpreter compiles nothing; without node the
site keeps the sources."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

from kniffel.web.bytecode import compiled_zips, find_node
from kniffel.web.server import PACKAGE_PREFIX, engine_lock, find_pyodide, package_zip

MODULE = (b'"""A module\'s docstring."""\n\nclass Kept:\n    """A class\'s."""\n\n\n'
          b'def f():\n    """Gone too."""\n    return 42\n')


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _python() -> str:
    return str(engine_lock(find_pyodide())["info"]["python"])


def needs_node(test: Any) -> Any:
    """A test that runs Pyodide under node (seconds each: the slow tier); skipped without node."""
    return pytest.mark.solve(pytest.mark.skipif(
        find_node() is None, reason="node is missing: the site keeps its sources where no node "
        "compiles them")(test))


@needs_node
def test_every_module_becomes_sourceless_bytecode_without_docstrings_and_data_stays(
        tmp_path: Path) -> None:
    """A ``.py`` member becomes ``.pyc`` (no source left beside it) whose code has no docstring
    in the module, class or function; a data file is copied as it is."""
    source = _zip({"pkg/__init__.py": b"", "pkg/mod.py": MODULE, "pkg/data/words.json": b"{}"})
    out = compiled_zips({"z": (source, "/lib/")}, find_pyodide(), _python(), tmp_path)
    assert out is not None
    members = _members(out["z"])
    assert sorted(members) == ["pkg/__init__.pyc", "pkg/data/words.json", "pkg/mod.pyc"]
    assert members["pkg/data/words.json"] == b"{}"
    pyc = members["pkg/mod.pyc"]
    assert int.from_bytes(pyc[4:8], "little") == 0b01  # hash-based, not checked against a source
    # (the header is the host's format too; the code object itself is Pyodide's Python's, which
    # this Python may not read: its strings are looked for in the marshalled bytes instead)
    body = pyc[16:]
    assert b"A module's docstring." not in body
    assert b"Gone too." not in body
    assert b"A class's." not in body
    assert b"/lib/pkg/mod.py" in body  # the file name the code runs under
    assert b"Kept" in body


@needs_node
def test_a_kept_copy_is_used_without_compiling_again(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled zips are kept by their sources: the next build takes them with no node at
    all; other sources or another Python version are compiled anew."""
    source = _zip({"m.py": b"X = 1\n"})
    first = compiled_zips({"z": (source, "/lib/")}, find_pyodide(), _python(), tmp_path)
    assert first is not None
    monkeypatch.setenv("KNIFFEL_NODE", "")  # no node from here on
    again = compiled_zips({"z": (source, "/lib/")}, find_pyodide(), _python(), tmp_path)
    assert again == first
    assert compiled_zips({"z": (_zip({"m.py": b"X = 2\n"}), "/lib/")}, find_pyodide(),
                         _python(), tmp_path) is None
    assert compiled_zips({"z": (source, "/lib/")}, find_pyodide(), "3.99.0", tmp_path) is None


def test_without_node_or_with_a_failing_node_the_site_keeps_its_sources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No node (``KNIFFEL_NODE`` empty), or a node that fails: None, the build ships sources."""
    source = _zip({"m.py": b"X = 1\n"})
    monkeypatch.setenv("KNIFFEL_NODE", "")
    assert compiled_zips({"z": (source, "/lib/")}, find_pyodide(), _python(), tmp_path) is None
    monkeypatch.setenv("KNIFFEL_NODE", "/bin/false")
    assert compiled_zips({"z": (source, "/lib/")}, find_pyodide(), _python(), None) is None
    monkeypatch.setenv("KNIFFEL_NODE", str(tmp_path / "no-such-node"))
    assert compiled_zips({"z": (source, "/lib/")}, find_pyodide(), _python(), None) is None


@needs_node
def test_the_package_zip_compiles_whole(tmp_path: Path) -> None:
    """Every module of kniffel.zip compiles in Pyodide's Python (a syntax its version lacks would
    fail here, not in a player's browser), and each has its ``.pyc`` and no ``.py``."""
    source = package_zip()
    out = compiled_zips({"package": (source, PACKAGE_PREFIX)}, find_pyodide(), _python(),
                        tmp_path)
    assert out is not None
    before, after = _members(source), _members(out["package"])
    modules = {n for n in before if n.endswith(".py")}
    assert modules
    assert not [n for n in after if n.endswith(".py")]
    assert {n + "c" for n in modules} | (set(before) - modules) == set(after)
