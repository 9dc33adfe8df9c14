"""The solver's C kernel and the browser app's Pyodide (everything else is in pyproject.toml).

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
An editable install copies nothing: the checkout's ``kniffel web`` reads ``node_modules``.
"""

import os
import runpy
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
#: src/kniffel/solver/kernel_flags.py, read without importing the package (not installed yet)
FLAGS = runpy.run_path(str(HERE / "src/kniffel/solver/kernel_flags.py"))
PYODIDE = runpy.run_path(str(HERE / "src/kniffel/web/pyodide_files.py"))
#: The package's copy inside the source tree: only an unpacked sdist has it.
IN_SOURCE = HERE / "src/kniffel/web" / PYODIDE["COPY_FOLDER"]


def pyodide_source() -> Path:
    """Where the files of Pyodide come from: the source tree's copy (an unpacked sdist), else
    ``$KNIFFEL_PYODIDE_DIR``, else the checkout's ``node_modules/pyodide``."""
    candidates = [IN_SOURCE]
    if os.environ.get("KNIFFEL_PYODIDE_DIR"):
        candidates.append(Path(os.environ["KNIFFEL_PYODIDE_DIR"]))
    candidates.append(HERE / "node_modules" / "pyodide")
    for folder in candidates:
        if all((folder / name).is_file() for name in PYODIDE["PACKAGE_COPY"]):
            return folder
    raise SystemExit("kniffel's wheel carries Pyodide, but node_modules/pyodide is missing or "
                     "incomplete: run `npm ci` in the project folder first")


def copy_pyodide(target: Path) -> None:
    """Copy Pyodide's files (:data:`PACKAGE_COPY`) into ``target``."""
    source = pyodide_source()
    if source.resolve() == target.resolve():
        return
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE["PACKAGE_COPY"]:
        shutil.copyfile(source / name, target / name)


class BuildPy(build_py):
    """build_py, and Pyodide into the built package (not for an editable install)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            copy_pyodide(Path(self.build_lib) / "kniffel/web" / PYODIDE["COPY_FOLDER"])


class Sdist(sdist):
    """sdist, and Pyodide into the source tree it packs (``src/kniffel/web/pyodide/``)."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        copy_pyodide(Path(base_dir) / "src/kniffel/web" / PYODIDE["COPY_FOLDER"])


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
