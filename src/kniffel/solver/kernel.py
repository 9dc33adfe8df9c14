"""The compiled kernel of the solver: one turn ("widget") for every lane of a filled-box set.

For a filled-box set ``F`` and its lanes ``l = k * X_F + x`` (see :mod:`kniffel.solver.tables`)
the kernel computes the expected points still to come at the start of a turn,

    E[l] = Σ_h P0[h] · H1[h, l]                               (first roll: all dice)
    H_r[h, l] = max(S[h, l], max_{k ⊆ h} K_{r+1}[k, l])      (after roll r < rolls)
    K_r[k, l] = Σ_h P(h | k) · H_r[h, l]                      (keep k, then roll r)
    H_rolls[h, l] = S[h, l], or with a chip left (x ≥ 1)
                    max(S[h, l], max_{k ⊆ h} K_chip[k, l]) with K_chip over S[·, l - 1]

where ``S[h, l]`` is the best legal entry of hand ``h``: its points, the upper bonus when it is
earned, the extra-Kniffel bonus, plus the value ``V`` of the successor state. Arrays: ``V`` (all
states, float32 or float64), ``base`` (2^nb,) offset of each set's lanes in ``V`` or -1.

The computation is C (``_kernel.c``, built with the package): lanes go in chunks of
8 lanes (one AVX2 register of float32, two of float64), every lane loop is straight vector code
and a chunk's keep array stays in a core's L2 cache. This module loads the library with ctypes and
runs one call per thread; ctypes releases the GIL, so the threads run in parallel.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.solver.tables import P_EXTRA, P_ROLLS, SolverError, Tables

_HERE = Path(__file__).resolve().parent
_P = ctypes.POINTER


class _CTables(ctypes.Structure):
    """``kn_tables`` of ``_kernel.c``: pointers into the arrays of a :class:`Tables`."""

    _fields_ = [
        ("params", _P(ctypes.c_int64)), ("ms_add", _P(ctypes.c_int32)),
        ("ms_sub", _P(ctypes.c_int32)), ("hand_ms", _P(ctypes.c_int32)),
        ("p0", _P(ctypes.c_double)), ("pts", _P(ctypes.c_int32)),
        ("kn_face", _P(ctypes.c_int32)), ("n_u", _P(ctypes.c_int32)),
        ("trans_k", _P(ctypes.c_int32)), ("trans_gain", _P(ctypes.c_int32)),
        ("box_kind", _P(ctypes.c_int32)), ("box_max", _P(ctypes.c_int32)),
        ("hand_ptr", _P(ctypes.c_int32)), ("hand_box", _P(ctypes.c_int32)),
        ("hand_v", _P(ctypes.c_int32)), ("base", _P(ctypes.c_int64)),
        ("nms", ctypes.c_int64), ("n5", ctypes.c_int64), ("maxu", ctypes.c_int64),
    ]


def _library_path() -> Path:
    """The built kernel library next to this module (``_kernel.<platform tag>.so``)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    exact = _HERE / f"_kernel{suffix}"
    if exact.exists():
        return exact
    found = sorted(_HERE.glob("_kernel*.so")) + sorted(_HERE.glob("_kernel*.pyd"))
    if not found:
        raise SolverError(
            f"the solver's compiled kernel is missing in {_HERE} (_kernel{suffix}): no C "
            "compiler was there when kniffel was installed; install one (Debian: apt-get install "
            "gcc) and reinstall kniffel (pip install --force-reinstall --no-deps --no-cache-dir "
            "kniffel; in a checkout scripts/setup.sh)",
            code="solver.kernel_missing", params={"path": str(_HERE)})
    return found[0]


@functools.cache
def _library() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(_library_path()))
    tab = _P(_CTables)
    i64 = ctypes.c_int64
    ptr = ctypes.c_void_p
    for suffix in ("f32", "f64"):
        solve = getattr(lib, f"kn_solve_{suffix}")
        solve.argtypes = [tab, ptr, i64, i64, i64, ptr]
        solve.restype = ctypes.c_int
        detail = getattr(lib, f"kn_detail_{suffix}")
        detail.argtypes = [tab, i64, i64, ptr, ptr, ptr, ptr]
        detail.restype = ctypes.c_int
    lib.kn_lanes_per_chunk.restype = ctypes.c_int
    if hasattr(lib, "kn_extra_rules"):
        lib.kn_extra_rules.restype = ctypes.c_int
    if hasattr(lib, "kn_f32_build"):
        lib.kn_f32_build.restype = ctypes.c_char_p
    return lib


def f32_build() -> str:
    """Which build of the float32 (Kniffel Extreme) kernel runs on this CPU: "avx512" (chunks
    of 16 lanes), "avx2", "baseline", or "avx2-16" (a test library's 16-lane code on AVX2);
    "unknown" for a library built before it said so."""
    lib = _library()
    if not hasattr(lib, "kn_f32_build"):
        return "unknown"
    return bytes(lib.kn_f32_build()).decode("ascii")


def extra_rules() -> int:
    """How many further-Kniffel rules (codes of ``tables.EXTRA_CODES``) the built kernel knows:
    0 for a library built before it said so."""
    lib = _library()
    return int(lib.kn_extra_rules()) if hasattr(lib, "kn_extra_rules") else 0


