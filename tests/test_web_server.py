"""`kniffel web`: the static site (export) and the local server."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest
import segno
from click.testing import CliRunner

from conftest import missing
from kniffel.browser import advice_view
from kniffel.cli import main
from kniffel.engine import expert_model
from kniffel.engine.rules import preset
from kniffel.web import jsqr_files, server
from kniffel.web.jsqr_files import JSQR_SCRIPT
from kniffel.web.pyodide_stdlib import STDLIB_FILES
from kniffel.web.server import (
    ENCODINGS,
    WebSetupError,
    brotli_module,
    build_site,
    chosen_encoding,
    expert_models,
    find_jsqr,
    find_pyodide,
    icon_png,
    jsqr_module,
    package_zip,
    running_server,
)


@pytest.mark.solve
def test_export_writes_a_complete_static_site(tmp_path: Path) -> None:
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["web", "--export", str(out)])
    assert result.exit_code == 0, result.output
    for name in ("index.html", "icon-192.png", "icon-512.png",
                 "app.js", "worker.js", "sw.js", "style.css", "meta.json",
                 "manifest.webmanifest", "icon.svg", "kniffel.zip", "pyodide/pyodide.mjs",
                 "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"):
        assert (out / name).is_file(), name
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    assert meta["presets"][0]["name"] == "extreme"
    assert meta["build"] in (out / "worker.js").read_text(encoding="utf-8")
    assert "__BUILD__" not in (out / "index.html").read_text(encoding="utf-8")
    for name in ("index.html", "app.js", "pyodide/pyodide.asm.wasm"):  # for static hosts
        assert (out / f"{name}.gz").is_file(), name


@pytest.mark.solve
def test_service_worker_lists_every_file_of_the_site(tmp_path: Path) -> None:
    info = build_site(tmp_path)
    sw = (tmp_path / "sw.js").read_text(encoding="utf-8")
    listed = json.loads(sw.split("const ASSETS = ", 1)[1].split(";\n", 1)[0])
    assert listed == info["files"]
    for name in listed:
        assert name == "./" or (tmp_path / name).is_file(), name
    on_disk = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    copies = {f"{name}{suffix}" for name in info["compressed"] for suffix in ENCODINGS.values()}
    assert on_disk - copies <= {*listed}  # the compressed copies go as their files' encodings
    assert {name for name in on_disk if name.endswith((".gz", ".br"))} <= copies


@pytest.mark.solve  # builds the whole site: Pyodide compressed, seconds
def test_build_writes_compressed_copies_that_unpack_to_the_same_bytes(tmp_path: Path) -> None:
    info = build_site(tmp_path)
    brotli = brotli_module()
    assert {"index.html", "app.js", "style.css", "sw.js", "pyodide/pyodide.asm.wasm",
            "pyodide/pyodide.asm.mjs"} <= set(info["compressed"])
    for name, sizes in info["compressed"].items():
        plain = (tmp_path / name).read_bytes()
        packed = (tmp_path / f"{name}.gz").read_bytes()
        assert packed[4:8] == b"\0\0\0\0", "gzip time 0: the same build, the same bytes"
        assert gzip.decompress(packed) == plain, name
        assert sizes["gzip"] == len(packed) <= 0.95 * len(plain), name
        if brotli is not None:
            assert brotli.decompress((tmp_path / f"{name}.br").read_bytes()) == plain, name
            assert sizes["br"] < sizes["gzip"], name
    for name in ("icon-192.png",):
        # already compressed (PNG): gzip would save under 5 %
        assert name not in info["compressed"]
        assert not (tmp_path / f"{name}.gz").exists(), name


@pytest.mark.solve  # builds the whole site: Pyodide compressed, seconds
def test_the_site_zips_are_stored_so_transport_compression_packs_them_whole(
        tmp_path: Path) -> None:
    """kniffel.zip and Pyodide's stdlib are stored, not deflated, and go brotli-compressed:
    together less than half of what the deflated zips were (issue 30); the stdlib holds only
    the members the engine runs on (STDLIB_FILES and their folders), unchanged (issue 42)."""
    info = build_site(tmp_path)
    stdlib = find_pyodide() / "python_stdlib.zip"
    for name in ("kniffel.zip", "pyodide/python_stdlib.zip"):
        with zipfile.ZipFile(tmp_path / name) as zf:
            assert {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_STORED}, name
        assert info["compressed"][name]["gzip"] < 0.5 * (tmp_path / name).stat().st_size
    with zipfile.ZipFile(stdlib) as theirs, zipfile.ZipFile(
            tmp_path / "pyodide/python_stdlib.zip") as ours:
        kept = [n for n in ours.namelist() if not n.endswith("/")]
        assert sorted(kept) == sorted(STDLIB_FILES)
        assert set(ours.namelist()) < set(theirs.namelist())
        for name in kept:
            assert ours.read(name) == theirs.read(name)
    if brotli_module() is not None:
        # 0.64-0.71 MB of Pyodide 314's 1.79 MB (the whole archive, stored, brotli)
        assert info["compressed"]["pyodide/python_stdlib.zip"]["br"] < 0.35 * stdlib.stat().st_size
        assert info["compressed"]["kniffel.zip"]["br"] < 1_000_000


@pytest.mark.solve  # builds the whole site: Pyodide compressed, seconds
def test_the_classic_tables_are_files_of_their_own_outside_the_package(tmp_path: Path) -> None:
    """A Kniffel Extreme visit never loads the classic rule sets' tables: they are not in
    kniffel.zip but in tables/, listed for the service worker (offline after the first visit)."""
    info = build_site(tmp_path)
    names = zipfile.ZipFile(tmp_path / "kniffel.zip").namelist()
    assert not [n for n in names if "/tables/" in n]
    classic = [r for r in advice_view.browser_rule_sets() if not r.d10]
    for rules in classic:
        name = f"tables/{advice_view.table_file_name(rules)}"
        assert (tmp_path / name).stat().st_size > 1_000_000
        assert name in info["files"]
    # Kniffel Extreme's model too: its first total needs no expert
    assert not [n for n in names if "expert-extreme" in n]
    assert "tables/expert-extreme.packed" in info["files"]
    assert (tmp_path / "tables/expert-extreme.packed").read_bytes().startswith(
        expert_model.PACKED_MAGIC)


@pytest.mark.solve
def test_a_new_export_replaces_the_compressed_copies_of_the_earlier_one(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(out)
    stale = out / "icon-192.png.gz"  # a copy of contents the new build does not compress
    stale.write_bytes(gzip.compress(b"an earlier build"))
    (out / "app.js.gz").write_bytes(gzip.compress(b"an earlier app.js"))
    result = CliRunner().invoke(main, ["web", "--export", str(out)])
    assert result.exit_code == 0, result.output  # still recognised as an earlier export
    assert not stale.exists()
    assert gzip.decompress((out / "app.js.gz").read_bytes()) == (out / "app.js").read_bytes()


def test_encoding_follows_the_request_accept_encoding_by_weight_brotli_first() -> None:
    both = ["br", "gzip"]
    assert chosen_encoding("gzip, deflate, br, zstd", both) == "br"
    assert chosen_encoding("gzip, deflate", both) == "gzip"
    assert chosen_encoding("x-gzip", both) == "gzip"
    assert chosen_encoding("br;q=0, gzip", both) == "gzip"
    assert chosen_encoding("br;q=0.5, GZIP;q=0.8", both) == "gzip"
    assert chosen_encoding("*", both) == "br"
    assert chosen_encoding("*;q=0, gzip", both) == "gzip"
    assert chosen_encoding("identity", both) is None
    assert chosen_encoding(None, both) is None
    assert chosen_encoding("", both) is None
    assert chosen_encoding("br, gzip", []) is None
    assert chosen_encoding("br, gzip", ["gzip"]) == "gzip"
    assert chosen_encoding("br;q=nonsense, gzip", both) == "gzip"


def _fetch(url: str, method: str = "GET", accept: str | None = None) -> tuple[Any, bytes]:
    headers = {"Accept-Encoding": accept} if accept else {}
    request = urllib.request.Request(url, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as r:
        return r.headers, r.read()


@pytest.mark.solve
def test_server_sends_the_compressed_copy_the_browser_accepts_with_the_file_type() -> None:
    brotli = brotli_module()
    with running_server() as (url, site):
        wasm = (site / "pyodide" / "pyodide.asm.wasm").read_bytes()
        wasm_url = url + "pyodide/pyodide.asm.wasm"
        headers, body = _fetch(wasm_url)
        assert body == wasm
        assert headers["Content-Encoding"] is None
        assert headers["Vary"] == "Accept-Encoding"
        assert headers["Cache-Control"] == "no-cache"
        headers, body = _fetch(wasm_url, accept="gzip, deflate")
        assert headers["Content-Encoding"] == "gzip"
        assert headers["Content-Type"] == "application/wasm"
        assert headers["Vary"] == "Accept-Encoding"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert int(headers["Content-Length"]) == len(body) < len(wasm) / 2
        assert gzip.decompress(body) == wasm
        again = urllib.request.Request(wasm_url, headers={
            "Accept-Encoding": "gzip", "If-Modified-Since": headers["Last-Modified"]})
        with pytest.raises(urllib.error.HTTPError) as unchanged:
            urllib.request.urlopen(again, timeout=30)
        assert unchanged.value.code == 304  # the browser's cached copy is still good
        assert unchanged.value.headers["Vary"] == "Accept-Encoding"
        headers, body = _fetch(url + "app.js", accept="gzip")
        assert headers["Content-Type"] == "text/javascript"
        assert gzip.decompress(body) == (site / "app.js").read_bytes()
        headers, body = _fetch(url, accept="gzip")  # the page itself: index.html
        assert headers["Content-Type"].startswith("text/html")
        assert gzip.decompress(body) == (site / "index.html").read_bytes()
        headers, body = _fetch(url + "icon-192.png", accept="gzip")  # no copy: as it is
        assert headers["Content-Encoding"] is None
        assert headers["Vary"] is None
        assert body == (site / "icon-192.png").read_bytes()
        headers, body = _fetch(url + "kniffel.zip", accept="gzip")  # stored: compressed here
        assert headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(body) == (site / "kniffel.zip").read_bytes()
        if brotli is not None:
            headers, body = _fetch(wasm_url, accept="gzip, deflate, br")
            assert headers["Content-Encoding"] == "br"
            assert headers["Content-Type"] == "application/wasm"
            assert int(headers["Content-Length"]) == len(body)
            assert brotli.decompress(body) == wasm
            headers, body = _fetch(wasm_url, method="HEAD", accept="br")
            assert body == b""
            assert headers["Content-Encoding"] == "br"
            assert int(headers["Content-Length"]) == (site / "pyodide/pyodide.asm.wasm.br"
                                                      ).stat().st_size


@pytest.mark.solve  # builds the whole site: Pyodide compressed, seconds
def test_server_with_compression_off_sends_every_file_as_it_is() -> None:
    with running_server(compress=False) as (url, site):
        headers, body = _fetch(url + "pyodide/pyodide.asm.wasm", accept="br, gzip")
        assert headers["Content-Encoding"] is None
        assert headers["Content-Type"] == "application/wasm"
        assert body == (site / "pyodide" / "pyodide.asm.wasm").read_bytes()


@pytest.mark.solve
def test_browser_package_holds_the_engine_without_the_command_line(tmp_path: Path) -> None:
    names = zipfile.ZipFile(io.BytesIO(package_zip())).namelist()
    assert "kniffel/engine/rules.py" in names
    assert "kniffel/browser/bridge.py" in names
    assert not any(n.startswith("kniffel/cli/") for n in names)
    assert "kniffel/errors.py" not in names  # the desktop's errors: history, files
    assert "kniffel/web/server.py" not in names
    assert "kniffel/engine/strategy.py" in names  # the computer players, pure Python without numpy
    assert "kniffel/engine/expert.py" in names
    assert "kniffel/engine/expert_model.py" in names
    assert "kniffel/expert_fit.py" not in names  # fitting the model needs numpy: desktop
    for desktop in ("tui/app.py", "tui/view.py", "history.py", "simulate.py", "solver/kernel.py",
                    "solver/advise.py"):
        assert f"kniffel/{desktop}" not in names, "numpy, numba and textual are not in the browser"
    assert package_zip() == package_zip()  # reproducible: the build id follows the content
    zipped = tmp_path / "kniffel.zip"
    zipped.write_bytes(package_zip())
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import kniffel.browser.bridge as b; "
            "assert b.__file__.startswith(sys.argv[1]), b.__file__; "
            "assert not {'click', 'rich', 'numpy', 'numba'} & set(sys.modules); "
            "sys.modules['numpy'] = None; "  # as in the browser: import numpy fails
            "import kniffel.engine.strategy as s; from kniffel.engine.rules import preset; "
            "g = s.get_strategy('greedy', preset('kniffel')); assert not g.use_numpy; "
            "print('ok')")
    done = subprocess.run([sys.executable, "-c", code, str(zipped)], capture_output=True,
                          text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


@pytest.mark.solve
def test_the_site_holds_the_model_packed_with_the_same_parameters_beside_kniffel_zip() -> None:
    """The browser reads the expert's model packed (milliseconds, not most of a second of JSON
    before the first hint); it is the package's JSON model, checked when the site is built, and
    a file of its own (a first visit's engine does not wait for it): kniffel.zip holds neither
    copy."""
    raw = expert_model.model_bytes(preset("extreme"))
    if raw is None:
        pytest.skip("no model file in the package yet")
    names = zipfile.ZipFile(io.BytesIO(package_zip())).namelist()
    assert "kniffel/engine/data/expert-extreme.json" not in names
    assert "kniffel/engine/data/expert-extreme.packed" not in names
    assert list(expert_models()) == ["kniffel/engine/data/expert-extreme.packed"]
    packed = expert_models()["kniffel/engine/data/expert-extreme.packed"]
    assert packed.startswith(expert_model.PACKED_MAGIC)
    ours = expert_model.model_from_bytes(preset("extreme"), packed)
    theirs = expert_model.model_from_bytes(preset("extreme"), raw)
    for name in ("layer", "box", "chip", "pair", "upper", "upper_lower"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.meta == theirs.meta


def test_icons_are_pngs_of_their_size() -> None:
    for size in (192, 512):
        png = icon_png(size)
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert png[16:24] == size.to_bytes(4, "big") * 2  # IHDR width, height


def test_export_without_pyodide_says_to_run_npm_ci(tmp_path: Path) -> None:
    with pytest.raises(WebSetupError, match="npm ci"):
        build_site(tmp_path / "site", pyodide_dir=tmp_path)


def test_export_into_a_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["web", "--export", str(target), "--lang", "en"])
    assert result.exit_code == 2
    assert result.output == f"kniffel web: {target} is a file, not a folder.\n"


@pytest.mark.solve
def test_server_serves_the_site_with_the_right_types() -> None:
    with running_server() as (url, _):
        def get(path: str) -> tuple[str, bytes]:
            with urllib.request.urlopen(url + path, timeout=10) as r:
                return r.headers["Content-Type"], r.read()
        kind, body = get("")
        assert kind.startswith("text/html")
        assert b'aria-busy="true"' in body
        assert b"Content-Security-Policy\" content=\"default-src 'self'" in body
        assert get("pyodide/pyodide.asm.wasm")[0] == "application/wasm"
        assert get("worker.js")[0] == "text/javascript"
        assert get("manifest.webmanifest")[0] == "application/manifest+json"
        with pytest.raises(urllib.error.HTTPError, match="404"):
            get("nothing-here")


@pytest.mark.solve
def test_kniffel_web_prints_its_address_and_serves_until_stopped() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "kniffel", "web", "--port", "0",
                             "--no-browser"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("kniffel web: http://127.0.0.1:")
        url = line.split()[2]
        with urllib.request.urlopen(url + "meta.json", timeout=10) as r:
            assert json.loads(r.read())["presets"][0]["name"] == "extreme"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# --- the QR code decoder jsQR, a file of the site ------------------------------------------------


def test_the_site_decoder_is_jsqr_wrapped_as_an_es_module_that_decodes_a_code(
    tmp_path: Path,
) -> None:
    """vendor/jsqr.js is the npm package's script unchanged between a first line that gives it
    a ``module`` and a last that exports what it put there; Node imports it as a module and it
    reads a QR code drawn by segno (as the table draws its codes) from RGBA pixels."""
    node = shutil.which("node")
    if node is None:
        missing("the decoder's module test needs Node (apt-get install nodejs)")
    folder = find_jsqr()
    text, version = jsqr_module(folder)
    assert version == json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    script = (folder / JSQR_SCRIPT).read_text(encoding="utf-8")
    assert script in text
    assert text.endswith(f"{script}\nexport default module.exports;\n")
    module = tmp_path / "jsqr.mjs"
    module.write_text(text, encoding="utf-8")
    code = "kniffel-table:answer:v1:" + "ABCDEFGHJKMNPQRSTVWXYZ23456789" * 3
    rows = [list(row) for row in segno.make(code, error="l", micro=False).matrix]
    scale, side = 4, (len(rows) + 8) * 4
    pixels = bytearray(b"\xff" * side * side * 4)
    for y in range(side):
        for x in range(side):
            i, j = y // scale - 4, x // scale - 4
            if 0 <= i < len(rows) and 0 <= j < len(rows) and rows[i][j]:
                pixels[(y * side + x) * 4:(y * side + x) * 4 + 3] = b"\0\0\0"
    (tmp_path / "frame.rgba").write_bytes(bytes(pixels))
    reader = (f"import jsQR from {json.dumps(module.as_uri())};\n"
              "import { readFileSync } from 'node:fs';\n"
              f"const data = new Uint8ClampedArray(readFileSync({json.dumps(str(tmp_path))} "
              "+ '/frame.rgba'));\n"
              f"console.log(JSON.stringify(jsQR(data, {side}, {side})?.data ?? null));\n")
    done = subprocess.run([node, "--input-type=module", "-e", reader], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == code


def test_the_decoder_is_found_where_kniffel_jsqr_dir_says_and_its_absence_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    copy = tmp_path / "copy"
    (copy / JSQR_SCRIPT).parent.mkdir(parents=True)
    (copy / JSQR_SCRIPT).write_text("/* jsQR */", encoding="utf-8")
    monkeypatch.setenv("KNIFFEL_JSQR_DIR", str(copy))
    assert find_jsqr() in (copy, server.JSQR_COPY)  # the package's own copy comes first
    monkeypatch.setattr(server, "JSQR_COPY", tmp_path / "no-copy")
    assert find_jsqr() == copy
    monkeypatch.delenv("KNIFFEL_JSQR_DIR")
    monkeypatch.setattr(server, "PACKAGE_DIR", tmp_path / "site-packages" / "kniffel")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(WebSetupError) as refused:
        find_jsqr()
    assert refused.value.code == "web.no_jsqr"
    assert "npm ci" in str(refused.value)


@pytest.mark.solve  # builds the whole site: Pyodide compressed, seconds
def test_the_site_serves_the_decoder_for_offline_use_but_never_preloads_it(
    tmp_path: Path,
) -> None:
    """vendor/jsqr.js is listed for the service worker (the camera works offline) and sent
    compressed, but no page loads it before a scan needs it (no modulepreload)."""
    info = build_site(tmp_path)
    site_file = tmp_path / jsqr_files.SITE_FILE
    assert site_file.read_text(encoding="utf-8") == jsqr_module(find_jsqr())[0]
    assert info["jsqr"] == jsqr_module(find_jsqr())[1]
    assert jsqr_files.SITE_FILE in info["files"]
    assert "jsqr" not in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert info["compressed"][jsqr_files.SITE_FILE]["gzip"] < 0.3 * site_file.stat().st_size
    assert f'import("./{jsqr_files.SITE_FILE}?b={info["build"]}")' in \
        (tmp_path / "scan.js").read_text(encoding="utf-8")
