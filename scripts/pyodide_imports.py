"""Run by scripts/pyodide_imports.mjs in Pyodide, after the engine's start: imports every module
the browser package can import and answers the JSON object the script prints (see there)."""

import ast
import importlib
import json
import sys
import traceback
from pathlib import Path

LIB = Path("/home/pyodide/lib")


def module_file(name):
    """The file of module ``name`` in kniffel.zip's folder, or None (the standard library's)."""
    base = LIB.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


# Every module the browser package can import: from each of its modules, every module named in
# an import statement (at the top or inside a function), followed through the packages in
# kniffel.zip (segno's modules that it imports, theirs in turn); the standard library's are
# imported, which runs their own imports.
names = set()
todo = sorted(LIB.joinpath("kniffel").rglob("*.py"))
seen = set()
while todo:
    path = todo.pop()
    if path in seen:
        continue
    seen.add(path)
    rel = path.relative_to(LIB).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    package = parts if rel.name == "__init__" else parts[:-1]
    names.add(".".join(parts))
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    for name in found:
        names.add(name)
        file = module_file(name)
        if file is not None:
            todo.append(file)
# The desktop's parts of kniffel are not in kniffel.zip: an import of them is no module of the
# browser package (the modules that name one import it only where they run on a desktop).
shipped = {"kniffel", "kniffel.engine", "kniffel.browser"}
missing = {}
for name in sorted(names):
    if name.startswith("kniffel.") and not any(name == s or name.startswith(s + ".")
                                               for s in shipped):
        continue
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as e:
        parent = name.rpartition(".")[0]
        if e.name != name or not parent or parent not in sys.modules:
            missing[name] = repr(e)  # (a "from m import name" of a value is no module: skipped)
    except Exception as e:  # every failure is reported
        missing[name] = repr(e)
# The error paths: a request the bridge refuses, a traceback formatted.
bridge = importlib.import_module("kniffel.browser.bridge")
bridge.handle_json(json.dumps({"op": "no-such-op"}))
bridge.handle_json("{not json")
try:
    raise ValueError("x")
except ValueError:
    traceback.format_exc()
files = set()
zipped = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"
for module in list(sys.modules.values()):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    if origin.startswith(zipped):
        files.add(origin[len(zipped):])
json.dumps({"files": sorted(files), "missing": missing, "python": list(sys.version_info[:3]),
            "imported": sorted(names)})
