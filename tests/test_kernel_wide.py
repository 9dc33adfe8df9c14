"""The 16-lane (AVX-512) float32 kernel gives the same bits as the 8-lane one.

The shipped library runs its 16-lane build only on a CPU with AVX-512. To check that code on any
x86-64 CPU with AVX2, these tests compile a copy of ``_kernel.c`` with ``-DKN_WIDE_ON_AVX2``: the
same 16-lane body, compiled for AVX2 instead (each vector two ymm halves), in the AVX-512 build's
place. Its tables and detail records must equal the shipped library's to the bit.
"""

from __future__ import annotations

import ctypes
import hashlib
import platform
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from kniffel.engine.rules import preset
from kniffel.solver import kernel, solve_in_memory
from kniffel.solver.kernel import Prepared
from kniffel.solver.kernel_flags import SHARED_LIBRARY_ARGS

#: The kernel's compile flags (setup.py's), for the copies built here.
CFLAGS = list(SHARED_LIBRARY_ARGS)
#: SHA-256 of the Extreme table of at most 4 open boxes (docs/solver-kernel.md).
EXTREME_4 = "8d0f74ed75e6ebf115d513b0d331ba3704daf3430501af0b4dc71e2b2bd3e015"

pytestmark = [
    pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 only"),
    pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc"),
]


@pytest.fixture(scope="module")
def wide_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kernel compiled with its 16-lane float32 build on AVX2."""
    source = Path(kernel.__file__).parent / "_kernel.c"
    out = tmp_path_factory.mktemp("wide") / "_kernel_wide.so"
    subprocess.run(["gcc", *CFLAGS, "-DKN_WIDE_ON_AVX2", "-o", str(out), str(source)],
                   check=True)
    lib = ctypes.CDLL(str(out))
    lib.kn_f32_build.restype = ctypes.c_char_p
    if lib.kn_f32_build() != b"avx2-16":
        pytest.skip("this CPU has no AVX2")
    return out


@pytest.fixture
def use_library(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Path], None]]:
    """A function that makes the solver load the library at a path from now on."""
    def use(path: Path) -> None:
        monkeypatch.setattr(kernel, "_library_path", lambda: path)
        kernel._library.cache_clear()

    yield use
    kernel._library.cache_clear()


def extreme_values(max_open: int) -> npt.NDArray[np.float32]:
    return np.ascontiguousarray(
        solve_in_memory(preset("extreme"), max_open=max_open, dtype=np.float32).values)


@pytest.mark.solve
def test_the_16_lane_kernel_solves_the_extreme_endgames_to_the_same_bits(
        wide_library: Path, use_library: Callable[[Path], None]) -> None:
    shipped = extreme_values(4)
    use_library(wide_library)
    assert kernel.f32_build() == "avx2-16"
    wide = extreme_values(4)
    assert wide.tobytes() == shipped.tobytes()
    assert hashlib.sha256(wide.tobytes()).hexdigest() == EXTREME_4


@pytest.mark.solve
def test_the_16_lane_kernel_gives_the_same_detail_records(
        wide_library: Path, use_library: Callable[[Path], None]) -> None:
    table = solve_in_memory(preset("extreme"), max_open=3, dtype=np.float32)
    values = np.ascontiguousarray(table.values)
    layout = table.layout
    prepared = Prepared(layout.tables, layout.base)
    rng = np.random.default_rng(23)
    picks = []
    for open_boxes, masks in layout.layers():
        if open_boxes == 0:
            continue
        for mask in rng.choice(masks, min(4, len(masks)), replace=False):
            lanes = layout.lanes(int(mask)) // layout.tables.x_of(int(mask))
            picks.append((int(mask), int(rng.integers(lanes))))
    shipped = [kernel.detail(m, k, values, prepared) for m, k in picks]
    use_library(wide_library)
    wide = [kernel.detail(m, k, values, prepared) for m, k in picks]
    for (m, k), a, b in zip(picks, shipped, wide, strict=True):
        for x, y in zip(a, b, strict=True):
            assert x.tobytes() == y.tobytes(), (hex(m), k)
