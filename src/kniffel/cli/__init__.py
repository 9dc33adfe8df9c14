"""The ``kniffel`` command line: a thin layer over the library.

The root group (:data:`main`) knows every command by its module and its summary only: a
command's module (:mod:`kniffel.cli.score`, :mod:`kniffel.cli.play`, …) is imported when the
command runs or shows its help, so ``kniffel --version`` and ``kniffel --help`` start without
any of them. Every word comes from the catalog, in the reader's language
(:mod:`kniffel.cli.localized`).
"""

from __future__ import annotations

import gc
import inspect

import click

from kniffel import __version__
from kniffel.cli.localized import LazyGroup, both, remember_lang

#: Every command: the module it lives in, its function there, the catalog code of its summary.
COMMANDS: dict[str, tuple[str, str, str]] = {
    name: (f"kniffel.cli.{module}", function, f"cli.help.command.{name}")
    for name, module, function in (
        ("score", "score", "score"), ("rules", "rules", "rules"), ("show", "show", "show"),
        ("simulate", "simulate", "simulate_cmd"), ("history", "history", "history"),
        ("stats", "history", "stats"), ("export", "history", "export"),
        ("import", "history", "import_cmd"), ("play", "play", "play"),
        ("solve", "solve", "solve"), ("advise", "advise", "advise"),
        ("review", "review", "review"), ("chances", "chances", "chances"),
        ("web", "web", "web"))}


@click.group(cls=LazyGroup, lazy=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kniffel", message="%(prog)s %(version)s")
@click.option("--lang", type=click.Choice(["de", "en"], case_sensitive=False), default=None,
              callback=lambda ctx, param, value: value and remember_lang(ctx, param, value),
              is_eager=True, expose_value=False, help=both("cli.help.lang"))
def main() -> None:
    """Rule sets: extreme (Kniffel Extreme, default), kniffel (classic German rules),
    kniffel-championship (championship rules), yahtzee (official Hasbro rules),
    kniffel-anleitung (a rule sheet: free strikes, 100 per further Kniffel, no joker).
    """


main.help = f"{both('cli.help.main')}\n\n{inspect.cleandoc(main.help or '')}"


def run() -> None:
    """The ``kniffel`` program (its console script and ``python -m kniffel``): :func:`main`,
    then the exit without the interpreter's final sweeps over every object it ever loaded.

    The young garbage (what the command left lately) is collected, so its finalizers run, and
    every object left is frozen (:func:`gc.freeze`): the final collections at exit skip frozen
    objects, which takes the exit of a ``kniffel solve`` from about 60–100 ms to about 15
    (benchmarks/bench_solver.py times the whole process).
    """
    from kniffel.cli.plain import plain_where_needed

    plain_where_needed()
    try:
        main()
    finally:
        gc.collect(1)
        gc.freeze()
