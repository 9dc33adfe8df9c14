"""Solitaire simulation: one strategy plays many games and the totals are summarised.

:func:`simulate` is the one place that plays games without a person: ``kniffel simulate`` and the
benchmark call it. Game ``i`` of a run with seed ``s`` uses the game seed ``s * 1_000_003 + i`` for
its dice (through :func:`kniffel.engine.match.dice_rng`, like every game) and its own generator for
the
strategy's random choices, so the same seed gives the same result. :func:`plot_totals` draws a
result's totals (``kniffel simulate --plot``).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kniffel.engine.errors import KniffelError
from kniffel.engine.game import Game, Player, PlayerKind, UseChip
from kniffel.engine.match import Match
from kniffel.engine.messages import count
from kniffel.engine.messages import text as words
from kniffel.engine.rules import Box, Lang, RuleSet
from kniffel.engine.strategy import Strategy

#: The percentiles reported by :meth:`SimulationResult.percentiles`.
PERCENTILES = (5, 25, 50, 75, 95)

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SimulationResult:
    """The totals of ``games`` solitaire games and what each box held.

    ``box_points`` and ``box_strikes`` are per box: the sum of its points over all games and how
    many games struck it (entered 0). ``seconds`` is the wall time and takes no part in equality.
    """

    rules: str
    strategy: str
    seed: int
    totals: tuple[int, ...]
    box_points: Mapping[Box, int]
    box_strikes: Mapping[Box, int]
    bonus_games: int
    seconds: float = field(default=0.0, compare=False)
    #: Chips handed in for a 4th throw, over all games (rule sets with chips).
    chips_used: int = 0
    #: The games the run was asked for (more than :attr:`games` when it was interrupted; the
    #: same games, fewer asked for, are an equal result).
    requested: int | None = field(default=None, compare=False)

    @property
    def partial(self) -> bool:
        """Whether the run stopped before all the games asked for were played."""
        return self.requested is not None and self.requested > self.games

    @property
    def games(self) -> int:
        return len(self.totals)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.totals)

    @property
    def std(self) -> float:
        """The sample standard deviation of the totals (0 for a single game)."""
        return statistics.stdev(self.totals) if len(self.totals) > 1 else 0.0

    def percentiles(self) -> dict[int, float]:
        """The 5th, 25th, 50th, 75th and 95th percentile of the totals (linear interpolation)."""
        ordered = sorted(self.totals)
        out = {}
        for p in PERCENTILES:
            pos = (len(ordered) - 1) * p / 100
            lo, hi = math.floor(pos), math.ceil(pos)
            out[p] = ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)
        return out

    @property
    def bonus_rate(self) -> float:
        """The share of games that earned the upper bonus."""
        return self.bonus_games / self.games

    def strike_rate(self, box: Box) -> float:
        """The share of games in which ``box`` was struck."""
        return self.box_strikes[box] / self.games

    def box_mean(self, box: Box) -> float:
        """The mean points of ``box``."""
        return self.box_points[box] / self.games

    @property
    def chips_per_game(self) -> float:
        """The mean number of chips a game handed in."""
        return self.chips_used / self.games

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        """Everything as a JSON object (the form ``kniffel simulate --json`` prints)."""
        return {
            "rules": self.rules, "strategy": self.strategy, "seed": self.seed,
            "games": self.games, "mean": self.mean, "std": self.std,
            "min": min(self.totals), "max": max(self.totals),
            "percentiles": {str(p): v for p, v in self.percentiles().items()},
            "bonus_rate": self.bonus_rate, "chips_per_game": self.chips_per_game,
            "boxes": {b.value: {"mean": self.box_mean(b), "strike_rate": self.strike_rate(b)}
                      for b in self.box_points},
            "seconds": self.seconds, "games_per_second": self.games_per_second,
            "partial": self.partial,
            "games_requested": self.games if self.requested is None else self.requested,
            "totals": list(self.totals),
        }


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with ``seed``."""
    return seed * 1_000_003 + index


def play_out(game: Game, strategy: Strategy, rng: random.Random) -> None:
    """Play ``game`` to its end with ``strategy`` making every decision (with ``rng``); dice from
    the game's seed (a :class:`~kniffel.engine.match.Match` of computers only)."""
    match = Match(game, strategies=dict.fromkeys(range(len(game.players)), strategy), rng=rng)
    match.play_out()


GameResult = tuple[int, bool, tuple[tuple[str, int, bool], ...], int]


def chips_used(game: Game) -> int:
    """The chips handed in during ``game``."""
    return sum(isinstance(a, UseChip) for a in game.actions)


