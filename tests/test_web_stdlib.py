"""The site ships only the part of Python's standard library that the engine runs on (issue 42):
Pyodide under node starts the engine from the site as its worker does, with the trimmed archive
and with Pyodide's whole one, and imports every module the browser package can import
(scripts/pyodide_imports.mjs). A module the trimmed archive lacks fails here, naming it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kniffel.web.pyodide_stdlib import STDLIB_FILES
from kniffel.web.server import build_site, find_pyodide

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "pyodide_imports.mjs"


def _imports(site: Path, stdlib: Path | None = None) -> dict[str, Any]:
    """What scripts/pyodide_imports.mjs finds in ``site`` (with ``stdlib`` instead of the
    site's own archive, where given)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing (Debian: apt-get install nodejs)")
    args = [node, str(SCRIPT), str(site), *(["--stdlib", str(stdlib)] if stdlib else [])]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, Any] = json.loads(done.stdout)
    return found


@pytest.mark.solve  # builds the site and starts Pyodide twice: a minute
def test_every_module_the_browser_package_imports_is_in_the_trimmed_stdlib(
        tmp_path: Path) -> None:
    """Against the trimmed archive, every module the browser package can import (its own, the
    modules they name anywhere, segno's they reach) imports as it does with Pyodide's whole
    standard library; the names that fail fail alike (no Pyodide has them: babel, numpy, the
    guarded imports of the desktop)."""
    build_site(tmp_path)
    trimmed = _imports(tmp_path)
    whole = _imports(tmp_path, find_pyodide() / "python_stdlib.zip")
    lacking = {name: why for name, why in trimmed["missing"].items()
               if name not in whole["missing"]}
    assert not lacking, ("the trimmed standard library lacks what the engine imports; run "
                         f"scripts/pyodide_stdlib.py: {lacking}")
    assert sorted(trimmed["missing"]) == sorted(whole["missing"])
    assert "kniffel.browser.bridge" in trimmed["imported"]
    assert "segno.writers" in trimmed["imported"]
    # the list is what the engine loads: nothing more, nothing less (an unused module would
    # cost bytes on every first visit)
    assert sorted(whole["files"]) == sorted(STDLIB_FILES)
    assert sorted(trimmed["files"]) == sorted(STDLIB_FILES)


def test_the_trimmed_stdlib_refuses_a_pyodide_that_lacks_a_listed_module(tmp_path: Path) -> None:
    """A Pyodide whose standard library lacks a module the list names (another version) is not
    built into a site that would fail in the browser: the build names it."""
    import io
    import zipfile

    from kniffel.engine.errors import KniffelError
    from kniffel.web.server import trimmed_stdlib

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("json/__init__.py", "")
    with pytest.raises(KniffelError, match="lacks") as caught:
        trimmed_stdlib(buf.getvalue())
    assert caught.value.code == "web.pyodide_incomplete"
    kept = trimmed_stdlib(buf.getvalue(), keep=("json/__init__.py",))
    assert zipfile.ZipFile(io.BytesIO(kept)).namelist() == ["json/__init__.py"]
