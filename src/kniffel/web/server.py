"""``kniffel web``: build the browser app's static site and serve it from this machine.

The site holds the page (``static/``), Pyodide (the package's own copy in ``pyodide/``, which an
installed wheel carries; in a checkout the npm package ``pyodide``, installed by ``npm ci`` into
``node_modules``), the QR code decoder jsQR (``vendor/jsqr.js``, from the npm package ``jsqr``
the same way), and this package as ``kniffel.zip``, so every request stays on the same origin.
:func:`build_site` writes it (``kniffel web --export DIR``); :func:`serve` serves a freshly
built copy.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import importlib
import io
import json
import math
import os
import re
import shutil
import socket
import struct
import sys
import tempfile
import threading
import webbrowser
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import cache, partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kniffel.browser import advice_view
from kniffel.browser.view import meta, pad_starts, page_data
from kniffel.engine.errors import KniffelError
from kniffel.engine.expert_model import MODEL_FILES, packed_copy
from kniffel.engine.rules import Lang
from kniffel.web import jsqr_files
from kniffel.web.bytecode import compiled_zips
from kniffel.web.pyodide_files import COPY_FOLDER, PYODIDE_FILES
from kniffel.web.pyodide_stdlib import STDLIB_FILES

PACKAGE_DIR = Path(__file__).resolve().parent.parent
STATIC_DIR = Path(__file__).resolve().parent / "static"
#: The package's own copy of Pyodide (setup.py puts it into a wheel; a checkout has none).
PYODIDE_COPY = Path(__file__).resolve().parent / COPY_FOLDER
#: The package's own copy of jsQR (setup.py puts it into a wheel; a checkout has none).
JSQR_COPY = Path(__file__).resolve().parent / jsqr_files.COPY_FOLDER
#: The package's folders that run in the browser, whole: the pure engine (rules, game, match
#: core, computer players, the expert's model and its data) and the page's side of the bridge.
#: Everything else (solver, history, command line, terminal game, this server) is the desktop's.
BROWSER_FOLDERS = ("engine", "browser")
#: Pure-Python packages (dependencies in pyproject.toml) that go into kniffel.zip as well.
BROWSER_PACKAGES = ("segno",)
ICON_SIZES = (192, 512)
#: The compressed copies the site holds beside a file ``X`` (``X.br``, ``X.gz``), by the
#: ``Content-Encoding`` they are sent with; the server prefers them in this order.
ENCODINGS = {"br": ".br", "gzip": ".gz"}
#: Files smaller than this are not compressed (a few hundred bytes fit one packet anyway).
COMPRESS_MIN_SIZE = 1024
#: A compressed copy is kept only where it is at most this share of the file (at least 5 %
#: smaller): already compressed files (the PNG icons, kniffel.zip, Pyodide's stdlib zip) have
#: none.
COMPRESS_MAX_SHARE = 0.95
#: Brotli's best quality (11) takes half a minute for Pyodide's 9.6 MB wasm; above this size
#: the site uses quality 9 (under two seconds, about 12 % larger, still smaller than gzip).
BROTLI_BEST_MAX_SIZE = 1 << 20


class WebSetupError(KniffelError):
    """The web app cannot be built: Pyodide is not installed, or the target is unusable."""

    default_code = "web.setup"


def _npm_folder(copy: Path, variable: str, package: str, marker: str) -> Path | None:
    """The first folder of the npm package ``package`` that holds ``marker``: ``copy`` (the
    package's own, an installed wheel's), else ``$variable``, else ``node_modules/<package>``
    in the current directory or above the package's source (a checkout); None where none does."""
    env = os.environ.get(variable)
    candidates = [copy, *([Path(env)] if env else [])]
    for base in (Path.cwd(), *PACKAGE_DIR.parents):
        candidates.append(base / "node_modules" / package)
    return next((c for c in candidates if (c / marker).is_file()), None)


def find_pyodide() -> Path:
    """The folder of Pyodide's files: the package's own copy (:data:`PYODIDE_COPY`, an
    installed wheel's), else ``$KNIFFEL_PYODIDE_DIR``, else the npm package's
    ``node_modules/pyodide`` in the current directory or above the package's source (a
    checkout)."""
    found = _npm_folder(PYODIDE_COPY, "KNIFFEL_PYODIDE_DIR", "pyodide", "pyodide.mjs")
    if found is None:
        raise WebSetupError("Pyodide is missing: reinstall kniffel (its wheel carries it), or "
                            "run `npm ci` in the project directory (or set KNIFFEL_PYODIDE_DIR "
                            "to the npm package's directory)",
                            code="web.no_pyodide")
    return found


