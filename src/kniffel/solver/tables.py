"""Index tables for the solver, built once per rule set from the rules engine.

The solver numbers what it needs:

* **multisets** of d6 faces of size 0–5 (462 of them, ordered by size, then faces): the kept d6
  of a keep; the 252 of size 5 are the d6 of a hand;
* **hands** ``h = i5 * nd + d``: the five-d6 multiset ``i5`` (0–251, in the engine's order) and the
  d10 ``d`` (0–9; ``nd`` is 10 for Kniffel Extreme and 1 without a d10);
* **upper states** of an upper-section mask ``U`` (which of ones…sixes are filled): the upper sums
  capped at the bonus threshold that can still reach it, then one *dead* state for every sum that
  can not; once all six are filled there is a single state, as the bonus is paid when it is earned
  (the engine's numbering, :func:`kniffel.engine.states.upper_states`);
* **lanes** of a filled-box set ``F``: ``k * X_F + x`` for upper state ``k`` and extra state ``x``
  (Kniffel Extreme: chips left 0…3; classic rule sets once the kniffel box is filled: whether it
  holds 50).

Points come from :func:`kniffel.engine.rules.evaluate`, so the solver scores exactly as the engine
does.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from kniffel.engine.dice import Keep, Roll, outcomes
from kniffel.engine.errors import KniffelError
from kniffel.engine.rules import UPPER_BOXES, Box, ExtraKniffel, RuleSet, StrikeRule, evaluate
from kniffel.engine.states import DEAD, max_count, upper_room, upper_states

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

#: Rule codes the kernel understands.
STRIKE_CODES = {StrikeRule.FORCED: 0, StrikeRule.FREE: 1, StrikeRule.ANY_BOX: 2}
EXTRA_CODES = {ExtraKniffel.NONE: 0, ExtraKniffel.ANY_BOX_AT_MAXIMUM: 1,
               ExtraKniffel.CHAMPIONSHIP: 2, ExtraKniffel.FORCED_JOKER: 3,
               ExtraKniffel.FREE_JOKER: 4, ExtraKniffel.BONUS_ONLY: 5}
#: Box kinds the kniffel rules of the classic presets name.
KIND_OTHER, KIND_THREE_OAK, KIND_FOUR_OAK, KIND_CHANCE, KIND_JOKER_FLAT, KIND_KNIFFEL = range(6)


class SolverError(KniffelError):
    """The solver cannot do what was asked (unsupported rule set, missing table, bad state)."""

    default_code = "solver.error"


def _multisets() -> list[tuple[int, ...]]:
    return [c for n in range(6) for c in itertools.combinations_with_replacement(range(1, 7), n)]


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything the kernel needs to know about a rule set, as flat integer arrays.

    Shapes: ``ms_add``/``ms_sub`` (462, 6); ``hand_ms`` (252,); ``p0`` (nh,); ``pts`` (nh, nb);
    ``cntu`` (nh, 6); ``kn_face`` (nh,); ``n_u`` (64,); ``uval`` (64, MAXU);
    ``trans_k``/``trans_gain`` (64, MAXU, 6, maxc + 1); ``box_face``/``box_kind``/``box_max`` (nb,).
    ``ms_add[m, f]`` is m with one more face f + 1 (-1 for five dice), ``ms_sub[m, f]`` m with
    one face f + 1 less (m itself where m has none). ``hand_ptr``/``hand_box``/``hand_v``: the
    boxes that hand ``h`` fits are ``hand_box[hand_ptr[h]:hand_ptr[h + 1]]`` (in box order),
    with its points (lower boxes) or its count of the box's face (upper boxes) in ``hand_v``, so
    scoring visits only those.
    """

    rules: RuleSet
    nb: int
    nd: int
    nh: int
    threshold: int
    maxc: int
    ms_add: I32
    ms_sub: I32
    n_small: int
    hand_ms: I32
    p0: F64
    pts: I32
    cntu: I32
    kn_face: I32
    n_u: I32
    uval: I32
    trans_k: I32
    trans_gain: I32
    box_face: I32
    box_kind: I32
    box_max: I32
    params: I64
    multisets: tuple[tuple[int, ...], ...]
    ms_index: dict[tuple[int, ...], int]
    hand_ptr: I32
    hand_box: I32
    hand_v: I32

    @property
    def xs(self) -> int:
        """Extra states per upper state on a sheet with the kniffel box filled (chips or flag)."""
        return int(self.params[P_X_FULL])

    def x_of(self, mask: int) -> int:
        """Extra states per upper state for the filled-box set ``mask``: every chip count, or
        the kniffel flag once the kniffel box is filled."""
        if self.rules.chips or (self.xs > 1 and mask >> int(self.params[P_KN_BOX]) & 1):
            return self.xs
        return 1

    def x_of_masks(self, masks: I64) -> I64:
        """:meth:`x_of` of every set in ``masks``."""
        if self.rules.chips or self.xs == 1:
            return np.full(masks.shape, self.xs, np.int64)
        return np.where((masks >> int(self.params[P_KN_BOX])) & 1 == 1, self.xs, 1)

    def hand_index(self, roll: Roll) -> int:
        """The hand number of ``roll``."""
        i5 = self.ms_index[roll.d6] - self.n_small
        return i5 * self.nd + (roll.d10 or 0)

    def keep_index(self, keep: Keep) -> tuple[int, int]:
        """The (channel, multiset) of ``keep``: channel = kept d10, or ``nd`` when re-rolled."""
        channel = (self.nd if self.nd > 1 else 0) if keep.d10 is None else keep.d10
        return channel, self.ms_index[keep.d6]

    def upper_state(self, upper_mask: int, upper_sum: int) -> int:
        """The upper-state index of a sheet whose filled upper boxes are ``upper_mask``."""
        if upper_mask == 63:
            return 0
        u = min(upper_sum, self.threshold)
        row = self.uval[upper_mask, : self.n_u[upper_mask]]
        hits = np.nonzero(row == u)[0]
        if hits.size:
            return int(hits[0])
        dead = np.nonzero(row == DEAD)[0]
        if not dead.size:
            message = (f"upper sum {upper_sum} cannot occur with the filled upper boxes "
                       f"{upper_mask:06b}")
            if not upper_mask:
                raise SolverError(message, code="solver.upper_impossible_empty",
                                  params={"got": upper_sum})
            raise SolverError(message, code="solver.upper_impossible",
                              params={"got": upper_sum,
                                      "boxes": [b.value for i, b in enumerate(UPPER_BOXES)
                                                if upper_mask >> i & 1]})
        return int(dead[0])


