"""Write src/kniffel/web/pyodide_stdlib.py: the members of Pyodide's standard library that the
browser app's engine runs on (run after a Pyodide update or when the engine imports something new;
tests/test_web_stdlib.py says when).

Usage: .venv/bin/python scripts/pyodide_stdlib.py

Builds the site in a temporary folder and runs ``node scripts/pyodide_imports.mjs`` on it with
Pyodide's whole standard library (the npm package's ``python_stdlib.zip``): every member whose
module is loaded once the engine has started, imported every module the browser package can import
and answered refused requests is kept.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from kniffel.web.server import build_site, find_pyodide

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "src" / "kniffel" / "web" / "pyodide_stdlib.py"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="kniffel-stdlib-") as tmp:
        build_site(tmp)
        out = subprocess.run(["node", str(ROOT / "scripts" / "pyodide_imports.mjs"), tmp,
                              "--stdlib", str(find_pyodide() / "python_stdlib.zip")],
                             check=True, capture_output=True, text=True)
    found = json.loads(out.stdout)
    text = TARGET.read_text(encoding="utf-8")
    head = text[:text.index("#: The Python version")]
    body = "".join(f'    "{name}",\n' for name in found["files"])
    TARGET.write_text(
        f"{head}#: The Python version of the Pyodide these were found with (its "
        f"``sys.version_info[:3]``).\nPYTHON: tuple[int, int, int] = {tuple(found['python'])!r}\n\n"
        "#: The standard library's files the site keeps, by their names in "
        f"``python_stdlib.zip``.\nSTDLIB_FILES: tuple[str, ...] = (\n{body})\n",
        encoding="utf-8")
    print(f"{TARGET}: {len(found['files'])} files; not in this Pyodide at all: "
          f"{', '.join(sorted(found['missing'])) or 'none'}", file=sys.stderr)


if __name__ == "__main__":
    main()