def find_jsqr() -> Path:
    """The folder of the QR code decoder jsQR (the npm package ``jsqr``, its
    :data:`~kniffel.web.jsqr_files.JSQR_SCRIPT` inside): the package's own copy
    (:data:`JSQR_COPY`, an installed wheel's), else ``$KNIFFEL_JSQR_DIR``, else
    ``node_modules/jsqr`` in the current directory or above the package's source."""
    found = _npm_folder(JSQR_COPY, "KNIFFEL_JSQR_DIR", "jsqr", jsqr_files.JSQR_SCRIPT)
    if found is None:
        raise WebSetupError("jsQR is missing: reinstall kniffel (its wheel carries it), or run "
                            "`npm ci` in the project directory (or set KNIFFEL_JSQR_DIR to the "
                            "npm package's directory)",
                            code="web.no_jsqr")
    return found


def npm_version(folder: Path) -> str:
    """The version the npm package in ``folder`` names in its ``package.json``; "unknown"
    where it has none (a copy of the files alone)."""
    manifest = folder / "package.json"
    if not manifest.is_file():
        return "unknown"
    return str(json.loads(manifest.read_text(encoding="utf-8")).get("version", "unknown"))


def jsqr_module(folder: Path) -> tuple[str, str]:
    """jsQR's decoder (``folder``: :func:`find_jsqr`) as an ES module of the site and its
    version: the package's UMD script, unchanged, between a line that gives it the ``module``
    it fills (so it sets ``module.exports`` instead of a global) and one that exports that as
    the module's default (the decoding function, ``jsQR(rgba, width, height, options)``)."""
    version = npm_version(folder)
    script = (folder / jsqr_files.JSQR_SCRIPT).read_text(encoding="utf-8")
    text = (f"// jsQR {version} (npm package jsqr, Apache-2.0, https://github.com/cozmo/jsQR), "
            "wrapped as an ES module by kniffel's site build.\n"
            "const module = { exports: {} };\nconst exports = module.exports;\n"
            f"{script}\nexport default module.exports;\n")
    return text, version


@cache
def expert_tables() -> dict[str, bytes]:
    """The classic rule sets' exact value tables for the browser's expert, by their place in
    kniffel.zip (``kniffel/browser/tables/``): float32 copies
    (:func:`kniffel.engine.values.compact_table`)
    of the solver's tables, read from its cache and computed when missing (about a second each
    once numba has compiled the solver). Kniffel Extreme's exact table (2.4 GB) does not fit a
    browser: there the expert uses its fitted model, package data under ``kniffel/engine/data/``."""
    from kniffel.engine.values import compact_table
    from kniffel.solver.solve import solve

    out = {}
    for rules in advice_view.browser_rule_sets():
        if rules.d10:
            continue
        table = solve(rules)
        if table.path is None:  # pragma: no cover - solve() always stores its table
            continue
        out[f"kniffel/browser/tables/{advice_view.table_file_name(rules)}"] = compact_table(
            rules, table.path.read_bytes())
    return out


#: Where the site holds the expert's values, one file each: the classic rule sets' exact tables
#: (``tables/kniffel.table``) and Kniffel Extreme's model (``tables/expert-extreme.packed``); the
#: page's engine fetches one when a request of that rule set first needs it
#: (:func:`kniffel.browser.bridge.wanted_table`), the others never.
TABLES_FOLDER = "tables"


def _stored_zip(entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    """A zip of ``entries`` (name or ZipInfo, contents) stored, not deflated: the site sends it
    brotli- or gzip-compressed in transit, which packs the whole archive far better than
    deflate packs each file alone (the zip's own compression would leave nothing for it)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)) \
                if isinstance(name, str) else name
            info.compress_type = zipfile.ZIP_STORED
            zf.writestr(info, data)
    return buf.getvalue()


@cache
def expert_models() -> dict[str, bytes]:
    """The expert's value models (Kniffel Extreme's: ``kniffel/engine/data/``), packed and
    checked (:func:`kniffel.engine.expert_model.packed_copy`: the browser reads them in
    milliseconds), by their place in the package (``kniffel/engine/data/expert-extreme.packed``).
    The site ships them as files of their own beside kniffel.zip (``TABLES_FOLDER``), fetched
    when a request first needs the expert's values (:func:`kniffel.browser.bridge.wanted_table`):
    a first visit's engine, whose first total needs none, does not wait for their 0.29 MB."""
    out = {}
    for rules_name, file in MODEL_FILES.items():
        path = PACKAGE_DIR / "engine" / "data" / file
        if path.is_file():
            name, packed = packed_copy(rules_name, path.read_bytes(),
                                       where=f"kniffel/engine/data/{file}")
            out[f"kniffel/engine/data/{name}"] = packed
    return out


