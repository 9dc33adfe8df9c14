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
states, float32 or float64), ``base`` (2^nb,) offset of each set's lanes in ``V`` or -1; hands are
``(nh, w)``, keeps ``(462, channels · w)``. Keep expectations are built one die at a time,
``K[m] = (1/6) Σ_f K[m + f]``, and the best sub-keep by ``B[m] = max(K[m], max_f B[m - f])``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

NEG = -1.0e30
#: Bytes of keep scratch per chunk of lanes (keeps × channels × lanes × item size stays in
#: cache): 12 Extreme lanes in float64, 24 in float32, every lane of a classic set.
CHUNK_BYTES = 1 << 19
#: MASKED_STORE_NOTE: a row updated in place, ``A[i, l] = max(A[i, l], y)``, is vectorised by
#: LLVM as a compare and a *masked* store (``vmaskmovps``: store only where ``y`` is larger),
#: which is microcoded and several times slower on AMD Zen. Writing ``max(A[i, l] + z, y)`` with
#: ``z = 0.0`` (the value is unchanged: ``x + 0.0 == x``; no value here is ``-0.0`` or NaN) keeps
#: the store unconditional, so the loop compiles to ``vcmpltps``/blend and plain stores.


@njit(cache=True)
def _keep_best(H: Any, w: int, K: Any, B: Any, best: Any, ms_add: Any, ms_sub: Any,
               hand_ms: Any, n_small: int, nd: int) -> None:  # pragma: no cover - compiled
    """K[m, c·w + l] = expectation of keep (m, c) over H; best[h, l] = its max over sub-keeps."""
    nms = ms_add.shape[0]
    nch = nd + 1 if nd > 1 else 1
    n5 = hand_ms.shape[0]
    row = nd * w
    for i5 in range(n5):
        m = hand_ms[i5]
        for d in range(nd):
            h = i5 * nd + d
            Kd = K[m, d * w:d * w + w]
            for lane in range(w):
                Kd[lane] = H[h, lane]
    inv6 = K.dtype.type(1.0 / 6.0)
    for m in range(n_small - 1, -1, -1):
        a0 = ms_add[m, 0]
        a1 = ms_add[m, 1]
        a2 = ms_add[m, 2]
        a3 = ms_add[m, 3]
        a4 = ms_add[m, 4]
        a5 = ms_add[m, 5]
        for j in range(row):
            K[m, j] = (K[a0, j] + K[a1, j] + K[a2, j] + K[a3, j] + K[a4, j] + K[a5, j]) * inv6
    if nd > 1:
        inv = K.dtype.type(1.0 / nd)
        off = nd * w
        for m in range(nms):
            # row slices: an index like ``d * w + lane`` may be negative for LLVM, and numba's
            # wrap-around of negative indices then keeps the lane loop scalar
            dst = K[m, off:off + w]
            for lane in range(w):
                dst[lane] = 0.0
            for d in range(nd):
                src = K[m, d * w:d * w + w]
                for lane in range(w):
                    dst[lane] += src[lane]
            for lane in range(w):
                dst[lane] *= inv
    full = nch * w
    z = K.dtype.type(0.0)  # see MASKED_STORE_NOTE
    for m in range(nms):
        Bm = B[m, :full]
        Km = K[m, :full]
        for j in range(full):
            Bm[j] = Km[j]
        for f in range(6):
            s = ms_sub[m, f]
            if s >= 0:
                Bs = B[s, :full]
                for j in range(full):
                    Bm[j] = max(Bm[j] + z, Bs[j])
    for i5 in range(n5):
        m = hand_ms[i5]
        Br = B[m, nd * w:nd * w + w]
        for d in range(nd):
            h = i5 * nd + d
            Bd = B[m, d * w:d * w + w]
            if nd > 1:
                for lane in range(w):
                    best[h, lane] = max(Bd[lane], Br[lane])
            else:
                for lane in range(w):
                    best[h, lane] = Bd[lane]


