"""``kniffel web``: build the browser app's static site and serve it from this machine.

The site holds the page (``static/``), Pyodide from the npm package ``pyodide`` (installed by
``npm ci`` into ``node_modules``), and this package as ``kniffel.zip``, so every request stays on
the same origin. :func:`build_site` writes it (``kniffel web --export DIR``); :func:`serve` serves
a freshly built copy.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import math
import os
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

from kniffel.errors import KniffelError
from kniffel.expert_model import MODEL_FILES, packed_copy
from kniffel.rules import Lang
from kniffel.web import advice_view
from kniffel.web.view import meta

PACKAGE_DIR = Path(__file__).resolve().parent.parent
STATIC_DIR = Path(__file__).resolve().parent / "static"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: Modules left out of the browser's copy of the package: they need click, rich, a server, a
#: terminal, SQLite or numba, none of which the browser has, or only serve the desktop. The
#: computer players (strategy.py, expert.py) go along: without numpy they compute in pure
#: Python; fitting the expert's model (expert_fit.py: numpy and the solver's sample) does not.
BROWSER_EXCLUDES = ("cli.py", "__main__.py", "web/server.py", "tui.py", "history.py", "lang.py",
                    "simulate.py", "solver/", "expert_fit.py")
#: Pure-Python packages (dependencies in pyproject.toml) that go into kniffel.zip as well.
BROWSER_PACKAGES = ("segno",)
ICON_SIZES = (192, 512)


class WebSetupError(KniffelError):
    """The web app cannot be built: Pyodide is not installed, or the target is unusable."""

    default_code = "web.setup"


def find_pyodide() -> Path:
    """The directory of the npm package ``pyodide``: ``$KNIFFEL_PYODIDE_DIR``, else
    ``node_modules/pyodide`` in the current directory or above the package's source."""
    env = os.environ.get("KNIFFEL_PYODIDE_DIR")
    candidates = [Path(env)] if env else []
    for base in (Path.cwd(), *PACKAGE_DIR.parents):
        candidates.append(base / "node_modules" / "pyodide")
    for c in candidates:
        if (c / "pyodide.mjs").is_file():
            return c
    raise WebSetupError("Pyodide is not installed: run `npm ci` in the project directory "
                        "(or set KNIFFEL_PYODIDE_DIR to the npm package's directory)",
                        code="web.no_pyodide")


@cache
def expert_tables() -> dict[str, bytes]:
    """The classic rule sets' exact value tables for the browser's expert, by their place in
    kniffel.zip (``kniffel/web/tables/``): float32 copies (:func:`kniffel.expert.compact_table`)
    of the solver's tables, read from its cache and computed when missing (about a second each
    once numba has compiled the solver). Kniffel Extreme's exact table (2.4 GB) does not fit a
    browser: there the expert uses its fitted model, package data under ``kniffel/data/``."""
    from kniffel.expert import compact_table
    from kniffel.solver.solve import solve

    out = {}
    for rules in advice_view.browser_rule_sets():
        if rules.d10:
            continue
        table = solve(rules)
        if table.path is None:  # pragma: no cover - solve() always stores its table
            continue
        out[f"kniffel/web/tables/{advice_view.table_file_name(rules)}"] = compact_table(
            rules, table.path.read_bytes())
    return out


def package_zip() -> bytes:
    """This package's pure-Python modules as a zip for Pyodide, byte-for-byte reproducible,
    with its data files (``kniffel/data/``: the expert's model, packed: see
    :func:`kniffel.expert_model.pack_model`), the classic rule sets' exact
    tables for the expert (:func:`expert_tables`) and the pure-Python packages they need in the
    browser (``BROWSER_PACKAGES``)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        def add(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)

        for path in sorted(PACKAGE_DIR.rglob("*.py")):
            rel = path.relative_to(PACKAGE_DIR).as_posix()
            if (rel in BROWSER_EXCLUDES or rel.startswith(BROWSER_EXCLUDES)
                    or "__pycache__" in rel):
                continue
            add(f"kniffel/{rel}", path.read_bytes())
        data = PACKAGE_DIR / "data"
        models = {file: name for name, file in MODEL_FILES.items()}
        for path in sorted(data.rglob("*") if data.is_dir() else ()):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".py":
                rel = path.relative_to(PACKAGE_DIR).as_posix()
                if rel == f"data/{path.name}" and path.name in models:
                    # the model packed, checked here first (the browser reads it at once)
                    name, packed = packed_copy(models[path.name], path.read_bytes(),
                                               where=f"kniffel/{rel}")
                    add(f"kniffel/data/{name}", packed)
                else:
                    add(f"kniffel/{rel}", path.read_bytes())
        for name, table in sorted(expert_tables().items()):
            add(name, table)
        for package in BROWSER_PACKAGES:
            root = Path(importlib.import_module(package).__file__ or "").parent
            for path in sorted(root.rglob("*.py")):
                if "__pycache__" not in path.parts:
                    add(f"{package}/{path.relative_to(root).as_posix()}", path.read_bytes())
    return buf.getvalue()


def is_site(folder: Path) -> bool:
    """Whether ``folder`` holds a site :func:`build_site` wrote (its ``meta.json`` with a build
    id, and ``kniffel.zip``): the user's own earlier export, which a new one may replace."""
    try:
        info = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and "build" in info and (folder / "kniffel.zip").is_file()