def package_zip() -> bytes:
    """This package's pure-Python modules as a zip for Pyodide, stored (see :func:`_stored_zip`)
    and byte-for-byte reproducible, with its data files (``kniffel/engine/data/``, the expert's
    models aside: :func:`expert_models`) and the pure-Python packages they need in the browser
    (``BROWSER_PACKAGES``). The expert's models and the classic rule sets' exact tables
    (:func:`expert_tables`) are files of their own beside it (``TABLES_FOLDER``)."""
    entries: list[tuple[zipfile.ZipInfo | str, bytes]] = []

    def add(name: str, data: bytes) -> None:
        entries.append((name, data))

    add("kniffel/__init__.py", (PACKAGE_DIR / "__init__.py").read_bytes())
    models = set(MODEL_FILES.values())
    for folder in BROWSER_FOLDERS:
        for path in sorted((PACKAGE_DIR / folder).rglob("*")):
            rel = path.relative_to(PACKAGE_DIR).as_posix()
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            if path.parent.name == "data" and path.name in models:
                continue  # a file of its own (expert_models)
            if path.suffix in (".py", ".json") or path.parent.name == "data":
                add(f"kniffel/{rel}", path.read_bytes())
    for package in BROWSER_PACKAGES:
        root = Path(importlib.import_module(package).__file__ or "").parent
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" not in path.parts:
                add(f"{package}/{path.relative_to(root).as_posix()}", path.read_bytes())
    return _stored_zip(entries)


def stored_stdlib(data: bytes) -> bytes:
    """Pyodide's ``python_stdlib.zip`` (``data``) with every member stored instead of deflated,
    the same names, times and contents: sent brotli-compressed it is 1.8 instead of 2.55 MB,
    and Python reads its modules without inflating them."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return _stored_zip([(info, zf.read(info)) for info in zf.infolist()])


def trimmed_stdlib(data: bytes, keep: tuple[str, ...] = STDLIB_FILES) -> bytes:
    """Pyodide's ``python_stdlib.zip`` (``data``) with only the members the browser app's engine
    runs on (``keep``: :data:`kniffel.web.pyodide_stdlib.STDLIB_FILES`) and the folders they lie
    in, stored (as :func:`stored_stdlib`): 0.67 instead of 1.79 MB brotli-compressed. A member
    of ``keep`` that the archive lacks (another Pyodide) is a :class:`WebSetupError`."""
    wanted = set(keep)
    folders = {name[:i + 1] for name in wanted for i, c in enumerate(name) if c == "/"}
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = [i for i in zf.infolist() if i.filename in wanted or i.filename in folders]
        lacking = wanted - {i.filename for i in infos}
        if lacking:
            raise WebSetupError(
                f"Pyodide's python_stdlib.zip lacks {', '.join(sorted(lacking)[:5])}: another "
                "Pyodide than kniffel.web.pyodide_stdlib was made for (run "
                "scripts/pyodide_stdlib.py)", code="web.pyodide_incomplete",
                params={"where": "python_stdlib.zip"})
        return _stored_zip([(info, zf.read(info)) for info in infos])


#: Where the engine's worker puts the zips' members (``kniffel.zip`` unpacked, Pyodide's standard
#: library as ``/lib/python314.zip`` for Python 3.14): their code's file names.
PACKAGE_PREFIX = "/home/pyodide/lib/"
STDLIB_PREFIX = "/lib/python%s.zip/"


#: Pyodide's files the site serves: its lock file is not one of them, the engine's worker gets
#: the lock file's facts from the build (:func:`engine_lock`) and loads no package.
SITE_PYODIDE_FILES = tuple(name for name in PYODIDE_FILES if name != "pyodide-lock.json")


def engine_lock(pyodide: Path) -> dict[str, Any]:
    """Pyodide's lock file (in ``pyodide``) as the engine's worker hands it to ``loadPyodide``:
    its ``info`` (the ABI version Pyodide checks, the Python version), no packages."""
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    return {"info": lock["info"], "packages": {}}


def is_site(folder: Path) -> bool:
    """Whether ``folder`` holds a site :func:`build_site` wrote (its ``meta.json`` with a build
    id, and ``kniffel.zip``): the user's own earlier export, which a new one may replace."""
    try:
        info = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and "build" in info and (folder / "kniffel.zip").is_file()


