"""The solver's C kernel and the browser app's Pyodide and jsQR (everything else is in
pyproject.toml).

``kniffel.solver._kernel`` is a plain shared library (no Python API), loaded with ctypes by
:mod:`kniffel.solver.kernel`. Strict IEEE arithmetic (no fused multiply-add, no fast-math), so
every machine computes the same tables; the hot loops are compiled twice, for AVX2 (with
``vmaxps``/``vmaxpd``) and for the baseline, and each call runs the one the CPU has. The
extension is optional: without a C compiler kniffel still installs, and the solver says in one
sentence what to do (``solver.kernel_missing``).

Pyodide (the browser app's Python) comes from the npm package ``pyodide`` (``npm ci``, pinned by
package-lock.json): the wheel carries the files the site needs in ``kniffel/web/pyodide/``
(:mod:`kniffel.web.pyodide_files`), copied at build time from ``node_modules/pyodide`` (or
``$KNIFFEL_PYODIDE_DIR``); the sdist carries them too, so a wheel built from it needs no npm.
The QR code decoder jsQR (npm package ``jsqr``) goes the same way, into ``kniffel/web/jsqr/``
(:mod:`kniffel.web.jsqr_files`; ``$KNIFFEL_JSQR_DIR`` names another copy of the npm package).
An editable install copies nothing: the checkout's ``kniffel web`` reads ``node_modules``.
"""

import os
import runpy
import shutil
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
#: src/kniffel/solver/kernel_flags.py, read without importing the package (not installed yet)
FLAGS = runpy.run_path(str(HERE / "src/kniffel/solver/kernel_flags.py"))
PYODIDE = runpy.run_path(str(HERE / "src/kniffel/web/pyodide_files.py"))
JSQR = runpy.run_path(str(HERE / "src/kniffel/web/jsqr_files.py"))
#: The npm packages the wheel carries: (npm name, the variable that may name another copy of
#: it, its files as :mod:`kniffel.web.pyodide_files` and :mod:`kniffel.web.jsqr_files` say).
NPM_COPIES = (("pyodide", "KNIFFEL_PYODIDE_DIR", PYODIDE), ("jsqr", "KNIFFEL_JSQR_DIR", JSQR))


def npm_source(name: str, variable: str, files: dict[str, Any]) -> Path:
    """Where the files of the npm package ``name`` come from: the source tree's copy (an
    unpacked sdist has it in ``src/kniffel/web/<COPY_FOLDER>``), else ``$variable``, else the
    checkout's ``node_modules/<name>``."""
    candidates = [HERE / "src/kniffel/web" / str(files["COPY_FOLDER"])]
    if os.environ.get(variable):
        candidates.append(Path(os.environ[variable]))
    candidates.append(HERE / "node_modules" / name)
    for folder in candidates:
        if all((folder / str(f)).is_file() for f in files["PACKAGE_COPY"]):
            return folder
    raise SystemExit(f"kniffel's wheel carries the npm package {name}, but node_modules/{name} "
                     "is missing or incomplete: run `npm ci` in the project folder first")


def copy_npm(target: Path) -> None:
    """Copy the files of every package of :data:`NPM_COPIES` (their ``PACKAGE_COPY``) into
    ``target`` (``kniffel/web``), each into its ``COPY_FOLDER``."""
    for name, variable, files in NPM_COPIES:
        source = npm_source(name, variable, files)
        folder = target / str(files["COPY_FOLDER"])
        if source.resolve() == folder.resolve():
            continue
        for file in files["PACKAGE_COPY"]:
            (folder / file).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / file, folder / file)


class BuildPy(build_py):
    """build_py, and Pyodide and jsQR into the built package (not for an editable install)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            copy_npm(Path(self.build_lib) / "kniffel/web")


class Sdist(sdist):
    """sdist, and Pyodide and jsQR into the source tree it packs (``src/kniffel/web/pyodide/``,
    ``src/kniffel/web/jsqr/``)."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        copy_npm(Path(base_dir) / "src/kniffel/web")


setup(
    cmdclass={"build_py": BuildPy, "sdist": Sdist},
    ext_modules=[
        Extension(
            "kniffel.solver._kernel",
            sources=["src/kniffel/solver/_kernel.c"],
            depends=["src/kniffel/solver/_kernel_body.h"],
            extra_compile_args=list(FLAGS["COMPILE_ARGS"]),
            py_limited_api=False,
            # no C compiler: kniffel installs without the kernel (the solver then says so)
            optional=True,
        )
    ],
)
