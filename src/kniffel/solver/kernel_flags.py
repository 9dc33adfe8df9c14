"""The C kernel's compile flags, in one place: ``setup.py`` builds the shipped library with
them, and the benchmarks and tests that compile copies of the kernel (other widths, stage timers)
use the same ones.

Strict IEEE arithmetic: no fused multiply-add (``-ffp-contract=off``) and no fast-math, so
every machine computes the same tables to the bit. The module has no imports, so ``setup.py``
can read it before the package is installed.
"""

#: The flags of ``setup.py``'s ``extra_compile_args``.
COMPILE_ARGS: tuple[str, ...] = ("-O3", "-std=c11", "-ffp-contract=off", "-fno-math-errno",
                                 "-Wno-psabi")

#: The same flags for a stand-alone shared library built with ``gcc`` (loaded with ctypes).
SHARED_LIBRARY_ARGS: tuple[str, ...] = (*COMPILE_ARGS, "-fPIC", "-shared")