def brotli_module() -> Any:
    """The ``brotli`` module, or None where it is not installed (then the site has no .br)."""
    try:
        return importlib.import_module("brotli")
    except ImportError:
        return None


#: :func:`compressed_copies` of the contents built before in this process, by their SHA-256:
#: Pyodide's files are the same in every build (the tests build the site many times).
_COMPRESSED: dict[str, dict[str, bytes]] = {}


#: Brotli's settings for the production site (``best``): quality 11 with a 16 MB window for every
#: file, 11 % smaller for Pyodide's wasm (2.77 instead of 3.10 MB) but a minute or two each, so
#: kept between builds (:func:`_best_cache`).
BROTLI_BEST = {"quality": 11, "lgwin": 24}


def _best_cache() -> Path | None:
    """Where the production site's brotli copies are kept between builds, by their contents'
    SHA-256: ``node_modules/.cache/kniffel-site`` beside the esbuild that bundles it (a
    checkout), or None."""
    esbuild = find_esbuild()
    return esbuild.parent.parent / ".cache" / "kniffel-site" if esbuild is not None else None


def compressed_copies(data: bytes, best: bool = False) -> dict[str, bytes]:
    """The compressed copies of a file's contents worth keeping, by their ``Content-Encoding``:
    ``gzip`` (level 9, no name and time 0 in its header, so byte-for-byte reproducible) and
    ``br`` where the ``brotli`` package is installed (``best``: :data:`BROTLI_BEST`, kept
    between builds); none for a file under ``COMPRESS_MIN_SIZE`` bytes, or where gzip does not
    save at least 5 %."""
    if len(data) < COMPRESS_MIN_SIZE:
        return {}
    key = hashlib.sha256(data).hexdigest() + ("-best" if best else "")
    if key in _COMPRESSED:
        return _COMPRESSED[key]
    limit = len(data) * COMPRESS_MAX_SHARE
    out: dict[str, bytes] = {}
    gz = gzip.compress(data, compresslevel=9, mtime=0)
    if len(gz) <= limit:
        out["gzip"] = gz
        brotli = brotli_module()
        if brotli is not None:
            br: bytes | None = None
            cache = _best_cache() if best else None
            kept = cache / f"{key}.br" if cache is not None else None
            if kept is not None and kept.is_file():
                br = kept.read_bytes()
            if br is None:
                settings = BROTLI_BEST if best else {
                    "quality": 11 if len(data) <= BROTLI_BEST_MAX_SIZE else 9}
                br = brotli.compress(data, **settings)
                if kept is not None:
                    with suppress(OSError):  # no cache: compressed again next time
                        kept.parent.mkdir(parents=True, exist_ok=True)
                        kept.with_suffix(".tmp").write_bytes(br)
                        kept.with_suffix(".tmp").replace(kept)
            if len(br) <= limit:
                out["br"] = br
    if len(_COMPRESSED) >= 64:
        _COMPRESSED.clear()
    _COMPRESSED[key] = out
    return out


def write_compressed(folder: Path, names: list[str],
                     best: bool = False) -> dict[str, dict[str, int]]:
    """Write the compressed copies (:func:`compressed_copies`) of the files ``names`` of
    ``folder`` beside them (``X.br``, ``X.gz``, with the file's modification time) and remove
    those an earlier build left that this one has not; returns the sizes written, by file and
    encoding."""
    sizes: dict[str, dict[str, int]] = {}
    for name in names:
        path = folder / name
        copies = compressed_copies(path.read_bytes(), best)
        stat = path.stat()
        for encoding, suffix in ENCODINGS.items():
            target = path.with_name(path.name + suffix)
            if encoding in copies:
                target.write_bytes(copies[encoding])
                os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
                sizes.setdefault(name, {})[encoding] = len(copies[encoding])
            elif target.is_file():
                target.unlink()  # an earlier build's copy of other contents
    return sizes


#: A word of the catalog in a page's file (index.html, the manifest): ``{{page.nav.game}}``.
_WORD_FIELD = re.compile(r"\{\{(page\.[a-z0-9_.]+)\}\}")


def page_text(text: str, suffix: str, page: dict[str, Any]) -> str:
    """A file of the page as the site holds it: ``__WORDS__`` (index.html) replaced by
    :func:`~kniffel.browser.view.page_data` as JSON (the page's words and facts, read before its
    first paint, no request), every ``{{code}}`` by the catalog's German words for it (escaped for
    HTML, or for JSON in the manifest), so the first paint is German until the page draws."""
    if suffix == ".html":
        # "<" never appears in the JSON as such: nothing in it can end the script element
        data = json.dumps(page, ensure_ascii=False).replace("<", "\\u003c")
        text = text.replace("__WORDS__", data)
    german: dict[str, str] = page["words"]["de"]

    def word(match: re.Match[str]) -> str:
        found = german[match.group(1)]
        if suffix == ".html":
            return html.escape(found)
        return json.dumps(found, ensure_ascii=False)[1:-1]

    return _WORD_FIELD.sub(word, text) if suffix in (".html", ".webmanifest") else text