def _play_game(rules: RuleSet, strategy: Strategy, player: Player, seed: int,
               index: int) -> GameResult:
    """Game ``index`` of a run: total, bonus earned, (box, points, struck) of every box, and
    the chips handed in."""
    game = Game(rules, [player], seed=game_seed(seed, index))
    play_out(game, strategy, random.Random(f"strategy:{seed}:{index}"))
    sheet = game.sheet(0)
    return (sheet.total, sheet.bonus > 0, tuple(
        (b.value, e.points, e.struck) for b, e in sheet.entries.items()), chips_used(game))


#: The worker's strategy and player (:func:`_start_worker`), built once per worker process.
_WORKER: dict[str, Any] = {}


def _start_worker(rules: RuleSet, strategy_name: str) -> None:
    """In a worker process: build the strategy named ``strategy_name`` for ``rules`` once."""
    from kniffel.engine.strategy import get_strategy

    strategy = get_strategy(strategy_name, rules)
    _WORKER.update(rules=rules, strategy=strategy,
                   player=Player("Computer", PlayerKind.COMPUTER, strategy.name))


def _play_chunk(seed: int, start: int, stop: int) -> tuple[int, list[GameResult]]:
    """Games ``start``…``stop - 1`` of a run, in a worker process (see :func:`_play_game`),
    with ``start`` to tell the chunks apart."""
    from kniffel.interrupt import worker_ready

    worker_ready()
    rules, strategy, player = _WORKER["rules"], _WORKER["strategy"], _WORKER["player"]
    return start, [_play_game(rules, strategy, player, seed, i) for i in range(start, stop)]


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, see :mod:`kniffel.interrupt`) stopped :func:`simulate`.

    ``partial`` is the result of the games finished without a gap from the first, games
    0…N-1 (``None`` before game 0 finished): exactly what ``simulate`` with ``games=N`` and the
    same seed gives, whatever the number of processes (games finished after a gap are left
    out, so the partial result can be reproduced). ``requested`` is the number asked for.
    """

    def __init__(self, partial: SimulationResult | None, requested: int) -> None:
        super().__init__(partial.games if partial else 0, requested)
        self.partial = partial
        self.requested = requested


#: The most games one task of a worker plays, and the time one task should take (judged by
#: game 1): small, so that the progress moves while games finish and the games in flight when
#: the run is interrupted are few.
CHUNK = 100
CHUNK_SECONDS = 0.2


def _summed(rules: RuleSet, strategy: Strategy, seed: int, results: Iterable[GameResult],
            seconds: float, requested: int) -> SimulationResult:
    """The :class:`SimulationResult` of the games ``results``, in game order, of a run asked
    for ``requested`` games."""
    box_points = dict.fromkeys(rules.boxes, 0)
    box_strikes = dict.fromkeys(rules.boxes, 0)
    totals: list[int] = []
    bonus_games = chips = 0
    for total, bonus, entries, used in results:
        totals.append(total)
        bonus_games += bonus
        chips += used
        for name, points, struck in entries:
            box_points[Box(name)] += points
            box_strikes[Box(name)] += struck
    return SimulationResult(rules.name, strategy.name, seed, tuple(totals), box_points,
                            box_strikes, bonus_games, seconds, chips, requested)


def _simulate_parallel(rules: RuleSet, strategy: Strategy, games: int, seed: int, jobs: int,
                       progress: Progress | None) -> SimulationResult:
    """:func:`simulate` with the games in ``jobs`` processes: each game depends only on its
    index and the seed, and the results are summed in game order, so they do not depend on
    ``jobs``. The games go out in chunks of at most :data:`CHUNK` (as many as game 1 took to
    play in :data:`CHUNK_SECONDS`), and ``progress`` is told as each chunk comes back; on Ctrl-C or
    SIGTERM the workers are ended at once (:func:`kniffel.interrupt.worker_pool`) and
    :class:`SimulationInterrupted` carries the games finished without a gap."""
    from kniffel.interrupt import worker_pool

    start = time.perf_counter()
    chunks = [(0, 2)]
    results: dict[int, list[GameResult]] = {}
    done = 0

    def finished() -> list[GameResult]:
        """The games finished without a gap from game 0, in game order."""
        out: list[GameResult] = []
        for a, _ in chunks:
            if a not in results:
                break
            out += results[a]
        return out

    try:
        # games 0 and 1 here first: whatever a strategy prepares once (a value table built and
        # stored) is then ready for the workers instead of being prepared by each of them at
        # once, and game 1 (without that) tells how long a game takes
        player = Player("Computer", PlayerKind.COMPUTER, strategy.name)
        results[0] = [_play_game(rules, strategy, player, seed, 0)]
        done = 1
        if progress is not None:
            progress(done, games)
        began = time.perf_counter()
        results[0].append(_play_game(rules, strategy, player, seed, 1))
        one = time.perf_counter() - began
        done = 2
        if progress is not None:
            progress(done, games)
        step = max(1, min(CHUNK, (games - 2) // (4 * jobs), round(CHUNK_SECONDS / max(one, 1e-6))))
        chunks += [(i, min(i + step, games)) for i in range(2, games, step)]
        with worker_pool(jobs, _start_worker, (rules, strategy.name)) as pool:
            for a, part in pool.imap_unordered(_play_chunk_args, [(seed, a, b)
                                                                  for a, b in chunks[1:]]):
                results[a] = part
                done += len(part)
                if progress is not None:
                    progress(done, games)
    except KeyboardInterrupt as e:
        games_done = finished()
        raise SimulationInterrupted(
            _summed(rules, strategy, seed, games_done, time.perf_counter() - start, games)
            if games_done else None, games) from e
    return _summed(rules, strategy, seed, finished(), time.perf_counter() - start, games)


def _play_chunk_args(args: tuple[int, int, int]) -> tuple[int, list[GameResult]]:
    """:func:`_play_chunk` with its arguments in one tuple (for ``imap_unordered``)."""
    return _play_chunk(*args)


def simulate(rules: RuleSet, strategy: Strategy, games: int, seed: int = 0, *,
             progress: Progress | None = None, jobs: int = 1) -> SimulationResult:
    """Play ``games`` solitaire games of ``rules`` with ``strategy`` and sum up the results.

    ``progress(done, games)`` is called after every game (with ``jobs`` > 1: after every chunk
    of at most :data:`CHUNK` games, which then run in that many processes, each building the
    strategy once by its name; the result is the same whatever ``jobs`` is). Strategies from
    outside the package (registered at run time) play in this process.

    Ctrl-C (and SIGTERM within :func:`kniffel.interrupt.interruptible`) raises
    :class:`SimulationInterrupted` with the result of the games 0…N-1 finished so far, after
    every worker process has ended.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise KniffelError(f"the number of games must be at least 1, got {games!r}",
                           code="simulate.games", params={"games": repr(games)})
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise KniffelError(f"the number of jobs must be at least 1, got {jobs!r}",
                           code="simulate.jobs", params={"jobs": repr(jobs)})
    from kniffel.engine.strategy import strategy_names

    ours = type(strategy).__module__.startswith("kniffel.")
    if jobs > 1 and games > 1 and ours and strategy.name in strategy_names():
        return _simulate_parallel(rules, strategy, games, seed, min(jobs, games), progress)
    player = Player("Computer", PlayerKind.COMPUTER, strategy.name)
    start = time.perf_counter()
    results: list[GameResult] = []
    try:
        for i in range(games):
            results.append(_play_game(rules, strategy, player, seed, i))
            if progress is not None:
                progress(i + 1, games)
    except KeyboardInterrupt as e:
        raise SimulationInterrupted(
            _summed(rules, strategy, seed, results, time.perf_counter() - start, games)
            if results else None, games) from e
    return _summed(rules, strategy, seed, results, time.perf_counter() - start, games)


