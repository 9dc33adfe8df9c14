"""Head-to-head: the to-win expert (``expert-win``) against expected-score experts.

Run: ``.venv/bin/python benchmarks/bench_play_to_win.py --rules kniffel --players 2 --games 20000``
(``--help`` for the options). Seat 0 plays to win, every other seat is the expert; game ``i``
is dealt from seed ``base + i`` and starts with player ``i mod n`` (who starts alternates), so a
game's result does not depend on the run that played it. Each finished game is appended to a
JSON-lines file as it ends (``--out``, by default
``benchmarks/results/play-to-win-RULES-Np.jsonl``); a run that is stopped goes on where it
stopped when started again with the same file, and a line cut off by the stop is left out (and
played again). ``--summary`` only reads the file.

Prints the to-win seat's win share (a tie on top shared) with its Wilson 95 % interval against
the ``1/n`` of equal players, and per round how many of its decisions there were, in how many its
choice differed from the expected-score choice and in how many its hint shows two answers (the
to-win choice wins more often than the choice for points). With ``--compare-model`` it also
plays the last round's decisions of the to-win seat with the win-chance model instead of the
exact answer and reports how often the model's choice is the exact best and the exact chance it
gives away.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

from kniffel.engine.game import Game
from kniffel.engine.rules import preset
from kniffel.engine.strategy import get_strategy
from kniffel.engine.winning import WinAdvisor

#: The to-win players' advisors, one per rule set (their memory kept from game to game).
_ADVISORS: dict[str, WinAdvisor] = {}
#: The most points-to-come distributions each remembers (:class:`WinAdvisor`'s ``memory``).
MEMORY = 30_000

RESULTS = Path(__file__).resolve().parent / "results"
#: The seeds of a run: game ``i`` is dealt from ``seed * SEED_STEP + i``.
SEED_STEP = 1_000_000


def play(rules_name: str, players: int, index: int, base: int, compare: bool) -> dict[str, Any]:
    """One game: seat 0 plays to win, the others for points; per round its decisions, those
    where it chose differently and those where its hint shows two answers."""
    rules = preset(rules_name)
    seed = base + index
    game = Game(rules, [f"P{i}" for i in range(players)], seed=seed,
                start_player=index % players)
    expert = get_strategy("expert", rules)
    advisor = _ADVISORS.get(rules_name)
    if advisor is None:
        advisor = _ADVISORS[rules_name] = WinAdvisor(rules, memory=MEMORY)
    rng = random.Random(seed)
    rounds = len(rules.boxes)
    decided, differ, two = [0] * rounds, [0] * rounds, [0] * rounds
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
        r = game.round - 1
        decided[r] += 1
        differ[r] += chosen != advice.for_points.action
        two[r] += advice.differ
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
            "decided": decided, "differ": differ, "two": two, "model": model}


def _play(args: tuple[str, int, int, int, bool]) -> dict[str, Any]:
    return play(*args)


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``share`` of ``n`` trials (95 % by default;
    a shared win counts as its share)."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def summary(rows: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The win share with its Wilson 95 % interval and, per round, the decisions, the differing
    choices and the hints with two answers."""
    n = len(rows)
    mean = sum(r["share"] for r in rows) / n if n else 0.0
    low, high = wilson(mean, n)
    by_round: dict[int, list[int]] = {}
    for r in rows:
        for k, (d, f, t) in enumerate(zip(r["decided"], r["differ"], r["two"], strict=True)):
            seen = by_round.setdefault(k + 1, [0, 0, 0])
            seen[0] += d
            seen[1] += f
            seen[2] += t
    model = [m for r in rows for m in r["model"]]
    return {
        "games": n, "players": players, "share": mean, "low": low, "high": high,
        "equal": 1.0 / players,
        "rounds": {rnd: {"decisions": d, "differ": f, "two_answers": t,
                         "differ_rate": f / d if d else 0.0}
                   for rnd, (d, f, t) in sorted(by_round.items())},
        "model_last_round": None if not model else {
            "decisions": len(model), "best": sum(1 for ok, _ in model if ok) / len(model),
            "mean_lost": sum(lost for _, lost in model) / len(model),
            "max_lost": max(lost for _, lost in model)},
    }


def read_rows(out: Path) -> list[dict[str, Any]]:
    """The finished games in ``out`` (a last line cut off by a stop is left out)."""
    rows: list[dict[str, Any]] = []
    if not out.exists():
        return rows
    for line in out.read_text().splitlines():
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            print(f"left out a line cut off: {line[:40]}…", file=sys.stderr)
    return rows


def main() -> None:
    global MEMORY
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="game i is dealt from seed*1e6 + i")
    parser.add_argument("--jobs", type=int, default=1, help="processes (1: in this one)")
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON lines of the finished games (resumed where it stopped)")
    parser.add_argument("--compare-model", action="store_true")
    parser.add_argument("--summary", action="store_true", help="only summarise --out")
    parser.add_argument("--every", type=int, default=100, help="print progress every N games")
    parser.add_argument("--memory", type=int, default=MEMORY,
                        help="points-to-come distributions remembered (about 10 kB each)")
    args = parser.parse_args()
    MEMORY = args.memory
    out = args.out or RESULTS / f"play-to-win-{args.rules}-{args.players}p.jsonl"
    rows = read_rows(out)
    if not args.summary:
        done = {r["index"] for r in rows}
        todo = [(args.rules, args.players, i, args.seed * SEED_STEP, args.compare_model)
                for i in range(args.games) if i not in done]
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists() and out.stat().st_size and not out.read_bytes().endswith(b"\n"):
            with out.open("a") as sink:  # the line a stop cut off ends here
                sink.write("\n")
        start = time.perf_counter()
        pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
        games = (pool.imap_unordered(_play, todo) if pool is not None else map(_play, todo))
        try:
            with out.open("a") as sink:
                for k, row in enumerate(games, start=1):
                    sink.write(json.dumps(row, separators=(",", ":")) + "\n")
                    sink.flush()
                    rows.append(row)
                    if k % args.every == 0 or k == len(todo):
                        rate = (time.perf_counter() - start) / k
                        s = summary(rows, args.players)
                        print(f"{len(rows)}/{args.games} games, {rate:.3f} s/game, share "
                              f"{s['share']:.2%} ({s['low']:.2%}–{s['high']:.2%})", flush=True)
        finally:
            if pool is not None:
                pool.terminate()
    print(json.dumps(summary(rows, args.players), indent=1))


if __name__ == "__main__":
    main()