def find_esbuild() -> Path | None:
    """The bundler esbuild (the npm package ``esbuild``, a development dependency in
    package.json): ``$KNIFFEL_ESBUILD``, else ``node_modules/.bin/esbuild`` in the current
    directory or above the package's source (a checkout after ``npm ci``); None where there is
    none (an installed wheel)."""
    env = os.environ.get("KNIFFEL_ESBUILD")
    candidates = [Path(env)] if env else []
    for base in (Path.cwd(), *PACKAGE_DIR.parents):
        candidates.append(base / "node_modules" / ".bin" / "esbuild")
    return next((c for c in candidates if c.is_file()), None)


#: The page's modules that stay files of their own in a bundled site: the engine's worker, the
#: service worker (neither is a module of the page) and the page's entry, which the bundle
#: replaces.
UNBUNDLED = ("worker.js", "sw.js", "app.js")


def bundle_page(site: Path, esbuild: Path) -> list[str]:
    """Bundle the page's ES modules in ``site`` (app.js and every module it imports) into one
    minified ``app.js`` with ``esbuild``: the production page draws its first screen from
    index.html, style.css and this one script, instead of 29 modules. jsQR (``vendor/``, loaded
    when a code is first scanned), the workers and history.css stay files of their own. Removes
    the modules the bundle holds and returns their names (relative to ``site``)."""
    import subprocess

    entry = site / "app.js"
    out = site / "app.bundle.js"
    done = subprocess.run([str(esbuild), str(entry), "--bundle", "--format=esm", "--minify",
                           "--target=es2022", "--external:./vendor/*", "--log-level=error",
                           f"--outfile={out}"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise WebSetupError(f"esbuild could not bundle the page: {done.stderr.strip()}",
                            code="web.setup")
    out.replace(entry)
    gone = []
    for path in sorted(site.glob("*.js")):
        if path.name not in UNBUNDLED:
            path.unlink()
            gone.append(path.name)
    return gone


def build_site(target: str | os.PathLike[str], pyodide_dir: Path | None = None, *,
               force: bool = False, bundle: bool | None = False) -> dict[str, Any]:
    """Write the static site to ``target`` and return its build facts: build id, Pyodide
    and jsQR versions (the QR code decoder, :data:`~kniffel.web.jsqr_files.SITE_FILE`), the
    files, and the sizes of their compressed copies (``compressed``: beside each file worth it,
    ``X.br`` and ``X.gz``, see :func:`write_compressed`; static hosts and this server send them
    to browsers that accept them). ``target`` is created if missing; an
    existing folder must be empty or hold an earlier site (:func:`is_site`; its files are
    replaced, others kept), unless ``force``: nothing the user did not ask for is
    overwritten. ``bundle``: the page's modules bundled into one script (:func:`bundle_page`,
    the production page); False keeps them as they are (development and the tests), None
    bundles where esbuild is installed (:func:`find_esbuild`)."""
    out = Path(target)
    if out.exists() and not out.is_dir():
        raise WebSetupError(f"{out} exists and is not a directory", code="web.not_a_folder",
                            params={"where": str(out)})
    if not force and out.is_dir() and any(out.iterdir()) and not is_site(out):
        raise WebSetupError(f"{out} is not empty and holds no kniffel site",
                            code="web.export_not_empty", params={"where": str(out)})
    pyodide = pyodide_dir or find_pyodide()
    esbuild = find_esbuild() if bundle is not False else None
    if bundle and esbuild is None:
        raise WebSetupError("esbuild is missing: run `npm ci` in the project directory (or set "
                            "KNIFFEL_ESBUILD to its program)", code="web.setup")
    missing = [n for n in PYODIDE_FILES if not (pyodide / n).is_file()]
    if missing:
        raise WebSetupError(f"{pyodide} is not a complete Pyodide package (missing "
                            f"{', '.join(missing)}): run `npm ci`",
                            code="web.pyodide_incomplete", params={"where": str(pyodide)})
    version = npm_version(pyodide)
    decoder, jsqr_version = jsqr_module(find_jsqr())
    out.mkdir(parents=True, exist_ok=True)
    (out / "pyodide").mkdir(exist_ok=True)
    stdlib = trimmed_stdlib((pyodide / "python_stdlib.zip").read_bytes())
    zipped = package_zip()
    compiled = None
    if esbuild:  # the production site: its Python as bytecode where node compiles it
        python = str(engine_lock(pyodide)["info"]["python"])
        compiled = compiled_zips(
            {"stdlib": (stdlib, STDLIB_PREFIX % "".join(python.split(".")[:2])),
             "package": (zipped, PACKAGE_PREFIX)}, pyodide, python, _best_cache())
    if compiled is not None:
        stdlib, zipped = compiled["stdlib"], compiled["package"]
    for name in SITE_PYODIDE_FILES:
        if name == "python_stdlib.zip":
            (out / "pyodide" / name).write_bytes(stdlib)
        else:
            shutil.copyfile(pyodide / name, out / "pyodide" / name)
    with suppress(FileNotFoundError):
        (out / "pyodide" / "pyodide-lock.json").unlink()  # an earlier build's
    (out / jsqr_files.SITE_FILE).parent.mkdir(exist_ok=True)
    (out / jsqr_files.SITE_FILE).write_text(decoder, encoding="utf-8")
    (out / "kniffel.zip").write_bytes(zipped)
    digest = hashlib.sha256(zipped)
    digest.update(decoder.encode())
    tables = []
    (out / TABLES_FOLDER).mkdir(exist_ok=True)
    for inside, table in sorted({**expert_tables(), **expert_models()}.items()):
        name = f"{TABLES_FOLDER}/{inside.rsplit('/', 1)[1]}"
        (out / name).write_bytes(table)
        digest.update(name.encode() + table)
        tables.append(name)
    statics = sorted(p for p in STATIC_DIR.rglob("*") if p.is_file())
    for p in statics:
        digest.update(p.read_bytes())
    digest.update(version.encode())
    digest.update((out / "pyodide" / "python_stdlib.zip").read_bytes())
    build = digest.hexdigest()[:16]
    info = {**meta(), "build": build, "pyodide": version,
            "expert": advice_view.experts(), "words": advice_view.page_words()}
    (out / "meta.json").write_text(json.dumps(info, ensure_ascii=False), encoding="utf-8")
    # the score pad before the engine runs: the engine's own new games and order of play
    starts = pad_starts()
    (out / "pad-start.json").write_text(json.dumps(starts, ensure_ascii=False), encoding="utf-8")
    # both in index.html as well: the first screen needs no request ("<" escaped as in page_text)
    start = json.dumps({"meta": info, "starts": starts},
                       ensure_ascii=False).replace("<", "\\u003c")
    for size in ICON_SIZES:
        (out / f"icon-{size}.png").write_bytes(_icon(size))
    page = page_data()
    files = ["./", "meta.json", "pad-start.json", "kniffel.zip",
             *(f"icon-{n}.png" for n in ICON_SIZES), *(f"pyodide/{n}" for n in SITE_PYODIDE_FILES),
             jsqr_files.SITE_FILE, *tables]
    for p in statics:
        files.append(p.relative_to(STATIC_DIR).as_posix())
    all_files = list(files)
    for p in statics:
        rel = p.relative_to(STATIC_DIR).as_posix()
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        if p.suffix in (".html", ".js", ".css", ".webmanifest"):
            # The service worker lists every file; every file knows the build id.
            text = p.read_text(encoding="utf-8").replace("__BUILD__", build)
            text = page_text(text.replace("__ASSETS__", json.dumps(files)), p.suffix, page)
            if p.name == "worker.js":
                text = worker_text(text, out, pyodide)
            if p.name == "index.html":
                text = text.replace("__START__", start, 1)
                if not esbuild:  # a bundle is one script: nothing to preload
                    text = text.replace("</head>", preload_links(statics, build) + "</head>", 1)
            (out / rel).write_text(text, encoding="utf-8")
        else:
            shutil.copyfile(p, out / rel)
    if esbuild:
        gone = set(bundle_page(out, esbuild))
        files = [name for name in files if name not in gone]
        for name in gone:
            for suffix in ENCODINGS.values():
                with suppress(FileNotFoundError):
                    (out / (name + suffix)).unlink()  # an earlier build's copies
        sw = out / "sw.js"  # its list of the site's files, without the modules bundled
        sw.write_text(sw.read_text(encoding="utf-8").replace(
            json.dumps(all_files), json.dumps(files)), encoding="utf-8")
    # the production site (bundled) compressed as far as brotli goes
    compressed = write_compressed(out, [name for name in files if name != "./"],
                                  best=bool(esbuild))
    return {"build": build, "pyodide": version, "jsqr": jsqr_version, "files": files,
            "compressed": compressed, "bundled": bool(esbuild), "bytecode": compiled is not None}


#: The files the engine's worker asks for at once, whose unpacked sizes it counts as its progress.
ENGINE_FILES = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "kniffel.zip")


def worker_text(text: str, site: Path, pyodide: Path) -> str:
    """worker.js as the site holds it: Pyodide's lock file's facts (:func:`engine_lock`) and
    the sizes of :data:`ENGINE_FILES` in ``site`` written in."""
    sizes = {name: (site / name).stat().st_size for name in ENGINE_FILES}
    return (text.replace("__PYODIDE_LOCK__", json.dumps(engine_lock(pyodide)))
            .replace("__ENGINE_SIZES__", json.dumps(sizes)))


#: The page's own modules that are no module of the page (the engine's worker, the service
#: worker): not preloaded by the page.
NOT_PAGE_MODULES = ("worker.js", "sw.js")


def preload_links(statics: list[Path], build: str) -> str:
    """The ``<link>`` elements index.html gets at build time: every module of the page
    (``modulepreload``, at the address its imports use), so the browser asks for all of them at
    once instead of one level of imports after the other (on a 4G link each level costs a round
    trip). The first screen's data needs no request: index.html holds it (``page-start``)."""
    links = [f'<link rel="modulepreload" href="{p.name}?b={build}">\n'
             for p in statics if p.suffix == ".js" and p.parent == STATIC_DIR
             and p.name not in NOT_PAGE_MODULES and p.name != "app.js"]
    return "".join(links)


_MIME = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
}