def simulation_title(result: SimulationResult, lang: Lang) -> str:
    """"Kniffel · gierig · 1.000 Spiele · Startwert 0"; for an interrupted run "… 250 von
    1.000 Spielen (abgebrochen) …"."""
    if result.partial:
        return words("simulate.title_partial", lang, rules=result.rules,
                     strategy=result.strategy, games=count(result.games, lang),
                     requested=count(result.requested or 0, lang), seed=result.seed)
    return words("simulate.title", lang, rules=result.rules, strategy=result.strategy,
                 games=count(result.games, lang), seed=result.seed)


def rounded(value: Any, digits: int = 4) -> Any:
    """``value`` (JSON: dicts, lists, numbers) with every float rounded to ``digits`` decimals,
    so that ``733.0500000000002`` is written ``733.05``."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v, digits) for v in value]
    return value


def histogram_bins(totals: Sequence[int]) -> int:
    """About the square root of the number of games (5–60 bins), never more than there are
    different totals: 200 games get 14 bins."""
    n = len(totals)
    return max(1, min(len(set(totals)), max(5, min(60, round(math.sqrt(n))))))



def plot_totals(result: SimulationResult, path: str, lang: Lang = "de") -> None:
    """Write a PNG histogram of ``result``'s totals to ``path`` (matplotlib, no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from kniffel.engine.messages import number

    fig, ax = plt.subplots(figsize=(8, 4.5))
    try:
        ax.hist(result.totals, bins=histogram_bins(result.totals), color="#3b6ea8",
                edgecolor="white")
        ax.axvline(result.mean, color="#c0392b", linestyle="--",
                   label=words("simulate.plot_mean", lang, mean=number(result.mean, lang)))
        ax.set_xlabel(words("simulate.plot_x", lang))
        ax.set_ylabel(words("simulate.plot_y", lang))
        ax.set_title(simulation_title(result, lang))
        ax.legend()
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)

