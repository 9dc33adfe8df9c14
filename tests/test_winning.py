"""kniffel.engine.winning: play to win. The last round's exact chances and choices are checked
against a brute force written here (every roll, keep and entry enumerated with the engine's
dice and choices, each later player's answer to every final total before it found by a game-tree
search over whole final tuples, a tie on top shared), and the invariants of playing to win with
hypothesis."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kniffel.engine.advice import Position
from kniffel.engine.dice import Keep, Roll, outcomes, sub_keeps
from kniffel.engine.errors import IllegalMoveError, KniffelError
from kniffel.engine.expert import ExpertStrategy
from kniffel.engine.game import Action, Enter, Game, Mode, Score, Strike, Throw, UseChip
from kniffel.engine.rules import Box, Entry, RuleSet, choices, preset
from kniffel.engine.strategy import get_strategy, strategy_names
from kniffel.engine.winning import (
    ExpertWinStrategy,
    WinAdvice,
    is_last_round,
    share_curve,
    win_advice,
)

# --- a brute force of one turn played for a worth of the final total -----------------------------

Node = tuple[float, float]  # (expected worth, expected final total)
_TOL = 1e-12


def _better(a: Node, b: Node) -> bool:
    """``a`` before ``b``: a higher worth, on equal worth a higher expected total."""
    if a[0] > b[0] + _TOL:
        return True
    return abs(a[0] - b[0]) <= _TOL and a[1] > b[1] + 1e-9


class BruteTurn:
    """One turn of a player with the filled boxes ``entries`` (one box open or more), played to
    maximise the expected ``worth`` of the final total (ties: the higher expected total), by
    enumeration: every roll, every keep with :func:`outcomes`, every entry with
    :func:`choices`, the chip after the last regular throw."""

    def __init__(self, rules: RuleSet, entries: Mapping[Box, Entry], total: int, upper: int,
                 chips: int, worth: Callable[[int], float]) -> None:
        self.rules, self.entries, self.total, self.upper = rules, dict(entries), total, upper
        self.chips, self.worth = chips, worth
        self._v: dict[tuple[Roll, int, bool], Node] = {}
        self._e: dict[tuple[Keep, int, bool], Node] = {}

    def final_total(self, box: Box, points: int, bonus: int) -> int:
        rules = self.rules
        added = points + bonus
        if box.is_upper and self.upper < rules.bonus_threshold <= self.upper + points:
            added += rules.bonus_points
        return self.total + added

    def entries_of(self, roll: Roll) -> list[tuple[Action, int]]:
        return [(Strike(c.box) if c.strike else Score(c.box),
                 self.final_total(c.box, c.points, c.bonus))
                for c in choices(self.rules, self.entries, roll)]

    def enter(self, roll: Roll) -> tuple[Node, int]:
        best: Node | None = None
        total = 0
        for _, t in self.entries_of(roll):
            node = (self.worth(t), float(t))
            if best is None or _better(node, best):
                best, total = node, t
        assert best is not None
        return best, total

    def keeps(self, roll: Roll) -> list[Keep]:
        return [k for k in sub_keeps(roll) if k.size < len(roll.values)]

    def expect(self, keep: Keep, throw: int, chip: bool) -> Node:
        """The expected node of re-throwing all but ``keep`` for throw number ``throw``."""
        key = (keep, throw, chip)
        found = self._e.get(key)
        if found is None:
            u = e = 0.0
            for r, p in outcomes(keep, d10=self.rules.d10):
                nu, ne = self.value(r, throw, chip)
                u += p * nu
                e += p * ne
            found = self._e[key] = (u, e)
        return found

    def decide(self, roll: Roll, throw: int, chip: bool) -> tuple[Node, object]:
        """The best node at ``roll`` after throw ``throw`` and what it does: "enter", a Keep to
        re-throw, or "chip"."""
        rules = self.rules
        best, _ = self.enter(roll)
        what: object = "enter"
        last = rules.rolls + (1 if chip else 0)
        if throw < last:
            for k in self.keeps(roll):
                node = self.expect(k, throw + 1, chip)
                if _better(node, best):
                    best, what = node, k
        if rules.chips and not chip and throw == rules.rolls and self.chips > 0:
            with_chip = max((self.expect(k, throw + 1, True) for k in self.keeps(roll)),
                            key=lambda n: (n[0], n[1]))
            if _better(with_chip, best):
                best, what = with_chip, "chip"
        return best, what

    def value(self, roll: Roll, throw: int, chip: bool) -> Node:
        key = (roll, throw, chip)
        found = self._v.get(key)
        if found is None:
            found = self._v[key] = self.decide(roll, throw, chip)[0]
        return found

    def distribution(self) -> dict[int, float]:
        """The final total's distribution under the turn's best play, carried forward."""
        rules = self.rules
        out: dict[int, float] = {}
        mass = {(r, False): p for r, p in outcomes(Keep(), d10=rules.d10)}
        throw = 1
        while mass:
            nxt: dict[tuple[Roll, bool], float] = {}
            for (roll, chip), p in mass.items():
                _, what = self.decide(roll, throw, chip)
                if what == "enter":
                    t = self.enter(roll)[1]
                    out[t] = out.get(t, 0.0) + p
                    continue
                if what == "chip":
                    keep = max(self.keeps(roll), key=lambda k: self.expect(k, throw + 1, True))
                    chip = True
                else:
                    assert isinstance(what, Keep)
                    keep = what
                for r, q in outcomes(keep, d10=rules.d10):
                    nxt[(r, chip)] = nxt.get((r, chip), 0.0) + p * q
            mass = nxt
            throw += 1
        return out

    def option_worths(self, roll: Roll, throw: int, chip: bool) -> dict[Action, float]:
        """The worth of every legal choice at ``roll`` after throw ``throw``."""
        rules = self.rules
        found: dict[Action, float] = {a: self.worth(t) for a, t in self.entries_of(roll)}
        if throw < rules.rolls + (1 if chip else 0):
            for k in self.keeps(roll):
                found[Throw(k)] = self.expect(k, throw + 1, chip)[0]
        if rules.chips and not chip and throw == rules.rolls and self.chips > 0:
            found[UseChip()] = max(self.expect(k, throw + 1, True)[0] for k in self.keeps(roll))
        return found


class BruteLastRound:
    """The last round by a game-tree search: the later players' final totals as whole tuples,
    each later player answering every tuple before it to maximise its own expected share."""

    def __init__(self, rules: RuleSet, finished: Sequence[int],
                 later: Sequence[tuple[Mapping[Box, Entry], int, int, int]]) -> None:
        self.rules, self.finished, self.later = rules, tuple(finished), tuple(later)

    @staticmethod
    def share(totals: tuple[int, ...], who: int) -> float:
        top = max(totals)
        return 1.0 / totals.count(top) if totals[who] == top else 0.0

    @cache  # noqa: B019 - one instance per test
    def respond(self, k: int, known: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
        """The later players k… answer the totals ``known`` (finished, mover, earlier later
        players): their final totals' tuples with probabilities."""
        if k == len(self.later):
            return (((), 1.0),)
        dist = self._turn(k, self._shape(k, known))
        result: dict[tuple[int, ...], float] = {}
        for y, p in dist.items():
            for tail, q in self.respond(k + 1, (*known, y)):
                result[(y, *tail)] = result.get((y, *tail), 0.0) + p * q
        return tuple(result.items())

    @cache  # noqa: B019 - one instance per test
    def reach(self, k: int) -> tuple[int, ...]:
        """Every final total later player ``k`` can end with (any roll, any entry)."""
        entries, total, upper, chips = self.later[k]
        turn = BruteTurn(self.rules, entries, total, upper, chips, float)
        return tuple(sorted({t for r, _ in outcomes(Keep(), d10=self.rules.d10)
                             for _, t in turn.entries_of(r)}))

    def _shape(self, k: int, known: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
        """Later player ``k``'s expected share of each final total it can reach."""
        me = len(known)
        return tuple((y, sum(q * self.share((*known, y, *tail), me)
                             for tail, q in self.respond(k + 1, (*known, y))))
                     for y in self.reach(k))

    @cache  # noqa: B019 - one instance per test
    def _turn(self, k: int, shape: tuple[tuple[int, float], ...]) -> dict[int, float]:
        """Later player ``k``'s final total when it plays for the shares ``shape``."""
        entries, total, upper, chips = self.later[k]
        table = dict(shape)
        return BruteTurn(self.rules, entries, total, upper, chips,
                         lambda y: table[y]).distribution()

    def mover_worth(self, y: int) -> float:
        """The mover's expected share with the final total ``y``."""
        known = (*self.finished, y)
        return sum(q * self.share((*known, *tail), len(self.finished))
                   for tail, q in self.respond(0, known))


# --- positions of a last round, built on the score pad -------------------------------------------


def pad_game(rules: RuleSet, sheets: Sequence[Mapping[Box, int]], last: Sequence[Box],
             finished: int) -> Game:
    """A score pad game whose players have filled ``sheets`` (every box but their ``last``), the
    first ``finished`` of them their last box too (with 0): the player after them is to move."""
    game = Game(rules, [f"P{i}" for i in range(len(sheets))], mode=Mode.PAD)
    order = [[b for b in rules.boxes if b is not last[i]] for i in range(len(sheets))]
    for r in range(len(rules.boxes) - 1):
        for i, sheet in enumerate(sheets):
            box = order[i][r]
            game.apply(Enter(box, sheet[box]) if sheet[box] else Strike(box))
    for i in range(finished):
        game.apply(Strike(last[i]))
    return game


def mover_position(game: Game, roll: Roll, throw: int, chips: int = 0) -> Position:
    player = game.current_player
    assert player is not None
    sheet = game.sheet(player)
    return Position(game.rules, dict(sheet.entries), chips, roll, throw, False, None,
                    sheet.extra_bonus)


def brute_of(game: Game, chips: int = 0) -> BruteLastRound:
    mover = game.current_player
    assert mover is not None
    n = len(game.players)
    finished, later = [], []
    for step in range(1, n):
        i = (mover + step) % n
        s = game.sheet(i)
        if s.is_full:
            finished.append(s.total)
        else:
            later.append((dict(s.entries), s.total, s.upper_sum, chips))
    return BruteLastRound(game.rules, finished, later)


def check_against_brute_force(game: Game, roll: Roll, throw: int, chips: int = 0) -> WinAdvice:
    """The engine's chance of every choice equals the brute force's; its best is a best."""
    pos = mover_position(game, roll, throw, chips)
    advice = win_advice(game, pos)
    assert advice.exact
    brute = brute_of(game, chips)
    sheet = game.sheet(game.current_player or 0)
    turn = BruteTurn(game.rules, sheet.entries, sheet.total, sheet.upper_sum, chips,
                     brute.mover_worth)
    expected = turn.option_worths(roll, throw, False)
    got = {o.action: o.win for o in advice.options}
    assert set(got) == set(expected)
    for action, w in expected.items():
        assert got[action] == pytest.approx(w, abs=1e-9), action
    assert advice.for_win.win == pytest.approx(max(expected.values()), abs=1e-9)
    return advice


KNIFFEL = preset("kniffel")
UPPER = (Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES)


def classic_sheet(upper: Mapping[Box, int], lower: int = 0, kniffel: int = 0
                  ) -> dict[Box, int]:
    """A classic sheet: the upper boxes' points, ``lower`` points in Chance (when filled), the
    Kniffel box's points, every other box struck."""
    sheet = {b: 0 for b in KNIFFEL.boxes}
    sheet.update(upper)
    sheet[Box.CHANCE] = lower
    sheet[Box.KNIFFEL] = kniffel
    return sheet


def test_two_players_last_box_sixes_with_the_bonus_in_reach_matches_the_brute_force() -> None:
    # Anna needs 18 in sixes for the bonus (45 above); Ben, after her, has Chance open
    anna = classic_sheet({Box.ONES: 3, Box.TWOS: 6, Box.THREES: 9, Box.FOURS: 12, Box.FIVES: 15},
                         lower=22)
    ben = classic_sheet({Box.ONES: 3, Box.TWOS: 6, Box.THREES: 9, Box.FOURS: 12, Box.FIVES: 15,
                         Box.SIXES: 24}, lower=0)
    game = pad_game(KNIFFEL, [anna, ben], [Box.SIXES, Box.CHANCE], finished=0)
    assert is_last_round(game)
    advice = check_against_brute_force(game, Roll((2, 3, 5, 6, 6)), 1)
    assert 0 < advice.for_win.win < 1


def test_a_player_behind_gambles_where_the_average_would_play_safe() -> None:
    # Ben moves last, 30 behind Anna with Chance open, 1 5 6 6 6 after the second throw: for
    # the points he keeps 5 6 6 6 (26.5 on average, at most 29: he cannot win); to win he keeps
    # 6 6 6 and needs a 12 (a tie) or more
    anna = classic_sheet({Box.SIXES: 24, Box.FIVES: 20}, lower=30)
    ben = classic_sheet({Box.SIXES: 24, Box.FIVES: 20})
    game = pad_game(KNIFFEL, [anna, ben], [Box.KNIFFEL, Box.CHANCE], finished=1)
    assert game.sheet(0).total - game.sheet(1).total == 30
    advice = check_against_brute_force(game, Roll((1, 5, 6, 6, 6)), 2)
    assert advice.for_points.action == Throw(Keep((5, 6, 6, 6)))
    assert advice.for_points.win == 0.0
    assert advice.differ
    assert isinstance(advice.for_win.action, Throw)
    assert advice.for_win.win > 0.0
    assert advice.for_win.expected < advice.for_points.expected


def test_three_players_with_a_straight_and_a_kniffel_joker_match_the_brute_force() -> None:
    # Cem (Kniffel on 50: a further Kniffel goes in any box at its highest) moves last with Full
    # House open; Anna moves now with the large straight open; Ben has finished
    ben = classic_sheet({Box.SIXES: 18, Box.FIVES: 15}, lower=30)
    anna = classic_sheet({Box.SIXES: 24, Box.FIVES: 20}, lower=25)
    cem = classic_sheet({Box.SIXES: 12}, lower=20, kniffel=50)
    game = pad_game(KNIFFEL, [ben, anna, cem], [Box.KNIFFEL, Box.LARGE_STRAIGHT,
                                                   Box.FULL_HOUSE], finished=1)
    assert game.current_player == 1
    check_against_brute_force(game, Roll((1, 2, 3, 4, 6)), 1)
    check_against_brute_force(game, Roll((2, 3, 4, 5, 5)), 2)


def test_three_players_level_share_a_tie_and_match_the_brute_force() -> None:
    # everyone on 59 with the small straight open (30 or nothing): a tie on top is shared
    sheets = [classic_sheet({Box.SIXES: 30, Box.FIVES: 25, Box.FOURS: 4}) for _ in range(3)]
    game = pad_game(KNIFFEL, sheets, [Box.SMALL_STRAIGHT] * 3, finished=0)
    advice = check_against_brute_force(game, Roll((1, 1, 3, 4, 6)), 1)
    assert 0 < advice.for_win.win < 1
    # the last of three, level with one finished player and below none: a tie is half a win
    game = pad_game(KNIFFEL, sheets, [Box.SMALL_STRAIGHT] * 3, finished=2)
    advice = check_against_brute_force(game, Roll((1, 1, 1, 1, 1)), 3)
    assert advice.for_win.win == pytest.approx(1 / 3)


def test_a_player_certain_to_win_or_lose_gets_the_best_average_choice() -> None:
    # Anna finished far ahead: whatever Ben does, he loses
    anna = classic_sheet({b: 4 * (i + 1) for i, b in enumerate(UPPER)}, lower=30, kniffel=50)
    ben = classic_sheet({}, lower=0)
    game = pad_game(KNIFFEL, [anna, ben], [Box.CHANCE, Box.SIXES], finished=1)
    pos = mover_position(game, Roll((1, 2, 6, 6, 6)), 1)
    advice = win_advice(game, pos)
    assert advice.for_win.win == 0.0
    assert advice.for_win.action == advice.points.best.action
    assert not advice.differ
    # and the other way round: Anna far ahead moves last
    game = pad_game(KNIFFEL, [ben, anna], [Box.SIXES, Box.CHANCE], finished=1)
    advice = win_advice(game, mover_position(game, Roll((1, 2, 6, 6, 6)), 1))
    assert advice.for_win.win == 1.0
    assert advice.for_win.action == advice.points.best.action


@pytest.mark.solve
def test_extreme_last_round_with_a_chip_left_matches_the_brute_force() -> None:
    rules = preset("extreme")
    # the mover has the Kniffel box open, the player after it the large full house; a chip left
    a = {b: 0 for b in rules.boxes}
    a[Box.CHANCE] = 30
    b = {x: 0 for x in rules.boxes}
    game = pad_game(rules, [a, b], [Box.KNIFFEL, Box.LARGE_FULL_HOUSE], finished=0)
    check_against_brute_force(game, Roll((2, 3, 5, 5, 5), d10=5), 3, chips=1)


# --- the chance model before the last round ------------------------------------------------------


def test_the_share_curve_counts_ties_shared() -> None:
    from kniffel.engine.distribution import Distribution

    lo, h = share_curve([Distribution.point(10), Distribution(9, (0.5, 0.5))])
    assert lo == 9
    # t=9: below 10 for sure: 0; t=10: tie with the first, the second 9 or 10
    assert h[0] == 0.0
    assert h[1] == pytest.approx(0.5 * 1 / 2 + 0.5 * 1 / 3)


def played(rules: RuleSet, players: int, seed: int, stop: Callable[[Game], bool]) -> Game:
    """A dice game of ``players`` experts from ``seed``, stopped at the first decision after a
    throw where ``stop`` holds."""
    game = Game(rules, [f"P{i}" for i in range(players)], seed=seed)
    expert = ExpertStrategy(rules)
    rng = random.Random(seed)
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
            continue
        turn = game.turn
        if turn is not None and turn.roll is not None and stop(game):
            return game
        game.apply(expert.choose(game, rng))
    raise AssertionError("the game ended first")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rnd=st.integers(1, 13), players=st.integers(2, 3))