def icon_png(size: int) -> bytes:
    """The app icon (a five on a die, as icon.svg) as a PNG of ``size`` × ``size`` pixels: the
    install prompt of some browsers wants bitmap icons."""
    green, white = bytes((0x1D, 0x5C, 0x3F)), bytes((0xFF, 0xFD, 0xF6))
    unit = size / 512
    pips = [(176, 176), (336, 176), (256, 256), (176, 336), (336, 336)]

    def span(center: float, half: float) -> tuple[int, int]:
        """The pixel columns whose centres lie within ``half`` of ``center`` (icon units)."""
        return (max(0, math.ceil((center - half) * unit - 0.5)),
                min(size, math.floor((center + half) * unit - 0.5) + 1))

    rows = []
    for py in range(size):
        y = (py + 0.5) / unit
        row = bytearray(green * size)
        if 96 <= y <= 416:  # the die: a square from 96 to 416 with corners of radius 56
            dy = max(0.0, abs(y - 256) - (160 - 56))
            lo, hi = span(256, 160 - 56 + math.sqrt(max(0.0, 56 ** 2 - dy ** 2)))
            row[lo * 3:hi * 3] = white * (hi - lo)
        for cx, cy in pips:
            if abs(y - cy) <= 30:
                lo, hi = span(cx, math.sqrt(30 ** 2 - (y - cy) ** 2))
                row[lo * 3:hi * 3] = green * (hi - lo)
        rows.append(b"\0" + bytes(row))  # filter type 0

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


