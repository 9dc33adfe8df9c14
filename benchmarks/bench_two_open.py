"""How long exact play to win takes with two open boxes per player (issue 41: "exact where it fits
the browser's time budget, measure it"), and how close the win-chance model's choice comes.

Run: ``.venv/bin/python benchmarks/bench_two_open.py --rules kniffel --positions 3``
(``--help`` for the options). Two players, each with two open boxes, the mover first: the mover's
turn, the other's, then the last round (:class:`kniffel.engine.winning.LastRound`, exact). With two
players the shares sum to one, so the other's best turn is all the mover needs: the mover's entry
``e`` is worth ``1 − V_B(e)``, ``V_B(e)`` the other's turn played to win, each of its entries ``f``
worth ``1 − W_A(e, f)``, ``W_A`` the mover's exact share of the last round from the two sheets
(one turn recursion for the mover, one per threshold for the other, those remembered across
``e``). The positions are the mover's first throw of round ``n − 1`` in games of two experts
(seeds from 1 on). Prints per position the seconds (CPU) with numpy and in pure Python (the
browser's Pyodide runs pure Python, about 2–3× slower than CPython), the turn recursions the
last rounds needed, and whether the model's choice (``WinAdvisor.advise``) is the exact best, and
the exact chance it gives away. Four players would need every combination of the three
others' entries of round ``n − 1`` before each last round (``|e|·|f|³`` last rounds where two
players need ``|e|·|f|``, ``|f|`` the distinct entries of a turn), each with three later
players: it prints that estimate, ``|f|² · 3`` times the two players' time.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from kniffel.engine.advice import Position
from kniffel.engine.distribution import Distribution
from kniffel.engine.endgame import endgame_for
from kniffel.engine.expert import Expert, Worth, expert_for
from kniffel.engine.game import Game
from kniffel.engine.rules import Box, Entry, RuleSet, preset
from kniffel.engine.strategy import get_strategy
from kniffel.engine.winning import Column, LastRound, TurnPlayer, WinAdvisor, gain


def after(rules: RuleSet, col: Column, box: Box, points: int, bonus: int, x: int) -> Column:
    """The column after ``points`` in ``box`` (a further Kniffel's extra points ``bonus``),
    ``x`` the extra state after it (chips left)."""
    entries = dict(col.entries)
    entries[box] = Entry(points, struck=points == 0)
    upper = col.upper + (points if box.is_upper else 0)
    return Column(entries, col.total + gain(rules, col.upper, box, points, bonus), upper,
                  x if rules.chips else 0)


class TwoOpen:
    """The exact two-player induction over the last two rounds (see the module docstring)."""

    def __init__(self, rules: RuleSet, use_numpy: bool) -> None:
        self.rules = rules
        self.player = TurnPlayer(rules, endgame=endgame_for(rules, use_numpy=use_numpy))
        self.expert: Expert = expert_for(rules, use_numpy=use_numpy)
        self.memory: dict[tuple[object, ...], Distribution] = {}
        self.shares: dict[tuple[object, ...], float] = {}
        self.turns = 0

    def turn_value(self, col: Column, worth: Callable[[Box, int, int, int], float]) -> float:
        """The expected worth of a turn from ``col`` played to maximise ``worth`` of its entry
        (box, points, extra points, extra state after)."""
        def worth_of(x: int) -> Worth:
            return lambda box, points, bonus: worth(box, points, bonus, x)
        stages = self.expert.stages_for(self.player.turn(col), col.entries, worth_of)
        self.turns += 1
        return float(stages.before(1)[self.expert._m.dice.first])

    def last_round(self, a: Column, b: Column) -> float:
        """A's exact share of the last round, A to move, then B (one open box each)."""
        key = (a.key, b.key)
        found = self.shares.get(key)
        if found is None:
            rnd = LastRound(self.player, [], [b], self.memory)
            utility = rnd.mover_utility()
            final = self.player.final_worth(a, utility)
            found = self.turn_value(a, lambda box, p, bonus, x: final(x)(box, p, bonus))
            self.turns += rnd.turns_played
            self.shares[key] = found
        return found

    def mover_values(self, a: Column, b: Column) -> dict[tuple[Box, int, int, int], float]:
        """Every entry of the mover's turn from ``a`` with its exact chance to win."""
        rules = self.rules
        seen: dict[tuple[Box, int, int, int], float] = {}

        def mover(box: Box, points: int, bonus: int, x: int) -> float:
            key = (box, points, bonus, x)
            if key not in seen:
                a1 = after(rules, a, box, points, bonus, x)
                seen[key] = 1.0 - self.turn_value(
                    b, lambda bx, p, bo, y: 1.0 - self.last_round(
                        a1, after(rules, b, bx, p, bo, y)))
            return seen[key]
        self.value = self.turn_value(a, mover)
        return seen


def exact_choices(two: TwoOpen, a: Column, pos: Position,
                  exact: dict[tuple[Box, int, int, int], float]) -> dict[object, float]:
    """The exact chance of each of the mover's choices now (dice on the table)."""
    def worth_of(x: int) -> Worth:
        return lambda box, p, bo: exact.get((box, p, bo, x), 0.0)
    stages = two.expert.stages_for(two.player.turn(a), a.entries, worth_of)
    return {act: v for act, v, _ in two.expert.choice_values(
        pos, stages, worth_of(two.expert._x_entry(pos)))}


def positions(rules: RuleSet, count: int, advisor: WinAdvisor,
              open_only: bool) -> list[Game]:
    """The mover's first throw of round ``n − 1`` in games of two experts (``open_only``: only
    where the model gives the mover a chance to win between 10 % and 90 %)."""
    expert = get_strategy("expert", rules)
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = Game(rules, ["A", "B"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            if game.is_chance_node():
                game.apply(game.sample_outcome(rng))
                continue
            turn = game.turn
            assert turn is not None
            if game.round == len(rules.boxes) - 1 and turn.roll is not None:
                if not open_only or 0.1 <= advisor.advise(game).for_win.win <= 0.9:
                    found.append(game)
                break
            game.apply(expert.choose(game, rng))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--pure", action="store_true", help="also in pure Python (slow)")
    parser.add_argument("--open", action="store_true",
                        help="only positions the model gives the mover 10–90 %% to win")
    args = parser.parse_args()
    rules = preset(args.rules)
    advisor = WinAdvisor(rules)
    for game in positions(rules, args.positions, advisor, args.open):
        mover = game.current_player
        assert mover is not None
        a = Column.of(game, mover)
        b = Column.of(game, 1 - mover)
        pos = Position.from_game(game)
        times = {}
        for use_numpy in (True, False) if args.pure else (True,):
            two = TwoOpen(rules, use_numpy)
            start = time.process_time()
            exact = two.mover_values(a, b)
            times["numpy" if use_numpy else "pure"] = time.process_time() - start
        choices = exact_choices(two, a, pos, exact)
        best = max(choices.values())
        model = advisor.advise(game).for_win.action
        lost = best - choices[model]
        shown = ", ".join(f"{k} {v:.2f} s" for k, v in times.items())
        per_turn = len(two.shares) / max(1, len(exact))
        verdict = "is the exact best" if lost <= 1e-9 else f"gives away {lost:.4f}"
        print(f"{args.rules} round {game.round}, mover {mover}: exact {shown} CPU, "
              f"{two.turns} turn recursions, {len(exact)} mover entries, {len(two.shares)} "
              f"last rounds; the model's choice {verdict} (exact chance {best:.3f}); four "
              f"players: about {times['numpy'] * per_turn ** 2 * 3:.0f} s with numpy",
              flush=True)


if __name__ == "__main__":
    main()