# Indices into Tables.params, the scalar parameters the kernel reads.
(P_NB, P_ND, P_NH, P_T, P_MAXC, P_NSMALL, P_STRIKE, P_EXTRA, P_EXTRA_BONUS, P_KN_BOX, P_CHIPS,
 P_ROLLS, P_X_FULL, P_BONUS) = range(14)


def supported(rules: RuleSet) -> None:
    """Raise :class:`SolverError` unless the solver handles ``rules``."""
    if tuple(rules.boxes[:6]) != (Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES,
                                  Box.SIXES):
        raise SolverError(f"the solver needs ones…sixes as the first six boxes of {rules.name}")
    if (rules.chips or rules.d10) and rules.extra_kniffel is not ExtraKniffel.NONE:
        raise SolverError(f"{rules.name}: further-Kniffel rules together with chips or a d10 "
                          "are not supported by the solver")


@cache
def build_tables(rules: RuleSet) -> Tables:
    """The solver's index tables for ``rules``."""
    supported(rules)
    nd = 10 if rules.d10 else 1
    multisets = _multisets()
    ms_index = {m: i for i, m in enumerate(multisets)}
    n_small = sum(1 for m in multisets if len(m) < 5)
    ms_add = np.full((len(multisets), 6), -1, np.int32)
    # a face that m lacks points at m itself: max(K[m], K[m]) is K[m], and the kernel's
    # maximum over the six sub-keeps needs no branch
    ms_sub = np.repeat(np.arange(len(multisets), dtype=np.int32)[:, None], 6, axis=1)
    for i, m in enumerate(multisets):
        for f in range(1, 7):
            if len(m) < 5:
                ms_add[i, f - 1] = ms_index[tuple(sorted((*m, f)))]
            if f in m:
                rest = list(m)
                rest.remove(f)
                ms_sub[i, f - 1] = ms_index[tuple(rest)]
    fives = multisets[n_small:]
    hand_ms = np.arange(n_small, len(multisets), dtype=np.int32)

    boxes = rules.boxes
    nb = len(boxes)
    nh = len(fives) * nd
    p0 = np.zeros(nh)
    pts = np.full((nh, nb), -1, np.int32)
    cntu = np.zeros((nh, 6), np.int32)
    kn_face = np.zeros(nh, np.int32)
    for roll, p in outcomes(Keep(), d10=rules.d10):
        h = (ms_index[roll.d6] - n_small) * nd + (roll.d10 or 0)
        p0[h] = p
        values = evaluate(roll)
        for b, box in enumerate(boxes):
            v = values[box]
            pts[h, b] = -1 if v is None else v
        counts = roll.counts()
        cntu[h] = counts[1:7]
        if max(roll.counts()) >= 5 and len(set(roll.d6)) == 1:
            kn_face[h] = roll.d6[0]

    threshold = rules.bonus_threshold
    maxc = max_count(rules)
    n_u, uval, trans_k, trans_gain = _upper_states(threshold, maxc, rules.bonus_points)

    box_face = np.array([b.face or 0 for b in boxes], np.int32)
    kinds = {Box.THREE_OF_A_KIND: KIND_THREE_OAK, Box.FOUR_OF_A_KIND: KIND_FOUR_OAK,
             Box.CHANCE: KIND_CHANCE, Box.FULL_HOUSE: KIND_JOKER_FLAT,
             Box.SMALL_STRAIGHT: KIND_JOKER_FLAT, Box.LARGE_STRAIGHT: KIND_JOKER_FLAT,
             Box.KNIFFEL: KIND_KNIFFEL}
    box_kind = np.array([kinds.get(b, KIND_OTHER) for b in boxes], np.int32)
    box_max = np.array([rules.max_points(b) for b in boxes], np.int32)
    kn_box = boxes.index(Box.KNIFFEL) if Box.KNIFFEL in boxes else -1
    extra = EXTRA_CODES[rules.extra_kniffel]
    x_full = rules.chips + 1 if rules.chips else (2 if extra and kn_box >= 0 else 1)
    params = np.array([nb, nd, nh, threshold, maxc, n_small, STRIKE_CODES[rules.strike], extra,
                       rules.extra_kniffel_bonus, kn_box, rules.chips, rules.rolls, x_full,
                       rules.bonus_points], np.int64)
    fits = [np.nonzero(cntu[:, b] > 0 if b < 6 else pts[:, b] >= 0)[0] for b in range(nb)]
    pair_h = np.concatenate(fits).astype(np.int32)
    pair_box = np.concatenate([np.full(len(f), b, np.int32) for b, f in enumerate(fits)])
    pair_v = np.concatenate([cntu[f, b] if b < 6 else pts[f, b]
                             for b, f in enumerate(fits)]).astype(np.int32)
    by_hand = np.argsort(pair_h, kind="stable")
    hand_ptr = np.zeros(nh + 1, np.int32)
    hand_ptr[1:] = np.cumsum(np.bincount(pair_h, minlength=nh))
    hand_box = pair_box[by_hand]
    hand_v = pair_v[by_hand]
    return Tables(rules, nb, nd, nh, threshold, maxc, ms_add, ms_sub, n_small, hand_ms, p0, pts,
                  cntu, kn_face, n_u, uval, trans_k, trans_gain, box_face, box_kind, box_max,
                  params, tuple(multisets), ms_index, hand_ptr, hand_box, hand_v)


