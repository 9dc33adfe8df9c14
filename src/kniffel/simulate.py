"""Simulation: one strategy plays many solitaire games and the totals are summarised
(:func:`simulate`), or several strategies play against each other, one per seat
(:func:`head_to_head`: every seat's statistics and wins, the start seat going round).

:func:`simulate` and :func:`head_to_head` are the one place that plays games without a person:
``kniffel simulate`` and the benchmarks call them. Game ``i`` of a run with seed ``s`` uses the
game seed ``s * 1_000_003 + i`` for its dice (through :func:`kniffel.engine.match.dice_rng`, like
every game) and its own generator for the strategies' random choices, so the same seed gives the
same result. :func:`plot_totals` draws a
result's totals (``kniffel simulate --plot``).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from kniffel.engine.errors import KniffelError
from kniffel.engine.game import MAX_PLAYERS, Game, Player, PlayerKind, UseChip
from kniffel.engine.match import Match
from kniffel.engine.messages import count
from kniffel.engine.messages import text as words
from kniffel.engine.rules import Box, Lang, RuleSet
from kniffel.engine.strategy import Strategy

#: The percentiles reported by :meth:`SimulationResult.percentiles`.
PERCENTILES = (5, 25, 50, 75, 95)

Progress = Callable[[int, int], None]
R = TypeVar("R")


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


#: The worker's game player (:func:`_start_worker`, :func:`_start_seats_worker`): a function
#: of the seed and a game's index, built once per worker process.
_WORKER: dict[str, Any] = {}


def _start_worker(rules: RuleSet, strategy_name: str) -> None:
    """In a worker process: build the strategy named ``strategy_name`` for ``rules`` once."""
    from kniffel.engine.strategy import get_strategy

    strategy = get_strategy(strategy_name, rules)
    player = Player("Computer", PlayerKind.COMPUTER, strategy.name)
    _WORKER.update(play=partial(_play_game, rules, strategy, player))


def _play_chunk(seed: int, start: int, stop: int) -> tuple[int, list[Any]]:
    """Games ``start``…``stop - 1`` of a run, in a worker process (see :func:`_play_game`,
    :func:`_play_seats_game`), with ``start`` to tell the chunks apart."""
    from kniffel.interrupt import worker_ready

    worker_ready()
    play = _WORKER["play"]
    return start, [play(seed, i) for i in range(start, stop)]


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


class _Stopped(KeyboardInterrupt):
    """Ctrl-C stopped :func:`_play_all`: ``results`` are the games finished without a gap from
    game 0, in game order."""

    def __init__(self, results: list[Any], seconds: float) -> None:
        super().__init__(len(results))
        self.results = results
        self.seconds = seconds


def _play_all(play: Callable[[int, int], R], games: int, seed: int, jobs: int,
              start_worker: Callable[..., None], initargs: tuple[Any, ...],
              progress: Progress | None) -> tuple[list[R], float]:
    """Games 0…``games - 1`` played by ``play(seed, i)``, in ``jobs`` processes (each first
    runs ``start_worker(*initargs)``, which builds the same ``play``), with the seconds it
    took: each game depends only on its index and the seed, and the results come in game
    order, so they do not depend on ``jobs``. The games go out in chunks of at most
    :data:`CHUNK` (as many as game 1 took to play in :data:`CHUNK_SECONDS`), and ``progress``
    is told as each chunk comes back; on Ctrl-C or SIGTERM the workers are ended at once
    (:func:`kniffel.interrupt.worker_pool`) and :class:`_Stopped` carries the games finished
    without a gap."""
    from kniffel.interrupt import worker_pool

    start = time.perf_counter()
    chunks = [(0, 2)]
    results: dict[int, list[R]] = {}
    done = 0

    def finished() -> list[R]:
        """The games finished without a gap from game 0, in game order."""
        out: list[R] = []
        for a, _ in chunks:
            if a not in results:
                break
            out += results[a]
        return out

    try:
        # games 0 and 1 here first: whatever a strategy prepares once (a value table built and
        # stored) is then ready for the workers instead of being prepared by each of them at
        # once, and game 1 (without that) tells how long a game takes
        results[0] = [play(seed, 0)]
        done = 1
        if progress is not None:
            progress(done, games)
        began = time.perf_counter()
        results[0].append(play(seed, 1))
        one = time.perf_counter() - began
        done = 2
        if progress is not None:
            progress(done, games)
        step = max(1, min(CHUNK, (games - 2) // (4 * jobs), round(CHUNK_SECONDS / max(one, 1e-6))))
        chunks += [(i, min(i + step, games)) for i in range(2, games, step)]
        with worker_pool(jobs, start_worker, initargs) as pool:
            for a, part in pool.imap_unordered(_play_chunk_args, [(seed, a, b)
                                                                  for a, b in chunks[1:]]):
                results[a] = part
                done += len(part)
                if progress is not None:
                    progress(done, games)
    except KeyboardInterrupt as e:
        raise _Stopped(finished(), time.perf_counter() - start) from e
    return finished(), time.perf_counter() - start


def _play_serial(play: Callable[[int, int], R], games: int, seed: int,
                 progress: Progress | None) -> tuple[list[R], float]:
    """:func:`_play_all` in this process, ``progress`` told after every game."""
    start = time.perf_counter()
    results: list[R] = []
    try:
        for i in range(games):
            results.append(play(seed, i))
            if progress is not None:
                progress(i + 1, games)
    except KeyboardInterrupt as e:
        raise _Stopped(results, time.perf_counter() - start) from e
    return results, time.perf_counter() - start


def _play_chunk_args(args: tuple[int, int, int]) -> tuple[int, list[Any]]:
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
    _check_counts(games, jobs)
    player = Player("Computer", PlayerKind.COMPUTER, strategy.name)
    play = partial(_play_game, rules, strategy, player)
    try:
        if jobs > 1 and games > 1 and _in_workers(strategy):
            results, seconds = _play_all(play, games, seed, min(jobs, games), _start_worker,
                                         (rules, strategy.name), progress)
        else:
            results, seconds = _play_serial(play, games, seed, progress)
    except _Stopped as e:
        raise SimulationInterrupted(
            _summed(rules, strategy, seed, e.results, e.seconds, games)
            if e.results else None, games) from e
    return _summed(rules, strategy, seed, results, seconds, games)


def _check_counts(games: int, jobs: int) -> None:
    """Refuse a number of games or processes below 1 (the catalog's error)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise KniffelError(f"the number of games must be at least 1, got {games!r}",
                           code="simulate.games", params={"games": repr(games)})
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise KniffelError(f"the number of jobs must be at least 1, got {jobs!r}",
                           code="simulate.jobs", params={"jobs": repr(jobs)})


