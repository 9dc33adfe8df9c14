"""The solver's C kernel (everything else is in pyproject.toml).

``kniffel.solver._kernel`` is a plain shared library (no Python API), loaded with ctypes by
:mod:`kniffel.solver.kernel`. Strict IEEE arithmetic (no fused multiply-add, no fast-math), so
every machine computes the same tables; the hot loops are compiled twice, for AVX2 (with
``vmaxps``/``vmaxpd``) and for the baseline, and each call runs the one the CPU has.
"""

import runpy
from pathlib import Path

from setuptools import Extension, setup

#: src/kniffel/solver/kernel_flags.py, read without importing the package (not installed yet)
FLAGS = runpy.run_path(str(Path(__file__).parent / "src/kniffel/solver/kernel_flags.py"))

setup(
    ext_modules=[
        Extension(
            "kniffel.solver._kernel",
            sources=["src/kniffel/solver/_kernel.c"],
            depends=["src/kniffel/solver/_kernel_body.h"],
            extra_compile_args=list(FLAGS["COMPILE_ARGS"]),
            py_limited_api=False,
        )
    ],
)
