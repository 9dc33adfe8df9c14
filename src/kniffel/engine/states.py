"""The numbering of turn-start states that the value tables use, in pure Python.

A turn-start state is the set of filled boxes, the upper sum and an extra state. The upper sums
are numbered per set of filled upper boxes: the capped sums that can still reach the bonus
(sorted), then one *dead* state (:data:`DEAD`) for every sum that can not; once all six upper
boxes are filled there is a single state, as the bonus is paid when it is earned. The extra
state is the number of chips left (Kniffel Extreme), or, for further-Kniffel rules once the
kniffel box is filled, whether it holds 50.

The solver (:mod:`kniffel.solver.tables`) builds its index arrays from these functions, and the
expert (:mod:`kniffel.engine.values`, :mod:`kniffel.engine.expert_model`) reads its values with
them, so both number the states alike.
"""

from __future__ import annotations

from functools import cache

from kniffel.engine.rules import Box, ExtraKniffel, RuleSet

#: The upper state of every sum that can no longer reach the bonus.
DEAD = -1


@cache
def upper_states(threshold: int, maxc: int) -> tuple[tuple[int, ...], ...]:
    """For every set of filled upper boxes (bit ``j`` = face ``j + 1``), its upper states: the
    reachable capped sums that can still reach ``threshold``, then :data:`DEAD` when some can
    not; a single state 0 once all six are filled. ``maxc`` is the most dice of one face."""
    out: list[tuple[int, ...]] = []
    for mask in range(64):
        if mask == 63:
            out.append((0,))
            continue
        sums = {0}
        for j in range(6):
            if mask >> j & 1:
                sums = {min(s + (j + 1) * c, threshold) for s in sums for c in range(maxc + 1)}
        room = upper_room(mask, maxc)
        live = sorted(s for s in sums if s + room >= threshold)
        dead = [DEAD] if any(s + room < threshold for s in sums) else []
        out.append(tuple(live + dead))
    return tuple(out)


def upper_room(upper_mask: int, maxc: int) -> int:
    """The most points the open upper boxes of ``upper_mask`` can still bring."""
    return sum((j + 1) * maxc for j in range(6) if not upper_mask >> j & 1)


def upper_key(upper_mask: int, upper_sum: int, threshold: int, maxc: int) -> int:
    """The upper sum as the value tables know it: 0 once all six upper boxes are filled, else
    the sum capped at ``threshold``, or :data:`DEAD` when the bonus is out of reach."""
    if upper_mask == 63:
        return 0
    s = min(upper_sum, threshold)
    return s if s + upper_room(upper_mask, maxc) >= threshold else DEAD


def max_count(rules: RuleSet) -> int:
    """The most dice that can show one face: six with the d10 (five d6 and a d10 of 1–6),
    else five."""
    return 6 if rules.d10 else 5


def extra_states(rules: RuleSet) -> int:
    """Extra states per upper state once the kniffel box is filled: chips 0…n, or the "kniffel
    box holds 50" flag for further-Kniffel rules, or 1."""
    if rules.chips:
        return rules.chips + 1
    if rules.extra_kniffel is not ExtraKniffel.NONE and Box.KNIFFEL in rules.boxes:
        return 2
    return 1


def x_of(rules: RuleSet, mask: int) -> int:
    """Extra states per upper state for the filled boxes ``mask``: every chip count, or the
    kniffel flag once the kniffel box is filled, else 1."""
    xs = extra_states(rules)
    if rules.chips or xs == 1:
        return xs
    return xs if mask >> rules.boxes.index(Box.KNIFFEL) & 1 else 1


def lanes(rules: RuleSet, mask: int) -> int:
    """The number of states of the filled boxes ``mask``: upper states times extra states."""
    return len(upper_states(rules.bonus_threshold, max_count(rules))[mask & 63]) * x_of(rules,
                                                                                        mask)
