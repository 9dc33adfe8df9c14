"""Which files of the npm package ``pyodide`` the browser app's site needs, in one place: the
site (:mod:`kniffel.web.server`) copies them, and ``setup.py`` puts them into the package
(``kniffel/web/pyodide/``), so an installed wheel serves the app with no checkout and no npm.
The module has no imports, so ``setup.py`` can read it before the package is installed.
"""

#: The files the site copies (the loader, the interpreter, its standard library, the lock file).
PYODIDE_FILES: tuple[str, ...] = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                                  "python_stdlib.zip", "pyodide-lock.json")

#: What the package's copy holds besides: the npm package's metadata (its version, which the
#: site reports, and its licence, MPL-2.0).
PACKAGE_COPY: tuple[str, ...] = (*PYODIDE_FILES, "package.json")

#: Where the package's copy lies, relative to ``kniffel/web``.
COPY_FOLDER = "pyodide"