@njit(cache=True)
def _successors(F: int, l0: int, w: int, xf: int, V: Any, base: Any, params: Any,
                trans_k: Any, trans_gain: Any, UV: Any, SV: Any, SV50: Any,
                Z: Any) -> None:  # pragma: no cover - compiled
    """Values of entering each open box: UV (6, maxc+1, w) upper, SV (nb, w) lower, Z strike."""
    nb = params[0]
    maxc = params[4]
    kn_box = params[9]
    extra = params[7]
    chips = params[10]
    yflag = extra != 0 and chips == 0 and kn_box >= 0
    U = F & 63
    for lane in range(w):
        Z[lane] = NEG
    for b in range(nb):
        if F >> b & 1:
            continue
        F2 = F | (1 << b)
        b2 = base[F2]
        if b < 6:
            for lane in range(w):
                L = l0 + lane
                k = L // xf
                x = L % xf
                for c in range(maxc + 1):
                    k2 = trans_k[U, k, b, c]
                    UV[b, c, lane] = trans_gain[U, k, b, c] + V[b2 + k2 * xf + x]
                if UV[b, 0, lane] > Z[lane]:
                    Z[lane] = UV[b, 0, lane]
        else:
            for lane in range(w):
                L = l0 + lane
                if yflag and b == kn_box:
                    k = L // xf
                    SV[b, lane] = V[b2 + k * 2]
                    SV50[lane] = V[b2 + k * 2 + 1]
                else:
                    SV[b, lane] = V[b2 + L]
                if SV[b, lane] > Z[lane]:
                    Z[lane] = SV[b, lane]


@njit(cache=True)
def _score(F: int, l0: int, w: int, xf: int, params: Any, pts: Any, kn_face: Any,
           box_kind: Any, box_max: Any, box_ptr: Any, box_h: Any, box_v: Any, UV: Any, SV: Any,
           SV50: Any, Z: Any, S: Any) -> None:  # pragma: no cover - compiled
    """S[h, l]: the value of the best legal entry of hand h (points, bonuses, successor).

    Only the hands that fit an open box are visited for it (``box_h``), not all hands."""
    nb = params[0]
    nh = params[2]
    strike = params[6]
    extra = params[7]
    kn_box = params[9]
    chips = params[10]
    yflag = extra != 0 and chips == 0 and kn_box >= 0
    further = extra != 0 and kn_box >= 0 and (F >> kn_box & 1) == 1
    fit = np.zeros(nh, np.bool_)
    z = S.dtype.type(0.0)  # see MASKED_STORE_NOTE
    for h in range(nh):
        for lane in range(w):
            S[h, lane] = NEG
    for b in range(nb):
        if F >> b & 1:
            continue
        if b < 6:
            for e in range(box_ptr[b], box_ptr[b + 1]):
                h = box_h[e]
                c = box_v[e]
                fit[h] = True
                for lane in range(w):
                    S[h, lane] = max(S[h, lane] + z, UV[b, c, lane])
        else:
            vec = SV50 if yflag and b == kn_box else SV[b]
            for e in range(box_ptr[b], box_ptr[b + 1]):
                h = box_h[e]
                fit[h] = True
                pf = S.dtype.type(box_v[e])
                for lane in range(w):
                    S[h, lane] = max(S[h, lane] + z, pf + vec[lane])
    for h in range(nh):
        if strike != 0 or not fit[h]:
            for lane in range(w):
                S[h, lane] = max(S[h, lane] + z, Z[lane])
    if not further:
        return
    for h in range(nh):
        face = kn_face[h]
        if face > 0:
            for lane in range(w):
                y = (l0 + lane) % xf
                S[h, lane] = _further_kniffel(F, h, lane, y, face, params, pts, box_kind,
                                              box_max, UV, SV, Z, S[h, lane])


