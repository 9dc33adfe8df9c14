"""Head-to-head: the to-win expert (``expert-win``) against expected-score experts.

Run: ``.venv/bin/python benchmarks/bench_play_to_win.py --rules kniffel --players 2 --games 2000``
(``--help`` for the options). Seat 0 plays to win, every other seat is the expert; game ``i``
is dealt from seed ``base + i`` and starts with player ``i mod n`` (who starts alternates).
Each finished game is appended to a JSON-lines file as it ends, so a run that is stopped goes on
where it stopped when started again with the same file (``--out``).

Prints the to-win seat's win share (a tie on top shared) with its 95 % interval against the
``1/n`` of equal players, how often its choice differed from the expected-score choice, per
round, and how often its hint shows two answers (the to-win choice wins more often than the
choice for points), per round. With ``--compare-model`` it also plays the last round's decisions
of the to-win seat with the win-chance model instead of the exact answer and reports how often
the model's choice is the exact best and the exact chance it gives away.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from pathlib import Path
from typing import Any

from kniffel.engine.game import Game
from kniffel.engine.rules import preset
from kniffel.engine.strategy import get_strategy
from kniffel.engine.winning import win_advisor


def play(rules_name: str, players: int, index: int, base: int, compare: bool) -> dict[str, Any]:
    """One game: seat 0 plays to win, the others for points; its decisions logged."""
    rules = preset(rules_name)
    seed = base + index
    game = Game(rules, [f"P{i}" for i in range(players)], seed=seed,
                start_player=index % players)
    expert = get_strategy("expert", rules)
    advisor = win_advisor(rules)
    rng = random.Random(seed)
    decisions: list[tuple[int, bool, bool]] = []  # (round, chose differently, hint shows two)
    model: list[tuple[bool, float]] = []  # (the model's choice is a best, exact chance lost)
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
            continue
        turn = game.turn
        assert turn is not None
        if game.current_player != 0 or turn.roll is None:
            game.apply(expert.choose(game, rng))
            continue
        advice = advisor.advise(game)
        chosen = advice.for_win.action
        decisions.append((game.round, chosen != advice.for_points.action, advice.differ))
        if compare and advice.exact:
            by_model = advisor.advise(game, exact=False).for_win.action
            exact = {o.action: o.win for o in advice.options}
            lost = advice.for_win.win - exact[by_model]
            model.append((lost <= 1e-9, lost))
        game.apply(chosen)
    totals = [game.sheet(i).total for i in range(players)]
    top = max(totals)
    share = 1.0 / totals.count(top) if totals[0] == top else 0.0
    return {"index": index, "seed": seed, "totals": totals, "share": share,
            "decisions": decisions, "model": model}


def _play(args: tuple[str, int, int, int, bool]) -> dict[str, Any]:
    return play(*args)


def summary(rows: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The win share with its 95 % interval and the per-round rates of differing choices."""
    n = len(rows)
    shares = [r["share"] for r in rows]
    mean = sum(shares) / n
    var = sum((s - mean) ** 2 for s in shares) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    by_round: dict[int, list[int]] = {}
    for r in rows:
        for rnd, differs, two in r["decisions"]:
            seen = by_round.setdefault(rnd, [0, 0, 0])
            seen[0] += 1
            seen[1] += int(differs)
            seen[2] += int(two)
    model = [m for r in rows for m in r["model"]]
    return {
        "games": n, "players": players, "share": mean, "low": mean - half, "high": mean + half,
        "equal": 1.0 / players,
        "rounds": {rnd: {"decisions": d, "differ": f / d, "two_answers": t / d}
                   for rnd, (d, f, t) in sorted(by_round.items())},
        "model_last_round": None if not model else {
            "decisions": len(model), "best": sum(1 for ok, _ in model if ok) / len(model),
            "mean_lost": sum(lost for _, lost in model) / len(model),
            "max_lost": max(lost for _, lost in model)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=max(1, (multiprocessing.cpu_count() or 1)))
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON lines of the finished games (resumed where it stopped)")
    parser.add_argument("--compare-model", action="store_true")
    args = parser.parse_args()
    out = args.out or Path(f"play-to-win-{args.rules}-{args.players}p.jsonl")
    rows: list[dict[str, Any]] = []
    if out.exists():
        rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    done = {r["index"] for r in rows}
    todo = [(args.rules, args.players, i, args.seed * 1_000_000, args.compare_model)
            for i in range(args.games) if i not in done]
    start = time.perf_counter()
    with out.open("a") as sink, multiprocessing.Pool(args.jobs) as pool:
        for k, row in enumerate(pool.imap_unordered(_play, todo), start=1):
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            rows.append(row)
            if k % 50 == 0 or k == len(todo):
                rate = k / (time.perf_counter() - start)
                print(f"{len(rows)}/{args.games} games, {rate:.2f} games/s", flush=True)
    print(json.dumps(summary(rows, args.players), indent=1))


if __name__ == "__main__":
    main()
