"""The optional parts of kniffel and the packages each needs (pyproject.toml's extras).

``pip install kniffel`` installs the library (:mod:`kniffel.engine`) and the command line's
basics; the heavy packages come with an extra: ``kniffel[tui]`` (the terminal game: textual),
``kniffel[plot]`` (``kniffel simulate --plot``: matplotlib), ``kniffel[solver]`` (the exact
solver, advisor and optimal player: numpy), ``kniffel[web]`` (the browser app: numpy for the
expert's exact tables, brotli for smaller files) and ``kniffel[all]``. :func:`require` is the one
check a command makes before it uses a part: a missing package is one sentence of the catalog
naming the install command (:class:`MissingExtraError`), never an ImportError's traceback.
"""

from __future__ import annotations

import importlib

from kniffel.engine.errors import KniffelError

#: The modules each extra must make importable (what its part imports); brotli, which the
#: browser app only uses where it is installed (no ``.br`` copies without it), is not checked.
EXTRAS: dict[str, tuple[str, ...]] = {
    "tui": ("textual",),
    "plot": ("matplotlib",),
    "solver": ("numpy",),
    "web": ("numpy",),
}


class MissingExtraError(KniffelError):
    """A part of kniffel was started whose packages are not installed: the sentence (catalog
    ``extras.<extra>``) names the package and ``pip install 'kniffel[<extra>]'``."""

    default_code = "extras.missing"


def require(extra: str) -> None:
    """Nothing when every module of ``extra`` (:data:`EXTRAS`) imports; else raise
    :class:`MissingExtraError` for the first one missing (code ``extras.<extra>``, params
    ``module`` and ``extra``)."""
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            raise MissingExtraError(
                f"{module} is not installed: pip install 'kniffel[{extra}]'",
                code=("extras.tui" if extra == "tui" else "extras.plot" if extra == "plot"
                      else "extras.solver" if extra == "solver" else "extras.web"),
                params={"module": module, "extra": extra}) from None