def test_playing_to_win_never_wins_less_than_playing_for_points(seed: int, rnd: int,
                                                                players: int) -> None:
    game = played(KNIFFEL, players, seed, lambda g: g.round >= rnd)
    advice = win_advice(game)
    assert advice.exact == is_last_round(game)
    wins = [o.win for o in advice.options]
    # best chance first (chances within 1e-9 ranked by the expected total)
    assert all(a >= b - 1e-9 for a, b in itertools.pairwise(wins))
    assert advice.for_win.win >= advice.for_points.win - 1e-12
    assert all(0.0 <= w <= 1.0 + 1e-9 for w in wins)
    assert {o.action for o in advice.options} == {o.action for o in advice.points.options}
    if advice.for_win.win in (0.0, 1.0) or advice.for_win.win - wins[-1] < 1e-12:
        assert advice.for_win.action == advice.points.best.action


def test_the_to_win_expert_plays_a_whole_extreme_game_and_is_listed() -> None:
    assert "expert-win" in strategy_names()
    rules = preset("kniffel")
    players = [get_strategy("expert-win", rules), get_strategy("expert", rules)]
    assert isinstance(players[0], ExpertWinStrategy)
    game = Game(rules, ["A", "B"], seed=3)
    rng = random.Random(3)
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
            continue
        player = game.current_player
        assert player is not None
        action = players[player].choose(game, rng)
        assert action in game.legal_actions()
        game.apply(action)
    assert all(game.sheet(i).is_full for i in range(2))


