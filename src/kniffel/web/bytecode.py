"""The browser's Python as bytecode: the site's zips of Python modules compiled ahead of time.

Pyodide compiles every module it imports from source, at every start of a page that has no
memory snapshot yet: a first visit. Measured on a 2-core machine (node, the same V8 as Chromium),
``loadPyodide`` took 2.0–3.2 s with the standard library as sources and 1.0–1.4 s with it as
bytecode, and importing the engine 0.7–1.0 s against 0.27 s. So the production site ships both
zips (Pyodide's trimmed ``python_stdlib.zip`` and ``kniffel.zip``) with every ``X.py`` replaced
by a sourceless ``X.pyc`` (unchecked hash: nothing to compare it with), which Python's zip and
file importers load as they load a module's source.

Bytecode belongs to one Python version, so it is compiled by the Python that will run it:
Pyodide itself, run by ``node`` (:func:`find_node`) from the Pyodide folder the site is built
from. Docstrings are left out (as ``python -OO`` does; the standard library is tested that way,
and nothing the browser runs reads one): 0.25 MB less on the wire, sent brotli-compressed.
Asserts stay. Where there is no node (an installed wheel without it) or it fails, the site keeps
the sources, as before: slower to start, the same app. The compiled zips are kept between builds
by their sources' SHA-256 (the cache folder given), so a build compiles only what changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path

#: Raises when the compiler's way of compiling changes, so kept copies of an older way go.
COMPILER_VERSION = "1"

#: Compiles each job's zip inside Pyodide: ``node compile.mjs PYODIDE_DIR JOBS.json``, each job
#: ``[source zip, target zip, prefix]`` (the prefix: where the zip's members lie when Python runs
#: them, for the code's file names). A ``.py`` member becomes ``.pyc`` without its docstrings;
#: every other member is copied as it is; the target is stored (the site compresses in transit).
_COMPILE_MJS = r"""
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [dir, jobsFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const py = await loadPyodide({ indexURL: `${dir}/` });
const jobs = JSON.parse(readFileSync(jobsFile, "utf-8"));
py.runPython(`
import ast, importlib.util, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree

def compile_zip(source, target, prefix):
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename.endswith(".py"):
                tree = without_docstrings(ast.parse(data, prefix + info.filename))
                code = compile(tree, prefix + info.filename, "exec", dont_inherit=True)
                pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                zout.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time), bytes(pyc))
            else:
                zout.writestr(info, data)
`);
const compileZip = py.globals.get("compile_zip");
for (const [source, target, prefix] of jobs) {
  py.FS.writeFile("/tmp/in.zip", new Uint8Array(readFileSync(source)));
  compileZip("/tmp/in.zip", "/tmp/out.zip", prefix);
  writeFileSync(target, py.FS.readFile("/tmp/out.zip"));
}
"""

#: How long one compiling run may take (Pyodide's start and a few thousand modules).
TIMEOUT_S = 300


def find_node() -> str | None:
    """The ``node`` program that runs the compiler: ``$KNIFFEL_NODE``, else ``node`` on the
    PATH; None where there is none (``KNIFFEL_NODE=`` empty: none, the sources are shipped)."""
    env = os.environ.get("KNIFFEL_NODE")
    if env is not None:
        return env or None
    return shutil.which("node")


def _key(data: bytes, prefix: str, python: str) -> str:
    digest = hashlib.sha256(data)
    digest.update(f"\0{prefix}\0{python}\0{COMPILER_VERSION}".encode())
    return digest.hexdigest()


def compiled_zips(zips: Mapping[str, tuple[bytes, str]], pyodide: Path, python: str,
                  cache: Path | None) -> dict[str, bytes] | None:
    """The zips ``zips`` (by name: their contents and the prefix their members lie under when
    Python runs them) with every module compiled to bytecode by the Pyodide in ``pyodide``
    (whose Python is ``python``, the lock file's version: a kept copy is for one version);
    None where no node runs the compiler or it fails (then the site ships the sources). Kept
    copies in ``cache`` (by :func:`_key`) are used instead of compiling again."""
    out: dict[str, bytes] = {}
    todo: dict[str, tuple[bytes, str]] = {}
    keys = {name: _key(data, prefix, python) for name, (data, prefix) in zips.items()}
    for name, (data, prefix) in zips.items():
        kept = cache / f"{keys[name]}.pyc.zip" if cache is not None else None
        if kept is not None and kept.is_file():
            out[name] = kept.read_bytes()
        else:
            todo[name] = (data, prefix)
    if not todo:
        return out
    node = find_node()
    if node is None:
        return None
    with tempfile.TemporaryDirectory(prefix="kniffel-bytecode-") as tmp:
        folder = Path(tmp)
        (folder / "compile.mjs").write_text(_COMPILE_MJS, encoding="utf-8")
        jobs = []
        for number, (data, prefix) in enumerate(todo.values()):
            (folder / f"{number}.zip").write_bytes(data)
            jobs.append([str(folder / f"{number}.zip"), str(folder / f"{number}.out.zip"), prefix])
        (folder / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
        try:
            done = subprocess.run([node, str(folder / "compile.mjs"), str(pyodide.resolve()),
                                   str(folder / "jobs.json")], capture_output=True,
                                  timeout=TIMEOUT_S, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        if done.returncode != 0:
            return None
        for number, name in enumerate(todo):
            compiled = (folder / f"{number}.out.zip").read_bytes()
            out[name] = compiled
            if cache is not None:
                with suppress(OSError):  # no cache: compiled again next time
                    kept = cache / f"{keys[name]}.pyc.zip"
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    kept.with_suffix(".tmp").write_bytes(compiled)
                    kept.with_suffix(".tmp").replace(kept)
    return out
