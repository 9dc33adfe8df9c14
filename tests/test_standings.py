"""Head to head and an evening's standings (kniffel.engine.standings), in ``kniffel stats`` and
the browser's statistics."""

from __future__ import annotations

import json
import random
from datetime import timedelta, timezone
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from conftest import invoke
from kniffel import Game, preset
from kniffel.browser.bridge import Session
from kniffel.browser.view import summary
from kniffel.engine.standings import (
    Evening,
    HeadToHead,
    Result,
    Standing,
    day_of,
    evenings,
    head_to_head,
)
from kniffel.engine.strategy import get_strategy
from kniffel.history import History
from kniffel.simulate import play_out


def test_head_to_head_counts_each_pairs_wins_ties_and_average_margin_per_rule_set() -> None:
    results = [Result("kniffel", ("Anna", "Ben"), (200, 180)),
               Result("kniffel", ("Ben", "Anna", "Clara"), (250, 210, 210)),
               Result("kniffel", ("Anna", "Ben"), (190, 190)),
               Result("extreme", ("Anna", "Ben"), (700, 600))]
    assert head_to_head(results) == [
        HeadToHead("kniffel", "Anna", "Ben", 3, 1, 1, 1, round((20 - 40 + 0) / 3, 1)),
        HeadToHead("kniffel", "Anna", "Clara", 1, 0, 0, 1, 0.0),
        HeadToHead("kniffel", "Ben", "Clara", 1, 1, 0, 0, 40.0),
        # another rule set's totals are never compared with these
        HeadToHead("extreme", "Anna", "Ben", 1, 1, 0, 0, 100.0)]


def test_a_game_with_a_name_twice_or_names_and_totals_that_do_not_fit_is_left_out() -> None:
    assert head_to_head([Result("kniffel", ("Anna", "Anna"), (1, 2)),
                         Result("kniffel", ("Anna", "Ben"), (1,))]) == []


@given(st.lists(st.tuples(st.sampled_from(["kniffel", "extreme"]),
                          st.lists(st.integers(0, 400), min_size=2, max_size=4)), max_size=12))
def test_head_to_head_wins_and_ties_add_up_to_the_games_and_swap_with_the_pair(
        games: list[tuple[str, list[int]]]) -> None:
    names = ("Anna", "Ben", "Clara", "Dora")
    results = [Result(rules, names[:len(totals)], tuple(totals)) for rules, totals in games]
    for p in head_to_head(results):
        assert p.first_wins + p.second_wins + p.ties == p.games
    # the seats reversed: every pair the same, its wins and margin the same
    flipped = [Result(r.rules, r.names[::-1], r.totals[::-1]) for r in results]
    assert sorted(head_to_head(flipped), key=repr) == sorted(head_to_head(results), key=repr)


def test_an_evening_is_the_same_players_games_on_one_rule_set_and_day() -> None:
    day = "2026-11-30"
    results = [Result("kniffel", ("Anna", "Ben", "Clara"), (200, 180, 250), day),
               Result("kniffel", ("Clara", "Anna", "Ben"), (150, 220, 220), day),
               Result("kniffel", ("Ben", "Anna", "Clara"), (300, 100, 100), day),
               Result("kniffel", ("Anna", "Ben"), (1, 2), day),  # other players
               Result("extreme", ("Anna", "Ben", "Clara"), (1, 2, 3), day),  # another rule set
               Result("kniffel", ("Anna", "Ben"), (5, 6), "2026-11-29"),
               Result("kniffel", ("Anna", "Ben"), (7, 6), "2026-11-29"),
               Result("kniffel", ("Anna", "Ben"), (7, 6), None)]  # no day: no evening
    found = evenings(results)
    assert [(e.day, e.rules, e.games) for e in found] == [(day, "kniffel", 3),
                                                         ("2026-11-29", "kniffel", 2)]
    # Ben won twice (one a shared first place), Anna once (shared), Clara once: Anna before
    # Clara by her points
    assert found[0] == Evening(day, "kniffel", 3, (
        Standing("Ben", 2, 700, round((3 + 1 + 1) / 3, 2)),
        Standing("Anna", 1, 520, round((2 + 1 + 2) / 3, 2)),
        Standing("Clara", 1, 500, round((1 + 3 + 2) / 3, 2))))
    assert evenings(results, least=4) == []