@njit(cache=True)
def _further_kniffel(F: int, h: int, lane: int, y: int, face: int, params: Any, pts: Any,
                     box_kind: Any, box_max: Any, UV: Any, SV: Any, Z: Any,
                     normal: float) -> float:  # pragma: no cover - compiled
    """The value of a further Kniffel under the classic rules (see ExtraKniffel)."""
    nb = params[0]
    maxc = params[4]
    strike = params[6]
    extra = params[7]
    extra_bonus = params[8]
    bonus = extra_bonus if y == 1 else 0
    if extra == 4:  # free-choice joker: any open box; full house and straights in full once
        if not F >> (face - 1) & 1:  # its upper box is open: no joker
            return float(bonus + normal)
        best = NEG
        for b in range(nb):
            if F >> b & 1:
                continue
            if b < 6:
                v = UV[b, 0, lane]
            else:
                p = box_max[b] if box_kind[b] == 4 else max(pts[h, b], 0)
                v = p + SV[b, lane]
            if v > best:
                best = v
        return float(bonus + best)
    if extra == 3:  # forced joker, whether the box holds 50 or 0
        if not F >> (face - 1) & 1:
            return float(bonus + UV[face - 1, maxc, lane])
        best = NEG
        for b in range(6, nb):
            if F >> b & 1:
                continue
            kind = box_kind[b]
            p = box_max[b] if kind == 4 else max(pts[h, b], 0)
            v = p + SV[b, lane]
            if v > best:
                best = v
        if best == NEG:
            for b in range(6):
                if not F >> b & 1 and UV[b, 0, lane] > best:
                    best = UV[b, 0, lane]
        return float(bonus + best)
    if y == 0:
        return normal
    if extra == 1:  # any open box at its maximum
        best = NEG
        for b in range(nb):
            if F >> b & 1:
                continue
            v = UV[b, maxc, lane] if b < 6 else box_max[b] + SV[b, lane]
            if v > best:
                best = v
        if strike == 1 and Z[lane] > best:
            best = Z[lane]
        return float(extra_bonus + best)
    # championship: the face's upper box, three/four of a kind or chance at real points
    best = NEG
    if not F >> (face - 1) & 1:
        best = UV[face - 1, maxc, lane]
    for b in range(6, nb):
        kind = box_kind[b]
        if F >> b & 1 or kind < 1 or kind > 3:
            continue
        v = pts[h, b] + SV[b, lane]
        if v > best:
            best = v
    if best == NEG:
        best = Z[lane]
    return float(extra_bonus + best)


@njit(cache=True)
def _widget(F: int, l0: int, w: int, xf: int, V: Any, base: Any, params: Any, ms_add: Any,
            ms_sub: Any, hand_ms: Any, p0: Any, pts: Any, kn_face: Any, trans_k: Any,
            trans_gain: Any, box_kind: Any, box_max: Any, box_ptr: Any, box_h: Any, box_v: Any,
            out: Any,
            scratch: tuple[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any],
            record: bool, rec_K: Any, rec_S: Any) -> None:  # pragma: no cover - compiled
    """out[l] = E for lanes l0…l0+w-1 of F; with ``record`` also every K (rec_K) and S (rec_S)."""
    nd = params[1]
    nh = params[2]
    n_small = params[5]
    chips = params[10]
    rolls = params[11]
    UV, SV, SV50, Z, S, H, T, best, K, B = scratch
    _successors(F, l0, w, xf, V, base, params, trans_k, trans_gain, UV, SV, SV50, Z)
    _score(F, l0, w, xf, params, pts, kn_face, box_kind, box_max, box_ptr, box_h, box_v, UV, SV,
           SV50, Z, S)
    if record:
        for h in range(nh):
            for lane in range(w):
                rec_S[h, lane] = S[h, lane]
    # after the last regular roll: maybe a chip for one more
    for h in range(nh):
        for lane in range(w):
            H[h, lane] = S[h, lane]
    if chips > 0:
        # lane l (x chips left) throws the chip roll into the entries of lane l - 1 (x - 1)
        src = np.empty(w, np.int64)
        off = np.empty(w, S.dtype)
        for lane in range(w):
            has_chip = (l0 + lane) % xf > 0
            src[lane] = lane - 1 if has_chip else lane
            off[lane] = 0.0 if has_chip else NEG
        for h in range(nh):
            for lane in range(w):
                T[h, lane] = S[h, src[lane]]
        z = S.dtype.type(0.0)  # see MASKED_STORE_NOTE
        _keep_best(T, w, K, B, best, ms_add, ms_sub, hand_ms, n_small, nd)
        if record:
            rec_K[0, :, :] = K[:, : rec_K.shape[2]]
        for h in range(nh):
            for lane in range(w):
                H[h, lane] = max(H[h, lane] + z, best[h, lane] + off[lane])
    for r in range(rolls - 1, 0, -1):
        _keep_best(H, w, K, B, best, ms_add, ms_sub, hand_ms, n_small, nd)
        if record:
            rec_K[r, :, :] = K[:, : rec_K.shape[2]]
        for h in range(nh):
            for lane in range(w):
                H[h, lane] = max(best[h, lane], S[h, lane])
    for lane in range(w):
        out[lane] = 0.0
    for h in range(nh):
        p = p0[h]
        for lane in range(w):
            out[lane] += p * H[h, lane]


