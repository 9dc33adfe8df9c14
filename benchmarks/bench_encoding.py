"""Would a 16-bit value table do? The optimal player's decisions with float32 and with 16 bits.

A 16-bit table stores each value of a filled-box set ``F`` as ``offset[F] + code · scale[F]``
with ``code`` in 0…65535, ``offset[F]`` the smallest value of ``F``'s lanes and ``scale[F]`` their
range / 65535 (half the size of float32: 1.2 GB for Kniffel Extreme). This script encodes the
stored table that way, decodes it, and plays games with the optimal player of the stored table;
at every decision it also asks an advisor reading the decoded table, and counts the decisions
where the two choose differently and what the different choices lose (judged by the stored
table).

Run: ``.venv/bin/python benchmarks/bench_encoding.py --rules extreme --decisions 100000``
(the full table must be in the cache: ``kniffel solve --rules extreme``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.engine.advice import Position
from kniffel.engine.game import Action, Game, Player, PlayerKind
from kniffel.engine.rules import preset
from kniffel.simulate import game_seed, play_out
from kniffel.solver import load_table
from kniffel.solver.advise import Advisor
from kniffel.solver.table import ValueTable

CODES = 65535


def set_starts(table: ValueTable) -> npt.NDArray[np.int64]:
    """The first state of every solved filled-box set, in table order (the sets tile the
    values)."""
    base = table.layout.base
    starts = np.sort(base[base >= 0])
    if starts[0] != 0:
        raise SystemExit("the table's sets do not start at state 0")
    return starts


def encode_decode(values: npt.NDArray[Any], starts: npt.NDArray[np.int64],
                  chunk_sets: int = 200_000) -> tuple[npt.NDArray[np.float32], float]:
    """The values after a round trip through the 16-bit encoding (offset and scale per set),
    and the largest error of the round trip."""
    n = len(values)
    out = np.empty(n, np.float32)
    worst = 0.0
    ends = np.append(starts[1:], n)
    for a in range(0, len(starts), chunk_sets):
        s = starts[a:a + chunk_sets]
        e = ends[a:a + chunk_sets]
        lo, hi = int(s[0]), int(e[-1])
        v = np.asarray(values[lo:hi], np.float64)
        rel = s - lo
        low = np.minimum.reduceat(v, rel)
        high = np.maximum.reduceat(v, rel)
        scale = np.where(high > low, (high - low) / CODES, 1.0)
        seg = np.repeat(np.arange(len(s)), e - s)
        code = np.rint((v - low[seg]) / scale[seg]).astype(np.uint16)
        dec = (low.astype(np.float32)[seg]
               + code.astype(np.float32) * scale.astype(np.float32)[seg])
        out[lo:hi] = dec
        worst = max(worst, float(np.max(np.abs(dec - v))))
    return out, worst


class Comparing:
    """The optimal player of the stored table, asking the 16-bit advisor beside it."""

    name = "optimal"

    def __init__(self, exact: Advisor, coded: Advisor) -> None:
        self.exact = exact
        self.coded = coded
        self.decisions = 0
        self.different = 0
        self.losses: list[float] = []

    def choose(self, game: Game, rng: random.Random) -> Action:
        pos = Position.from_game(game)
        exact = self.exact.advise(pos)
        coded = self.coded.advise(pos)
        self.decisions += 1
        if coded.best.action != exact.best.action:
            self.different += 1
            chosen = next(o for o in exact.options if o.action == coded.best.action)
            self.losses.append(exact.best.expected - chosen.expected)
        return exact.best.action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="extreme")
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = preset(args.rules)
    table = load_table(rules)
    t = time.perf_counter()
    decoded, worst = encode_decode(table.values, set_starts(table))
    print(f"{rules.name}: {len(decoded):,} values encoded and decoded in "
          f"{time.perf_counter() - t:.1f} s; largest round-trip error {worst:.6f} points")
    coded_table = ValueTable(table.layout, decoded)
    player = Comparing(Advisor(rules, table=table), Advisor(rules, table=coded_table))
    who = Player("Computer", PlayerKind.COMPUTER, "optimal")
    t = time.perf_counter()
    games = 0
    while player.decisions < args.decisions:
        game = Game(rules, [who], seed=game_seed(args.seed, games))
        play_out(game, player, random.Random(f"strategy:{args.seed}:{games}"))
        games += 1
        if games % 100 == 0:
            print(f"{games} games, {player.decisions:,} decisions, {player.different} different",
                  file=sys.stderr, flush=True)
    losses = np.array(player.losses or [0.0])
    print(f"{player.decisions:,} decisions of the optimal player in {games} games "
          f"({time.perf_counter() - t:.0f} s): {player.different} choose differently with the "
          f"16-bit table, {int((losses > 0).sum())} of them a worse option (the others tie "
          f"exactly); what they lose by the float32 table: total {losses.sum():.6f}, largest "
          f"{losses.max():.6f} points")


if __name__ == "__main__":
    main()
