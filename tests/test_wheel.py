"""The wheel is the whole product: built from a clean copy of the tracked files, installed into a
fresh virtual environment, run from a folder with no checkout and no npm, it prints its version,
scores a roll, and exports the browser app, whose static site plays a game in Chromium.

How it installs, offline and in seconds: a new venv (no pip of its own), the wheel installed into
it with ``--no-deps --no-index`` by this interpreter's pip (``pip --python``), and its
dependencies reached through one ``.pth`` line naming this interpreter's site-packages. A ``.pth``
line adds a folder to ``sys.path`` after the venv's own site-packages and does not run the
``.pth`` files in it, so the checkout's editable install (a ``.pth`` hook there) stays off: the
``kniffel`` that runs is the wheel's, which the test checks, as it checks that the site's
Pyodide is the wheel's own copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from test_static_site import play_to_first_score, static_server

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"
JSQR = ROOT / "node_modules" / "jsqr"


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300,
         ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, f"{args}: {done.stdout}{done.stderr}"
    return done


def _clean_environment() -> dict[str, str]:
    """This test's environment without the checkout's hints: no KNIFFEL_PYODIDE_DIR or
    KNIFFEL_JSQR_DIR, no PYTHONPATH, no active venv."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("KNIFFEL_PYODIDE_DIR", "KNIFFEL_JSQR_DIR", "PYTHONPATH", "VIRTUAL_ENV",
                        "PYTHONHOME")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def build_wheel(tmp_path: Path, env: dict[str, str]) -> Path:
    """The wheel of a clean copy of the tracked files (``git ls-files``: nothing built or
    ignored comes along), Pyodide and jsQR from the checkout's npm packages
    (``KNIFFEL_PYODIDE_DIR``, ``KNIFFEL_JSQR_DIR``)."""
    source = tmp_path / "source"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist),
          str(source)], cwd=tmp_path,
         env={**env, "KNIFFEL_PYODIDE_DIR": str(PYODIDE), "KNIFFEL_JSQR_DIR": str(JSQR)})
    (wheel,) = dist.glob("kniffel-*.whl")
    return wheel


def install(wheel: Path, venv: Path, env: dict[str, str]) -> Path:
    """A fresh venv with ``wheel`` installed (no dependencies: this interpreter's, through a
    ``.pth`` line); returns its ``bin`` folder."""
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=venv.parent, env=env)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
          "--no-deps", "--no-index", "--disable-pip-version-check", str(wheel)],
         cwd=venv.parent, env=env)
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                   cwd=venv.parent, env=env).stdout.strip()
    Path(purelib, "kniffel-test-dependencies.pth").write_text(
        sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    return venv / "bin"


@pytest.mark.solve  # builds the wheel (compiles the kernel) and exports the whole site: minutes
def test_the_wheel_installed_alone_scores_a_roll_and_exports_a_site_that_plays(
    browser: Browser, tmp_path: Path, classic_tables_solved: Path,
) -> None:
    if not (PYODIDE / "pyodide.asm.wasm").is_file():
        pytest.fail("the wheel carries Pyodide from node_modules/pyodide: scripts/setup.sh")
    env = _clean_environment()
    started = time.monotonic()
    wheel = build_wheel(tmp_path, env)
    built = time.monotonic()
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"kniffel/web/pyodide/{n}" for n in
            ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
             "pyodide-lock.json", "package.json")} <= names
    assert {f"kniffel/web/jsqr/{n}" for n in ("dist/jsQR.js", "LICENSE", "package.json")} <= names
    assert "kniffel/engine/words/de.json" in names
    assert "kniffel/web/static/index.html" in names

    away = tmp_path / "elsewhere"  # no checkout, no node_modules here or above
    away.mkdir()
    bin_dir = install(wheel, tmp_path / "venv", env)
    installed = time.monotonic()
    where = _run([str(bin_dir / "python"), "-c",
                  "import kniffel; from kniffel.web.server import find_jsqr, find_pyodide; "
                  "print(kniffel.__file__); print(find_pyodide()); print(find_jsqr())"],
                 cwd=away, env=env)
    module, pyodide, jsqr = where.stdout.split()
    assert Path(module).is_relative_to(tmp_path / "venv")
    assert Path(pyodide).is_relative_to(tmp_path / "venv")
    assert Path(pyodide).name == "pyodide"
    assert Path(pyodide).parent.name == "web"
    assert Path(jsqr) == Path(pyodide).parent / "jsqr"  # the wheel's own copy of the decoder

    version = _run([str(bin_dir / "kniffel"), "--version"], cwd=away, env=env)
    assert version.stdout.startswith("kniffel ")
    score = _run([str(bin_dir / "kniffel"), "score", "--lang", "en", "--rules", "kniffel",
                  "3", "3", "3", "5", "5"], cwd=away, env=env)
    (full_house,) = [line for line in score.stdout.splitlines() if "Full House" in line]
    assert "25" in full_house.split()

    site = away / "site"
    # the session's solver cache (KNIFFEL_CACHE_DIR) holds the classic tables the site ships
    _run([str(bin_dir / "kniffel"), "web", "--export", str(site)], cwd=away, env=env)
    exported = time.monotonic()
    assert (site / "pyodide" / "pyodide.asm.wasm").read_bytes() == \
        (PYODIDE / "pyodide.asm.wasm").read_bytes()
    assert (JSQR / "dist" / "jsQR.js").read_text(encoding="utf-8") in \
        (site / "vendor" / "jsqr.js").read_text(encoding="utf-8")
    with static_server(site) as url:
        assert play_to_first_score(browser, url) == []
    print(f"wheel {wheel.stat().st_size / 1e6:.1f} MB: built in {built - started:.1f} s, "
          f"installed in {installed - built:.1f} s, site exported in {exported - installed:.1f} s"
          f", played in {time.monotonic() - exported:.1f} s")