def test_win_advice_refuses_what_it_cannot_judge() -> None:
    game = Game(KNIFFEL, ["A", "B"], mode=Mode.PAD)
    with pytest.raises(IllegalMoveError) as e:
        win_advice(game)
    assert e.value.code == "advise.needs_dice_mode"
    assert isinstance(e.value, KniffelError)
    done = Game(KNIFFEL, ["A"], mode=Mode.PAD)
    for box in KNIFFEL.boxes:
        done.apply(Strike(box))
    with pytest.raises(IllegalMoveError) as e:
        win_advice(done)
    assert e.value.code == "move.game_over"


def test_pure_python_and_numpy_give_the_same_chances() -> None:
    from kniffel.engine.vectors import numpy_available
    from kniffel.engine.winning import WinAdvisor

    if not numpy_available():
        pytest.skip("numpy is not installed")
    for rnd in (12, 13):
        def at(g: Game, r: int = rnd) -> bool:
            return g.round >= r
        game = played(KNIFFEL, 3, 17, at)
        fast = WinAdvisor(KNIFFEL, use_numpy=True).advise(game)
        plain = WinAdvisor(KNIFFEL, use_numpy=False).advise(game)
        assert [(o.action, o.win) for o in fast.options] == [
            (o.action, o.win) for o in plain.options]