def _upper_states(threshold: int, maxc: int,
                  bonus: int) -> tuple[I32, I32, I32, I32]:
    """Upper states per upper mask and the transitions of scoring an upper box.

    ``trans_k[U, k, j, c]`` is the state after entering ``c`` dice of face ``j + 1`` (or -1 when
    box ``j`` is filled in ``U``) and ``trans_gain`` its points plus the bonus if it is earned.
    """
    states = [list(s) for s in upper_states(threshold, maxc)]
    maxu = max(len(s) for s in states)
    n_u = np.array([len(s) for s in states], np.int32)
    uval = np.full((64, maxu), -2, np.int32)
    trans_k = np.full((64, maxu, 6, maxc + 1), -1, np.int32)
    trans_gain = np.zeros((64, maxu, 6, maxc + 1), np.int32)
    # look[m][s]: the state index of upper sum s (0..threshold) on the upper mask m; sums that can
    # no longer reach the threshold map to DEAD's index, unreachable ones to -1
    look = np.full((64, threshold + 1), -1, np.int64)
    for m in range(64):
        room = upper_room(m, maxc)
        for k, u in enumerate(states[m]):
            if u != DEAD:
                look[m, u] = k
        if DEAD in states[m]:
            look[m, np.arange(threshold + 1) + room < threshold] = states[m].index(DEAD)
    points = np.arange(maxc + 1)
    for mask in range(64):
        us = np.array(states[mask], np.int64)
        uval[mask, :len(us)] = us
        if mask == 63:
            continue
        dead = (us == DEAD)[:, None]
        for j in range(6):
            if mask >> j & 1:
                continue
            nxt = mask | 1 << j
            p = (j + 1) * points[None, :]
            new = np.minimum(np.where(dead, 0, us[:, None]) + p, threshold)
            earned = ~dead & (us[:, None] < threshold) & (us[:, None] + p >= threshold)
            k2 = np.zeros_like(new) if nxt == 63 else look[nxt][new]
            if nxt != 63 and dead.any():
                k2 = np.where(dead, states[nxt].index(DEAD), k2)
            if (k2 < 0).any():
                raise AssertionError(f"an upper sum of mask {nxt} has no state")
            trans_k[mask, :len(us), j] = k2
            trans_gain[mask, :len(us), j] = p + np.where(earned, bonus, 0)
    return n_u, uval, trans_k, trans_gain