def _in_workers(strategy: Strategy) -> bool:
    """Whether worker processes can build ``strategy`` by its name (one of the package's own;
    strategies registered at run time from outside play in this process)."""
    from kniffel.engine.strategy import strategy_names

    return type(strategy).__module__.startswith("kniffel.") and strategy.name in strategy_names()


# --- head to head: a strategy per seat ------------------------------------------------------

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a share ``share`` of ``n`` games (a tie
    on top counted as a share of a win: the interval is then a little wider than it need be)."""
    if n <= 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / d
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / d
    lo = 0.0 if share <= 0 else max(0.0, centre - half)
    hi = 1.0 if share >= 1 else min(1.0, centre + half)
    return lo, hi


def win_shares(totals: Sequence[int]) -> tuple[float, ...]:
    """Each player's share of a game's win by final ``totals``: 1 for the one on top, a tie on
    top shared equally (as the win chances count it), 0 below."""
    top = max(totals)
    on_top = sum(1 for t in totals if t == top)
    return tuple(1 / on_top if t == top else 0.0 for t in totals)


@dataclass(frozen=True)
class HeadToHeadResult:
    """``games`` games of ``strategies`` against each other, strategy ``i`` in seat ``i``, the
    start seat going round (game ``g`` starts with seat ``g mod seats``).

    ``seats`` holds every seat's statistics as a solitaire run reports them (its totals, boxes,
    bonus); ``wins`` every seat's games won, a tie on top shared."""

    rules: str
    strategies: tuple[str, ...]
    seed: int
    seats: tuple[SimulationResult, ...]
    wins: tuple[float, ...]
    seconds: float = field(default=0.0, compare=False)
    requested: int | None = field(default=None, compare=False)

    @property
    def games(self) -> int:
        return self.seats[0].games

    @property
    def partial(self) -> bool:
        """Whether the run stopped before all the games asked for were played."""
        return self.requested is not None and self.requested > self.games

    def share(self, seat: int) -> float:
        """Seat ``seat``'s share of the wins."""
        return self.wins[seat] / self.games

    def interval(self, seat: int) -> tuple[float, float]:
        """The 95 % interval of seat ``seat``'s win share (:func:`wilson`)."""
        return wilson(self.share(seat), self.games)

    def by_strategy(self) -> dict[str, tuple[int, float]]:
        """Every strategy (in seat order) with its number of seats and the share of the games
        one of its seats won."""
        out: dict[str, tuple[int, float]] = {}
        for name, won in zip(self.strategies, self.wins, strict=True):
            seats, wins = out.get(name, (0, 0.0))
            out[name] = (seats + 1, wins + won)
        return {name: (seats, wins / self.games) for name, (seats, wins) in out.items()}

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        """Everything as a JSON object (``kniffel simulate`` with a strategy per seat,
        ``--json``): per seat its strategy, wins, win share and 95 % interval beside the
        statistics of its totals; per strategy its seats and win share."""
        seats = []
        for i, result in enumerate(self.seats):
            stats = result.to_json()
            for key in ("rules", "seed", "games", "seconds", "games_per_second", "partial",
                        "games_requested"):
                stats.pop(key)
            lo, hi = self.interval(i)
            seats.append({"seat": i + 1, **stats, "wins": self.wins[i],
                          "win_share": self.share(i), "win_interval": [lo, hi]})
        return {
            "rules": self.rules, "strategies": list(self.strategies), "seed": self.seed,
            "games": self.games, "start": "rotating", "seats": seats,
            "by_strategy": {name: {"seats": n, "win_share": share,
                                   "win_interval": list(wilson(share, self.games))}
                            for name, (n, share) in self.by_strategy().items()},
            "seconds": self.seconds, "games_per_second": self.games_per_second,
            "partial": self.partial,
            "games_requested": self.games if self.requested is None else self.requested,
        }


class HeadToHeadInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) stopped :func:`head_to_head`; ``partial`` is the result of the
    games 0…N-1 finished so far (``None`` before game 0 finished), as
    :class:`SimulationInterrupted`'s."""

    def __init__(self, partial: HeadToHeadResult | None, requested: int) -> None:
        super().__init__(partial.games if partial else 0, requested)
        self.partial = partial
        self.requested = requested


SeatsResult = tuple[GameResult, ...]


def _play_seats_game(rules: RuleSet, strategies: Sequence[Strategy], seed: int,
                     index: int) -> SeatsResult:
    """Game ``index`` of a head-to-head run: seat ``i`` played by ``strategies[i]``, seat
    ``index mod seats`` first; every seat's :data:`GameResult`."""
    players = [Player(f"Computer {i + 1}", PlayerKind.COMPUTER, s.name)
               for i, s in enumerate(strategies)]
    game = Game(rules, players, seed=game_seed(seed, index),
                start_player=index % len(players))
    match = Match(game, strategies=dict(enumerate(strategies)),
                  rng=random.Random(f"strategy:{seed}:{index}"))
    match.play_out()
    out = []
    for i in range(len(players)):
        sheet = game.sheet(i)
        out.append((sheet.total, sheet.bonus > 0, tuple(
            (b.value, e.points, e.struck) for b, e in sheet.entries.items()),
            rules.chips - sheet.chips_left))
    return tuple(out)