def test_a_second_hint_in_the_same_turn_reuses_the_turns_work() -> None:
    from kniffel.engine.winning import WinAdvisor

    game = played(KNIFFEL, 2, 8, lambda g: g.round >= 13)
    advisor = WinAdvisor(KNIFFEL)
    first = advisor.advise(game)
    assert advisor.turns_played > 0 or first.for_win.win in (0.0, 1.0)
    again = advisor.advise(game)
    assert advisor.turns_played == 0
    assert again.options == first.options


def test_the_exact_flag_takes_only_none_or_false() -> None:
    game = played(KNIFFEL, 2, 8, lambda g: g.round >= 13)
    model = win_advice(game, exact=False)
    assert not model.exact
    with pytest.raises(KniffelError) as e:
        win_advice(game, exact=True)
    assert e.value.code == "advise.exact_flag"


@given(offset=st.integers(-5, 30), probs=st.lists(st.floats(0, 1), min_size=1, max_size=12),
       lo=st.integers(0, 20), curve=st.lists(st.floats(0, 1), min_size=0, max_size=12))
def test_the_expected_share_sums_the_curve_with_zero_below_and_one_beyond(
        offset: int, probs: list[float], lo: int, curve: list[float]) -> None:
    from kniffel.engine.distribution import Distribution
    from kniffel.engine.winning import expected_share

    def h(t: int) -> float:
        return 0.0 if t < lo else 1.0 if t - lo >= len(curve) else curve[t - lo]
    want = sum(p * h(offset + i) for i, p in enumerate(probs))
    got = expected_share((lo, tuple(curve)), Distribution(offset, tuple(probs)))
    assert got == pytest.approx(want, abs=1e-12)