@njit(cache=True)
def _scratch(V: Any, params: Any, nms: int, width: int) -> tuple[Any, Any, Any, Any, Any, Any,
                                                                 Any, Any, Any, Any]:
    # pragma: no cover - compiled
    """Work arrays of the widget for up to ``width`` lanes, in the precision of ``V``."""
    nb = params[0]
    nd = params[1]
    nh = params[2]
    maxc = params[4]
    nch = nd + 1 if nd > 1 else 1
    f = V.dtype
    return (np.zeros((6, maxc + 1, width), f), np.zeros((nb, width), f), np.zeros(width, f),
            np.zeros(width, f), np.zeros((nh, width), f), np.zeros((nh, width), f),
            np.zeros((nh, width), f), np.zeros((nh, width), f), np.zeros((nms, nch * width), f),
            np.zeros((nms, nch * width), f))


@njit(cache=True)
def _lanes(F: int, params: Any, n_u: Any) -> tuple[int, int]:  # pragma: no cover - compiled
    """(lanes of F, extra states per upper state of F)."""
    chips = params[10]
    kn_box = params[9]
    extra = params[7]
    if chips > 0:
        xf = chips + 1
    elif extra != 0 and kn_box >= 0 and (F >> kn_box & 1) == 1:
        xf = 2
    else:
        xf = 1
    return n_u[F & 63] * xf, xf


@njit(cache=True, parallel=True)
def solve_masks(masks: Any, V: Any, base: Any, params: Any, ms_add: Any, ms_sub: Any,
                hand_ms: Any, p0: Any, pts: Any, kn_face: Any, n_u: Any, trans_k: Any,
                trans_gain: Any, box_kind: Any, box_max: Any, box_ptr: Any, box_h: Any,
                box_v: Any, chunk: int, workers: int) -> None:  # pragma: no cover - compiled
    """V[base[F] + l] = E[l] (see the module docstring) for every F in ``masks``, in parallel."""
    n = masks.shape[0]
    workers = min(workers, n)
    width = max(chunk, params[12])
    for t in prange(workers):
        dummy_K = np.zeros((1, 1, 1))
        dummy_S = np.zeros((1, 1))
        scratch = _scratch(V, params, ms_add.shape[0], width)
        out = np.empty(width)
        for i in range(t, n, workers):
            F = masks[i]
            nl, xf = _lanes(F, params, n_u)
            step = max(xf, chunk // xf * xf)
            for l0 in range(0, nl, step):
                w = min(step, nl - l0)
                _widget(F, l0, w, xf, V, base, params, ms_add, ms_sub, hand_ms, p0, pts, kn_face,
                        trans_k, trans_gain, box_kind, box_max, box_ptr, box_h, box_v, out,
                        scratch, False, dummy_K, dummy_S)
                b0 = base[F] + l0
                for lane in range(w):
                    V[b0 + lane] = out[lane]


@njit(cache=True)
def detail(F: int, k: int, V: Any, base: Any, params: Any, ms_add: Any, ms_sub: Any,
           hand_ms: Any, p0: Any, pts: Any, kn_face: Any, n_u: Any, trans_k: Any,
           trans_gain: Any, box_kind: Any, box_max: Any, box_ptr: Any, box_h: Any,
           box_v: Any) -> tuple[Any, Any, Any]:
    # pragma: no cover - compiled
    """For upper state k of F, all its lanes: (E (xf,), K (rolls, 462, ch·xf), S (nh, xf))."""
    nd = params[1]
    nh = params[2]
    rolls = params[11]
    nch = nd + 1 if nd > 1 else 1
    _, xf = _lanes(F, params, n_u)
    rec_K = np.zeros((rolls, ms_add.shape[0], nch * xf))
    rec_S = np.zeros((nh, xf))
    out = np.zeros(xf)
    scratch = _scratch(V, params, ms_add.shape[0], xf)
    _widget(F, k * xf, xf, xf, V, base, params, ms_add, ms_sub, hand_ms, p0, pts, kn_face,
            trans_k, trans_gain, box_kind, box_max, box_ptr, box_h, box_v, out, scratch, True,
            rec_K, rec_S)
    return out, rec_K, rec_S
