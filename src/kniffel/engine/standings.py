"""Head to head and an evening's standings, from finished games' results: the same numbers for
``kniffel stats`` (the desktop's SQLite history) and the browser's statistics.

Pure Python, no I/O. A :class:`Result` is what a finished game leaves: its rule set, the players'
names and totals in seat order, and the day it was played (``YYYY-MM-DD`` in the reader's time
zone, or None where it is not known).

* :func:`head_to_head` — for each rule set and each pair of players who played each other: their
  games together, how often each had the higher total, the ties, and the average margin (the
  first's total minus the second's, over their games together). Totals of different rule sets
  are never compared.
* :func:`evenings` — the games of the same players on one rule set on one day, as one standings:
  per player the games won (a shared first place counts for each), the points of all games
  together and the average place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

__all__ = ["Evening", "HeadToHead", "Result", "Standing", "day_of", "evenings", "head_to_head"]


def day_of(iso: object, zone: tzinfo | None = None) -> str | None:
    """The day (``YYYY-MM-DD``) of the time ``iso`` (ISO 8601), in ``zone`` when given and the
    time states its offset; None for anything that is no time."""
    if not isinstance(iso, str):
        return None
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None
    if zone is not None and moment.tzinfo is not None:
        moment = moment.astimezone(zone)
    return moment.date().isoformat()


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game's result: rule set, the players' names and totals in seat order, and the
    day it was played (None where unknown)."""

    rules: str
    names: tuple[str, ...]
    totals: tuple[int, ...]
    day: str | None = None

    def place(self, seat: int) -> int:
        """The place of the player in ``seat``: 1 plus the players with a higher total."""
        return 1 + sum(t > self.totals[seat] for t in self.totals)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' games together on one rule set (``first`` sorts before ``second``): how
    often each had the higher total, the ties, and the first's average margin (negative: the
    second was ahead on average)."""

    rules: str
    first: str
    second: str
    games: int
    first_wins: int
    second_wins: int
    ties: int
    margin: float


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of an evening: games won, points of all games, average place."""

    name: str
    wins: int
    points: int
    average_place: float


@dataclass(frozen=True, slots=True)
class Evening:
    """The games of the same players on one rule set on one day, as one standings (best
    first: most wins, then most points)."""

    day: str
    rules: str
    games: int
    standings: tuple[Standing, ...]


def _valid(results: Iterable[Result]) -> list[Result]:
    """The results whose names and totals fit together (one total per name, names distinct)."""
    return [r for r in results if len(r.names) == len(r.totals) and r.names
            and len(set(r.names)) == len(r.names)]


def head_to_head(results: Iterable[Result]) -> list[HeadToHead]:
    """Every pair of players who played each other, per rule set: the rule sets in the order
    they first appear, within one the pairs with the most games first (then by name)."""
    pairs: dict[tuple[str, str, str], list[int]] = {}  # games, wins a, wins b, ties, margin sum
    for r in _valid(results):
        for i, a in enumerate(r.names):
            for j, b in enumerate(r.names):
                if not a < b:
                    continue
                p = pairs.setdefault((r.rules, a, b), [0, 0, 0, 0, 0])
                diff = r.totals[i] - r.totals[j]
                p[0] += 1
                p[1] += diff > 0
                p[2] += diff < 0
                p[3] += diff == 0
                p[4] += diff
    order = list(dict.fromkeys(rules for rules, _, _ in pairs))
    return [HeadToHead(rules, a, b, p[0], p[1], p[2], p[3], round(p[4] / p[0], 1))
            for (rules, a, b), p in sorted(pairs.items(),
                                           key=lambda kv: (order.index(kv[0][0]), -kv[1][0],
                                                           kv[0][1], kv[0][2]))]


def evenings(results: Iterable[Result], *, least: int = 2) -> list[Evening]:
    """The evenings of ``results`` (the same players, in any seats, on one rule set and one
    day) with at least ``least`` games, the latest day first."""
    groups: dict[tuple[str, str, frozenset[str]], list[Result]] = {}
    for r in _valid(results):
        if r.day is not None:
            groups.setdefault((r.day, r.rules, frozenset(r.names)), []).append(r)
    out = []
    for (day, rules, names), games in groups.items():
        if len(games) < least:
            continue
        out.append(Evening(day, rules, len(games), _standings(sorted(names), games)))
    return sorted(out, key=lambda e: e.day, reverse=True)


def _standings(names: Sequence[str], games: Sequence[Result]) -> tuple[Standing, ...]:
    rows = []
    for name in names:
        seats = [(g, g.names.index(name)) for g in games]
        rows.append(Standing(name, sum(g.place(s) == 1 for g, s in seats),
                             sum(g.totals[s] for g, s in seats),
                             round(sum(g.place(s) for g, s in seats) / len(seats), 2)))
    return tuple(sorted(rows, key=lambda s: (-s.wins, -s.points, s.name)))