def build_site(target: str | os.PathLike[str], pyodide_dir: Path | None = None, *,
               force: bool = False) -> dict[str, Any]:
    """Write the static site to ``target`` and return its build facts: build id, Pyodide
    version, the files. ``target`` is created if missing; an existing folder must be empty or
    hold an earlier site (:func:`is_site`; its files are replaced, others kept), unless
    ``force``: nothing the user did not ask for is overwritten."""
    out = Path(target)
    if out.exists() and not out.is_dir():
        raise WebSetupError(f"{out} exists and is not a directory", code="web.not_a_folder",
                            params={"where": str(out)})
    if not force and out.is_dir() and any(out.iterdir()) and not is_site(out):
        raise WebSetupError(f"{out} is not empty and holds no kniffel site",
                            code="web.export_not_empty", params={"where": str(out)})
    pyodide = pyodide_dir or find_pyodide()
    missing = [n for n in PYODIDE_FILES if not (pyodide / n).is_file()]
    if missing:
        raise WebSetupError(f"{pyodide} is not a complete Pyodide package (missing "
                            f"{', '.join(missing)}): run `npm ci`",
                            code="web.pyodide_incomplete", params={"where": str(pyodide)})
    version = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))["version"] \
        if (pyodide / "package.json").is_file() else "unknown"
    out.mkdir(parents=True, exist_ok=True)
    (out / "pyodide").mkdir(exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide / name, out / "pyodide" / name)
    zipped = package_zip()
    (out / "kniffel.zip").write_bytes(zipped)
    digest = hashlib.sha256(zipped)
    statics = sorted(p for p in STATIC_DIR.rglob("*") if p.is_file())
    for p in statics:
        digest.update(p.read_bytes())
    digest.update(version.encode())
    build = digest.hexdigest()[:16]
    info = {**meta(), "build": build, "pyodide": version,
            "expert": advice_view.experts(), "words": advice_view.page_words()}
    (out / "meta.json").write_text(json.dumps(info, ensure_ascii=False), encoding="utf-8")
    for size in ICON_SIZES:
        (out / f"icon-{size}.png").write_bytes(_icon(size))
    files = ["./", "meta.json", "kniffel.zip", *(f"icon-{n}.png" for n in ICON_SIZES),
             *(f"pyodide/{n}" for n in PYODIDE_FILES)]
    for p in statics:
        files.append(p.relative_to(STATIC_DIR).as_posix())
    for p in statics:
        rel = p.relative_to(STATIC_DIR).as_posix()
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        if p.suffix in (".html", ".js", ".css", ".webmanifest"):
            # The service worker lists every file; every file knows the build id.
            text = p.read_text(encoding="utf-8").replace("__BUILD__", build)
            (out / rel).write_text(text.replace("__ASSETS__", json.dumps(files)),
                                   encoding="utf-8")
        else:
            shutil.copyfile(p, out / rel)
    return {"build": build, "pyodide": version, "files": files}


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


class _Handler(SimpleHTTPRequestHandler):
    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return _MIME.get(Path(path).suffix.lower()) or super().guess_type(path)

    def end_headers(self) -> None:
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


def _bind(host: str, port: int, directory: str) -> _Server:
    """The server of ``directory`` listening on ``host``:``port``; a port in use, one this
    program may not open, or an address that is not this machine's as a :class:`WebSetupError`
    that names it."""
    import errno

    try:
        return _Server((host, port), partial(_Handler, directory=directory))
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
def running_server(host: str = "127.0.0.1", port: int = 0) -> Iterator[tuple[str, Path]]:
    """Build the site in a temporary directory and serve it in a background thread; yields the
    address and the site directory, and stops the server on exit."""
    with tempfile.TemporaryDirectory(prefix="kniffel-web-") as tmp:
        server = _bind(host, port, tmp)  # first: a busy port is told before the site is built
        try:
            build_site(tmp)
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
    from kniffel.messages import text

    with running_server(host, port) as (url, _):
        echo(text("web.serving", lang, url=url))
        if host in ("", "0.0.0.0"):
            port_part = url.rsplit(":", 1)[1]
            echo(text("web.lan", lang, url=f"http://{lan_address()}:{port_part}"))
        if open_browser:
            with suppress(webbrowser.Error):
                webbrowser.open(url)
        threading.Event().wait()