def test_the_day_of_a_time_is_in_the_zone_asked() -> None:
    assert day_of("2026-11-30T23:30:00.000Z") == "2026-11-30"
    assert day_of("2026-11-30T23:30:00.000Z", timezone(timedelta(hours=1))) == "2026-12-01"
    assert day_of("gestern") is None
    assert day_of(None) is None


def greedy(seed: int, names: tuple[str, ...]) -> Game:
    rules = preset("kniffel")
    game = Game(rules, list(names), seed=seed)
    play_out(game, get_strategy("greedy", rules), random.Random(seed))
    return game


def evening_db(path: Path) -> list[Game]:
    times = iter(f"2026-11-30T{18 + i // 6:02d}:{(i * 7) % 60:02d}:00+00:00"
                 for i in range(100))
    games = [greedy(seed, ("Anna", "Ben", "Clara")) for seed in range(3)]
    games.append(greedy(9, ("Anna", "Dora")))
    with History(path, clock=lambda: next(times)) as h:
        for g in games:
            h.start(g)
    return games


def test_kniffel_stats_shows_head_to_head_with_every_pair(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    games = evening_db(db)
    result = invoke(["stats", "--db", str(db), "--lang", "en"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Head to head: Kniffel (classic)" in out
    for pair in ("Anna – Ben", "Anna – Clara", "Ben – Clara", "Anna – Dora"):
        assert pair in out
    expected = head_to_head([Result("kniffel", tuple(p.name for p in g.players), g.scores())
                             for g in games])
    anna_ben = next(p for p in expected if (p.first, p.second) == ("Anna", "Ben"))
    assert f"{anna_ben.first_wins} : {anna_ben.second_wins}" in out
    assert "Wins: how often each of the two had more points" in out
    # one player's pairs only
    only = invoke(["stats", "--db", str(db), "--player", "Dora", "--lang", "en"]).stdout
    assert "Anna – Dora" in only
    assert "Anna – Ben" not in only


def test_kniffel_stats_evening_shows_the_last_evenings_standings(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    evening_db(db)
    result = invoke(["stats", "--db", str(db), "--evening", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "The evening of 2026-11-30: Kniffel (classic), 3 games" in result.stdout
    assert "Dora" not in result.stdout
    other = invoke(["stats", "--db", str(db), "--evening", "2026-11-29"])
    assert other.exit_code == 0
    assert "Am 2026-11-29 gab es keine zwei Spiele derselben Spieler." in other.stdout
    bad = invoke(["stats", "--db", str(db), "--evening", "morgen"])
    assert bad.exit_code == 2
    assert "morgen ist kein Tag" in bad.stderr
    empty = tmp_path / "empty.sqlite3"
    with History(empty) as h:
        h.start(greedy(1, ("Anna",)))
    none = invoke(["stats", "--db", str(empty), "--evening", "--lang", "en"])
    assert "No evening with at least two games of the same players." in none.stdout


def test_the_browsers_statistics_carry_head_to_head_and_the_last_evening() -> None:
    games = [greedy(seed, ("Anna", "Ben")) for seed in range(3)]
    dates = ["2026-11-30T18:00:00.000Z", "2026-11-30T19:00:00.000Z", "2026-11-30T23:30:00.000Z"]
    reply = json.loads(Session().handle_json(json.dumps({
        "op": "stats", "summaries": [summary(g) for g in games], "dates": dates,
        "zone": -60})))
    assert reply["ok"], reply
    stats = reply["stats"]
    part = stats["rule_sets"][0]
    expected = head_to_head([Result("kniffel", ("Anna", "Ben"), g.scores()) for g in games])
    assert part["head_to_head"] == [
        {"first": p.first, "second": p.second, "games": p.games, "first_wins": p.first_wins,
         "second_wins": p.second_wins, "ties": p.ties, "margin": p.margin} for p in expected]
    # the last game was past midnight in the page's time zone: two games that evening
    evening = stats["evening"]
    assert (evening["day"], evening["games"], evening["rules"]) == ("2026-11-30", 2, "kniffel")
    assert {s["name"] for s in evening["standings"]} == {"Anna", "Ben"}
    # without dates (an older page): head to head, no evening
    plain = Session().handle({"op": "stats", "summaries": [summary(g) for g in games]})
    assert plain["stats"]["evening"] is None
    assert plain["stats"]["rule_sets"][0]["head_to_head"] == part["head_to_head"]