def _start_seats_worker(rules: RuleSet, names: tuple[str, ...]) -> None:
    """In a worker process: build the strategies named ``names`` for ``rules`` once."""
    from kniffel.engine.strategy import get_strategy

    strategies = tuple(get_strategy(name, rules) for name in names)
    _WORKER.update(play=partial(_play_seats_game, rules, strategies))


def _seats_summed(rules: RuleSet, strategies: Sequence[Strategy], seed: int,
                  results: Sequence[SeatsResult], seconds: float,
                  requested: int) -> HeadToHeadResult:
    """The :class:`HeadToHeadResult` of the games ``results``, in game order."""
    seats = tuple(_summed(rules, s, seed, [r[i] for r in results], seconds, requested)
                  for i, s in enumerate(strategies))
    wins = [0.0] * len(strategies)
    for r in results:
        for i, won in enumerate(win_shares([seat[0] for seat in r])):
            wins[i] += won
    return HeadToHeadResult(rules.name, tuple(s.name for s in strategies), seed, seats,
                            tuple(wins), seconds, requested)


def head_to_head(rules: RuleSet, strategies: Sequence[Strategy], games: int, seed: int = 0, *,
                 progress: Progress | None = None, jobs: int = 1) -> HeadToHeadResult:
    """Play ``games`` games of ``rules`` with strategy ``i`` in seat ``i`` (2–:data:`MAX_PLAYERS`
    seats), the start seat going round, and sum up every seat's results and wins.

    Game ``g`` has the dice of :func:`game_seed` ``(seed, g)`` and starts with seat
    ``g mod seats``; with ``jobs`` > 1 the games run in that many processes as in
    :func:`simulate` (the same result whatever ``jobs`` is), and Ctrl-C raises
    :class:`HeadToHeadInterrupted` with the games 0…N-1 finished so far.
    """
    _check_counts(games, jobs)
    if not 2 <= len(strategies) <= MAX_PLAYERS:
        raise KniffelError(f"a head-to-head run needs 2–{MAX_PLAYERS} strategies, one per "
                           f"seat, got {len(strategies)}", code="simulate.seats",
                           params={"most": MAX_PLAYERS, "got": len(strategies)})
    play = partial(_play_seats_game, rules, tuple(strategies))
    try:
        if jobs > 1 and games > 1 and all(_in_workers(s) for s in strategies):
            results, seconds = _play_all(play, games, seed, min(jobs, games), _start_seats_worker,
                                         (rules, tuple(s.name for s in strategies)), progress)
        else:
            results, seconds = _play_serial(play, games, seed, progress)
    except _Stopped as e:
        raise HeadToHeadInterrupted(
            _seats_summed(rules, strategies, seed, e.results, e.seconds, games)
            if e.results else None, games) from e
    return _seats_summed(rules, strategies, seed, results, seconds, games)


def head_to_head_title(result: HeadToHeadResult, lang: Lang) -> str:
    """"Kniffel Extreme · Experte, auf Sieg gegen Experte · 1.000 Spiele · Startwert 0" (an
    interrupted run: "… 250 von 1.000 Spielen (abgebrochen) …")."""
    from kniffel.engine.messages import strategy_name

    against = words("simulate.against", lang)
    strategies = f" {against} ".join(strategy_name(s, lang) for s in result.strategies)
    if result.partial:
        return words("simulate.title_partial", lang, rules=result.rules, strategy=strategies,
                     games=count(result.games, lang),
                     requested=count(result.requested or 0, lang), seed=result.seed)
    return words("simulate.title", lang, rules=result.rules, strategy=strategies,
                 games=count(result.games, lang), seed=result.seed)


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

