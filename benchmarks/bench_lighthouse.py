"""Lighthouse's four scores of the browser app (issue 20): performance, accessibility, best
practices and SEO, on a phone (Lighthouse's mobile form factor and its simulated throttling).

Run: ``.venv/bin/python benchmarks/bench_lighthouse.py`` (``--help`` for options). It serves a
fresh production build of the site on loopback (bundled, with its compressed copies) and
runs npm's ``lighthouse``, pinned in ``benchmarks/package.json`` and its lockfile (the main setup
does not install it: the first run does, with ``npm ci --prefix benchmarks``), with Debian's
Chromium (``CHROME_PATH``, headless, ``--no-sandbox``). It prints the four scores and the audits
that cost points, writes Lighthouse's JSON report where ``--report`` says, and exits with status
1 when a score is under ``--min`` (95).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from kniffel.web.server import running_server

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --no-first-run " \
               "--disable-background-networking --disable-component-update --disable-sync"


def install() -> None:
    """Install the pinned Lighthouse into ``benchmarks/node_modules`` unless it is there."""
    if LIGHTHOUSE.exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("bench_lighthouse needs npm (Debian: apt-get install npm)")
    subprocess.run([npm, "ci", "--prefix", str(HERE), "--no-audit", "--no-fund",
                    "--loglevel=error"], check=True)


def lighthouse(url: str, chromium: str, report: Path) -> dict[str, Any]:
    """Lighthouse's JSON report of ``url`` on a phone (mobile form factor, simulated
    throttling), all four categories, written to ``report`` and returned."""
    env = {**os.environ, "CHROME_PATH": chromium}
    subprocess.run([str(LIGHTHOUSE), url, "--quiet", "--form-factor=mobile",
                    f"--only-categories={','.join(CATEGORIES)}", "--output=json",
                    f"--output-path={report}", f"--chrome-flags={CHROME_FLAGS}"],
                   env=env, check=True)
    result: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return result


def lost_points(result: dict[str, Any], category: str) -> list[str]:
    """The audits of ``category`` that count towards its score and did not pass, with their
    score and what Lighthouse shows of them."""
    audits = result["audits"]
    out = []
    for ref in result["categories"][category]["auditRefs"]:
        audit = audits[ref["id"]]
        if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
            shown = audit.get("displayValue") or ""
            out.append(f"{ref['id']} {audit['score']:.2f} {shown}".rstrip())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--min", type=int, default=95, help="the lowest score that passes")
    parser.add_argument("--report", type=Path, default=None,
                        help="where Lighthouse's JSON report goes (default: a temporary file)")
    args = parser.parse_args()
    install()
    with running_server(bundle=True) as (url, _), tempfile.TemporaryDirectory() as tmp:
        report = args.report or Path(tmp) / "lighthouse.json"
        result = lighthouse(url, args.chromium, report)
    print(f"Lighthouse {result['lighthouseVersion']}, {result['environment']['hostUserAgent']}")
    failed = []
    for category in CATEGORIES:
        score = round(100 * (result["categories"][category]["score"] or 0))
        lost = lost_points(result, category)
        print(f"{category:>15}: {score:3d}" + (f"   ({'; '.join(lost)})" if lost else ""))
        if score < args.min:
            failed.append(category)
    metrics = result["audits"]["metrics"]["details"]["items"][0]
    print("first contentful paint {:.0f} ms, largest contentful paint {:.0f} ms, total blocking "
          "time {:.0f} ms, cumulative layout shift {:.3f}".format(
              metrics["firstContentfulPaint"], metrics["largestContentfulPaint"],
              metrics["totalBlockingTime"], metrics["cumulativeLayoutShift"]))
    if failed:
        print(f"under {args.min}: {', '.join(failed)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
