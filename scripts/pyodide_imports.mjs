// Which files of Pyodide's standard library the browser app's engine runs on, found by running it.
//
// Usage: node scripts/pyodide_imports.mjs SITE [--stdlib ZIP]
//
// Starts Pyodide under node as the site's engine worker (worker.js) starts it in the browser: the
// site's own Pyodide files (SITE/pyodide/, its standard library the site's archive, or ZIP),
// kniffel.zip unpacked, kniffel.browser.bridge imported, its caches warmed, a memory snapshot
// made. Then it imports every module the browser package can import: each module of the packages
// in kniffel.zip (kniffel.engine, kniffel.browser, segno) and every module any of them names in
// an import statement, at the top or inside a function, and answers requests that fail, so that
// the error paths' imports run too. Prints one JSON object: "files", the standard library's
// members whose modules are loaded by then (the archive the site needs: kniffel.web.stdlib reads
// them), and "missing", each name whose import failed with the error (a trimmed archive that
// lacks something the engine imports; names no Pyodide has at all are in "absent").
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const [site, ...rest] = process.argv.slice(2);
if (!site) {
  console.error("usage: node scripts/pyodide_imports.mjs SITE [--stdlib ZIP]");
  process.exit(2);
}
const at = rest.indexOf("--stdlib");
const indexURL = path.resolve(site, "pyodide") + "/";
const stdLibURL = at >= 0 ? path.resolve(rest[at + 1]) : undefined;

// as the worker has it: the lock file's facts, no packages (the site serves no lock file)
const lock = JSON.parse(readFileSync(new URL("../node_modules/pyodide/pyodide-lock.json", import.meta.url), "utf-8"));
const lockFileContents = { info: lock.info, packages: {} };
const py = await loadPyodide({ indexURL, stdLibURL, lockFileContents, _makeSnapshot: true, stdout: () => {},
  stderr: (line) => console.error(line) });
py.unpackArchive(new Uint8Array(readFileSync(path.join(site, "kniffel.zip"))), "zip", { extractDir: "/home/pyodide/lib" });
py.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib'); import kniffel.browser.bridge");
py.runPython("kniffel.browser.bridge.warm_up()");
py.makeMemorySnapshot();

const found = py.runPython(readFileSync(new URL("./pyodide_imports.py", import.meta.url), "utf-8"));
console.log(found);
