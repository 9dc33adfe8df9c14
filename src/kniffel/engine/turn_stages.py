"""The within-turn recursion that the greedy player and the expert share.

A player who knows, for every roll it could end the turn with, what ending the turn with it is
worth (``final``: the best entry's worth) plays the rest of the turn by backward induction over
its throws: before the last throw a keep is worth the expected ``final`` of the roll it brings;
before an earlier one, the expected best of ending there and re-throwing the best keep. With
chips (Kniffel Extreme) the roll after the last regular throw may instead be re-thrown once
more for a chip. :func:`turn_stages` computes those vectors with the arithmetic of
:mod:`kniffel.engine.vectors`; the players differ only in what they call ``final`` and what a
chip costs.
"""

from __future__ import annotations

from dataclasses import dataclass

from kniffel.engine.vectors import Vec, VectorMath


@dataclass(frozen=True)
class TurnStages:
    """The values of one turn, stage by stage.

    ``final``: per roll, the worth of ending the turn with it. ``throws``: per throw number
    ``first``…``rolls``, per keep, the expected worth of the re-throw that brings that throw
    (:meth:`before`). ``chip_final``: per roll, the worth of ending the turn with the roll a
    chip brings; ``chip``: per keep, the expected worth of that roll; ``with_chip``: per roll
    after the last regular throw, the worth of handing in a chip (None without one).
    """

    final: Vec
    first: int
    throws: tuple[Vec, ...]
    chip_final: Vec | None = None
    chip: Vec | None = None
    with_chip: Vec | None = None

    def before(self, throw: int) -> Vec:
        """Per keep, the expected worth of the re-throw that brings throw number ``throw``."""
        if throw < self.first:
            raise IndexError(f"the stages start at throw {self.first}, not {throw}")
        return self.throws[throw - self.first]


def turn_stages(m: VectorMath, final: Vec, rolls: int, *, first: int = 1,
                chip_final: Vec | None = None, chip_open: bool = False,
                chip_cost: float = 0.0) -> TurnStages:
    """The stages of a turn of ``rolls`` regular throws that ends with the worths ``final``,
    down to throw number ``first``.

    With ``chip_final`` (the worth of ending the turn after a chip's throw) the chip's stages
    are computed; with ``chip_open`` as well, handing in a chip (at a cost of ``chip_cost``)
    is one of the choices after the last regular throw.
    """
    chip = with_chip = None
    last = final
    if chip_final is not None:
        chip = m.expect(chip_final)
        if chip_open:
            rethrow = m.best_rethrow(chip)
            if chip_cost:
                rethrow = m.minus(rethrow, chip_cost)
            with_chip = m.maximum(chip_final, rethrow)
            last = m.maximum(final, with_chip)
    throws: list[Vec] = []
    value = last
    for n in range(rolls, first - 1, -1):
        expected = m.expect(value)
        throws.append(expected)
        if n > first:
            value = m.maximum(final, m.best_rethrow(expected))
    return TurnStages(final, first, tuple(reversed(throws)), chip_final, chip, with_chip)