@cache
def _icon(size: int) -> bytes:
    return icon_png(size)


def chosen_encoding(accept: str | None, available: list[str]) -> str | None:
    """The content coding of ``available`` (in the server's order of preference) that a
    request's ``Accept-Encoding`` header accepts with the highest weight (``q`` > 0; ``*``
    stands for any coding it does not name), or None: send the file as it is."""
    weights: dict[str, float] = {}
    for part in (accept or "").split(","):
        name, *params = part.split(";")
        weight = 1.0
        for param in params:
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        name = name.strip().lower()
        if name:
            weights["gzip" if name == "x-gzip" else name] = weight
    best: tuple[float, str] | None = None
    for encoding in available:
        weight = weights.get(encoding, weights.get("*", 0.0))
        if weight > 0 and (best is None or weight > best[0]):
            best = (weight, encoding)
    return best[1] if best else None


class _Handler(SimpleHTTPRequestHandler):
    """Serves the site's files; a file with compressed copies beside it (``X.br``, ``X.gz``)
    goes out as the copy the request accepts (brotli first) with ``Content-Encoding``, the
    file's own type and ``Vary: Accept-Encoding``, unless ``compress`` is off."""

    def __init__(self, *args: Any, compress: bool = True, **kwargs: Any) -> None:
        self.compress = compress
        self._encoding: str | None = None  # of the copy this request is answered with
        self._sent: str | None = None  # that copy's path
        self._original = ""  # the path of the file it is a copy of
        self._vary = False  # whether the file has copies (caches must tell the answers apart)
        super().__init__(*args, **kwargs)

    def send_head(self) -> Any:
        self._encoding, self._sent, self._vary = None, None, False
        path = super().translate_path(self.path)
        if os.path.isdir(path) and urlsplit(self.path).path.endswith("/"):
            path = os.path.join(path, "index.html")
        if os.path.isfile(path):
            available = [e for e, suffix in ENCODINGS.items() if os.path.isfile(path + suffix)]
            self._vary = bool(available)
            encoding = chosen_encoding(self.headers.get("Accept-Encoding"), available) \
                if self.compress else None
            if encoding is not None:
                self._encoding, self._sent = encoding, path + ENCODINGS[encoding]
                self._original = path
        # The base class answers (304s, Content-Length and Last-Modified of the file sent:
        # translate_path and guess_type below hand it the copy and the original's type).
        return super().send_head()

    def translate_path(self, path: str) -> str:
        return self._sent or super().translate_path(path)

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        self._encoding = None  # an error page goes out as it is
        super().send_error(code, message, explain)

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        if self._sent is not None and os.fspath(path) == self._sent:
            path = self._original
        return _MIME.get(Path(path).suffix.lower()) or super().guess_type(path)

    def end_headers(self) -> None:
        if self._encoding is not None:
            self.send_header("Content-Encoding", self._encoding)
        if self._vary:
            self.send_header("Vary", "Accept-Encoding")
        # Revalidate every file (cheap 304s): a new build shows at the next reload.
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if os.environ.get("KNIFFEL_WEB_LOG"):
            super().log_message(format, *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that drops a connection (reload, closed tab) is no error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _bind(host: str, port: int, directory: str, compress: bool = True) -> _Server:
    """The server of ``directory`` listening on ``host``:``port`` (with the files' compressed
    copies if ``compress``); a port in use, one this program may not open, or an address that
    is not this machine's as a :class:`WebSetupError` that names it."""
    import errno

    try:
        return _Server((host, port), partial(_Handler, directory=directory, compress=compress))
    except socket.gaierror:
        pass  # a host name that does not resolve
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise WebSetupError(f"{host}:{port} is already in use", code="web.port_in_use",
                                params={"host": host, "port": port}) from None
        if e.errno in (errno.EACCES, errno.EPERM):
            raise WebSetupError(f"{host}:{port} may not be opened", code="web.port_denied",
                                params={"host": host, "port": port}) from None
        if e.errno != errno.EADDRNOTAVAIL:
            raise
    raise WebSetupError(f"{host} is not an address of this machine",
                        code="web.address_unknown", params={"host": host})


@contextmanager
def running_server(host: str = "127.0.0.1", port: int = 0, *, compress: bool = True,
                   bundle: bool | None = False) -> Iterator[tuple[str, Path]]:
    """Build the site in a temporary directory and serve it in a background thread; yields the
    address and the site directory, and stops the server on exit. ``compress=False`` sends
    every file as it is (for measuring what the compressed copies save); ``bundle`` as
    :func:`build_site` (the tests keep the page's modules, the benchmarks bundle them)."""
    with tempfile.TemporaryDirectory(prefix="kniffel-web-") as tmp:
        # first: a busy port is told before the site is built
        server = _bind(host, port, tmp, compress=compress)
        try:
            build_site(tmp, bundle=bundle)
        except BaseException:
            server.server_close()
            raise
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            shown = "127.0.0.1" if host in ("", "0.0.0.0") else host
            yield f"http://{shown}:{server.server_address[1]}/", Path(tmp)
        finally:
            server.shutdown()
            server.server_close()


def lan_address() -> str:
    """This machine's address on the local network (the route out; nothing is sent), or a
    placeholder when there is none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "<this machine's address>"


def serve(host: str, port: int, open_browser: bool, echo: Any = print,
          lang: Lang = "de") -> None:
    """Serve the app until interrupted; print the address (in ``lang``) and open a browser if
    asked."""
    from kniffel.engine.messages import text

    with running_server(host, port) as (url, _):
        echo(text("web.serving", lang, url=url))
        if host in ("", "0.0.0.0"):
            port_part = url.rsplit(":", 1)[1]
            echo(text("web.lan", lang, url=f"http://{lan_address()}:{port_part}"))
            echo(text("web.lan_limits", lang))  # plain http there: no secure context
        if open_browser:
            with suppress(webbrowser.Error):
                webbrowser.open(url)
        threading.Event().wait()