def lanes_per_chunk() -> int:
    """Lanes of one upper state the kernel takes at most (the lanes of a chunk)."""
    return int(_library().kn_lanes_per_chunk())


class Prepared:
    """The kernel's view of one rule set's :class:`Tables` and one ``base`` (layout offsets):
    contiguous arrays of the kernel's types and the C struct pointing into them."""

    def __init__(self, tables: Tables, base: npt.NDArray[np.int64]) -> None:
        t = tables
        if t.xs > lanes_per_chunk():
            raise SolverError(f"{t.rules.name} has {t.xs} extra states per upper state; the "
                              f"kernel takes at most {lanes_per_chunk()}")
        if int(t.params[P_EXTRA]) >= max(extra_rules(), 5):  # codes 0–4 came first
            raise SolverError(
                f"the solver's compiled kernel in {_HERE} is older than its source and does not "
                f"know the further-Kniffel rule of {t.rules.name}: reinstall kniffel "
                "(scripts/setup.sh, or pip install -e .) so that it is built anew",
                code="solver.kernel_stale", params={"path": str(_HERE), "rules": t.rules.name})
        arrays: dict[str, npt.NDArray[Any]] = {
            "params": np.ascontiguousarray(t.params, np.int64),
            "ms_add": np.ascontiguousarray(t.ms_add, np.int32),
            "ms_sub": np.ascontiguousarray(t.ms_sub, np.int32),
            "hand_ms": np.ascontiguousarray(t.hand_ms, np.int32),
            "p0": np.ascontiguousarray(t.p0, np.float64),
            "pts": np.ascontiguousarray(t.pts, np.int32),
            "kn_face": np.ascontiguousarray(t.kn_face, np.int32),
            "n_u": np.ascontiguousarray(t.n_u, np.int32),
            "trans_k": np.ascontiguousarray(t.trans_k, np.int32),
            "trans_gain": np.ascontiguousarray(t.trans_gain, np.int32),
            "box_kind": np.ascontiguousarray(t.box_kind, np.int32),
            "box_max": np.ascontiguousarray(t.box_max, np.int32),
            "hand_ptr": np.ascontiguousarray(t.hand_ptr, np.int32),
            "hand_box": np.ascontiguousarray(t.hand_box, np.int32),
            "hand_v": np.ascontiguousarray(t.hand_v, np.int32),
            "base": np.ascontiguousarray(base, np.int64),
        }
        self.tables = tables
        self.arrays = arrays  # keeps the memory the struct points into alive
        fields = {name: a.ctypes.data_as(_P(ctypes.c_int64 if a.dtype == np.int64 else
                                            ctypes.c_double if a.dtype == np.float64 else
                                            ctypes.c_int32))
                  for name, a in arrays.items()}
        self.struct = _CTables(**fields, nms=t.ms_add.shape[0], n5=t.hand_ms.shape[0],
                               maxu=t.trans_k.shape[1])


def _suffix(values: npt.NDArray[Any]) -> str:
    if values.dtype == np.float32:
        return "f32"
    if values.dtype == np.float64:
        return "f64"
    raise SolverError(f"value tables are float32 or float64, not {values.dtype}")


def _contiguous(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    if not values.flags.c_contiguous:
        raise SolverError("the kernel needs the values as one contiguous array")
    return values


def solve_masks(masks: npt.NDArray[np.int64], values: npt.NDArray[Any], prepared: Prepared,
                workers: int) -> None:
    """V[base[F] + l] = E[l] (see the module docstring) for every F in ``masks``, on
    ``workers`` threads (set ``i`` goes to thread ``i mod workers``). Every successor of a set
    in ``masks`` must be solved already."""
    lib = _library()
    fn = getattr(lib, f"kn_solve_{_suffix(values)}")
    masks = np.ascontiguousarray(masks, np.int64)
    values = _contiguous(values)
    n = len(masks)
    workers = max(1, min(workers, n))
    ref = ctypes.byref(prepared.struct)

    def run(first: int) -> int:
        return int(fn(ref, masks.ctypes.data, n, first, workers, values.ctypes.data))

    if workers == 1:
        codes = [run(0)]
    else:
        with ThreadPoolExecutor(workers) as pool:
            codes = list(pool.map(run, range(workers)))
    if any(c != 0 for c in codes):
        raise MemoryError("the solver kernel could not allocate its work arrays")


def detail(mask: int, k: int, values: npt.NDArray[Any],
           prepared: Prepared) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                        npt.NDArray[np.float64]]:
    """For upper state k of F = ``mask``, all its lanes: (E (xf,), K (rolls, 462, ch·xf),
    S (nh, xf)) — the turn's values that the advisor ranks choices by."""
    t = prepared.tables
    xf = t.x_of(mask)
    nch = t.nd + 1 if t.nd > 1 else 1
    rolls = int(t.params[P_ROLLS])
    E = np.zeros(xf)
    K = np.zeros((rolls, t.ms_add.shape[0], nch * xf))
    S = np.zeros((t.nh, xf))
    values = _contiguous(values)
    fn = getattr(_library(), f"kn_detail_{_suffix(values)}")
    code = fn(ctypes.byref(prepared.struct), mask, k, values.ctypes.data, E.ctypes.data,
              K.ctypes.data, S.ctypes.data)
    if code != 0:
        raise MemoryError("the solver kernel could not allocate its work arrays")
    return E, K, S


def cpu_threads() -> int:
    """The CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
