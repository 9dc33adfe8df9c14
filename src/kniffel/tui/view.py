"""What the terminal game's screen shows, computed from the match: the score sheet's columns and
rows (:class:`SheetTable`, with every player's win chance under the totals), the dice in their
places (:class:`DicePlaces`), the move log (:class:`MoveLog`) and the lines around them (status,
turn, keys, the hint, a failed write, an error).

The screens (:mod:`kniffel.tui.game`, :mod:`kniffel.tui.setup`) put these into their widgets;
every word comes from the one message catalog (the codes ``tui.*``, an error's own code).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text
from textual.widgets import DataTable

from kniffel.engine.advice import Advice
from kniffel.engine.chances import Chances
from kniffel.engine.dice import Keep, Roll
from kniffel.engine.errors import KniffelError
from kniffel.engine.game import Action, Game, Score, Sheet, Strike, Throw, UseChip
from kniffel.engine.match import Match, SaveState, SeatView
from kniffel.engine.messages import CATALOG, fields, number, percent, render, render_code, text
from kniffel.engine.rules import Box, Choice, Lang, RuleSet
from kniffel.engine.winning import WinAdvice


def tr(key: str, lang: Lang, **fields: object) -> str:
    """The terminal game's text ``key`` (catalog code ``tui.KEY``) in ``lang`` with ``fields``
    filled in: every word the game shows comes from the one message catalog."""
    return text(f"tui.{key}", lang, **fields)


def error_text(error: BaseException, lang: Lang) -> str:
    """An error as the player reads it (the one place the terminal game turns errors into
    words): the sentence of its catalog code, the one the CLI and the browser show."""
    return render(error, lang)


def abbreviate(names: Iterable[str], width: int) -> list[str]:
    """``names`` cut to at most ``width`` characters (at least 2), all still told apart: the
    start of a name, an ellipsis and the end that makes it distinct ("Computer 1" →
    "Co…1")."""
    names = list(names)
    width = max(width, 2)
    out: list[str] = []
    for i, name in enumerate(names):
        others = [n for j, n in enumerate(names) if j != i]
        if len(name) <= width:
            out.append(name)
            continue
        candidates = [name[:width - 1] + "…"]
        candidates += [name[:width - 1 - t] + "…" + name[-t:] for t in range(1, width - 1)]
        candidates.append(f"{i + 1}")
        taken = set(out) | {n for n in others if len(n) <= width}
        for c in candidates:
            clash = any(c == o or (len(o) > width and c == o[:width - 1] + "…")
                        for o in others) or c in taken
            if not clash:
                out.append(c)
                break
        else:  # pragma: no cover - the seat number is always free
            out.append(f"{i + 1}")
    return out


def fit(line: str, width: int) -> str:
    """``line`` cut to ``width`` characters, an ellipsis last where it was cut."""
    return line if len(line) <= width else line[:max(width - 1, 0)] + "…"


def short_why(error: KniffelError, lang: Lang) -> str:
    """Why a write failed, for the warning line of the screen and the quit report: without the
    file's name where the sentence does not need it (the quit report names it), and in the
    catalog's ``CODE.why`` form where there is one — the reason alone, without "nothing was
    changed", which is not true of a report that moves are missing."""
    params = dict(error.params)
    code = f"{error.code}.why" if f"{error.code}.why" in CATALOG else error.code
    pair = CATALOG.get(code)
    if pair is not None and not any("where" in fields(t) for t in pair):
        params.pop("where", None)
    return render_code(code, params, lang)


# --- the sheet ---------------------------------------------------------------------------------


def chance_text(win: float, lang: Lang, width: int) -> str:
    """A win chance as the sheet's footer shows it in a column ``width`` wide: whole percent
    ("43 %"), "<1 %" and ">99 %" for a chance that is not quite 0 or 1, without the space
    where the column is narrow ("43%")."""
    if 0 < win < 0.005:
        shown = "<" + percent(0.01, lang, 0)
    elif 0.995 <= win < 1:
        shown = ">" + percent(0.99, lang, 0)
    else:
        shown = percent(win, lang, 0)
    return shown if len(shown) <= width else shown.replace(" ", "")


#: The widths tried for the sheet's columns, widest first: (box names, player names, Roll
#: column long or short).
_COLUMN_CAPS = ((99, 14, True), (99, 14, False), (16, 10, False), (14, 8, False), (12, 6, False),
                (11, 5, False), (10, 4, False), (8, 4, False), (6, 4, False))


class SheetTable:
    """The score sheet on the screen: the boxes' table with every player and the Roll column,
    and the sums' table below it, their columns as wide as the room allows (names and box names
    shortened when the columns are narrow)."""

    def __init__(self, rules: RuleSet, names: Sequence[str], lang: Lang) -> None:
        self.rules = rules
        self.names = list(names)
        self.lang = lang
        #: (cell padding, box column, each player's column, Roll column); () until chosen.
        self.widths: tuple[int, ...] = ()
        #: The players' names as the header shows them.
        self.short: list[str] = []
        self.box_w = 0
        self.roll_w = 0
        #: Every player's win chance as last computed (None: not yet, or none can be).
        self.chances: Chances | None = None

    def _tr(self, key: str, **params: object) -> str:
        return text(f"tui.{key}", self.lang, **params)

    @property
    def width(self) -> int:
        """The room the sheet takes with the chosen widths (its scroll bar included)."""
        pad = self.widths[0]
        return sum(self.widths[1:]) + 2 * pad * (len(self.widths) - 1) + 1

    def choose(self, avail: int) -> bool:
        """Choose the column widths for ``avail`` characters; True when they changed."""
        lang, rules, names, tr = self.lang, self.rules, self.names, self._tr
        box_names = [rules.box_name(b, lang) for b in rules.boxes]
        labels = [*box_names, tr("upper_sum"), tr("bonus_row"), tr("lower_sum"), tr("total")]
        box_w = max(map(len, labels))
        roll_long = max(len(tr("strike")), len(tr("this_roll")), 6)
        roll_short = max(len(tr("strike_short")), len(tr("this_roll")), 6)
        name_w = [max(min(len(n), 14), 4) for n in names]
        chosen: tuple[int, ...] | None = None
        cap = 4
        for pad in (1, 0):
            for box_cap, name_cap, long in _COLUMN_CAPS:
                roll = roll_long if long else roll_short
                widths = (min(box_w, box_cap), *(min(w, name_cap) for w in name_w), roll)
                if sum(widths) + 2 * pad * len(widths) <= avail:
                    chosen = (pad, *widths)
                    cap = name_cap
                    break
            if chosen is not None:
                break
        if chosen is None:
            chosen, cap = (0, 6, *([4] * len(names)), roll_short), 4
        else:  # room left over: whole box names first, then longer player names
            pad, box_now, *player_now, roll_now = chosen
            left = avail - sum(chosen[1:]) - 2 * pad * (len(chosen) - 1)
            grow = min(left, box_w - box_now)
            box_now, left = box_now + grow, left - grow
            while cap < 14:
                trial = [max(min(len(n), cap + 1), 4) for n in names]
                if sum(trial) - sum(player_now) > left:
                    break
                left -= sum(trial) - sum(player_now)
                player_now, cap = trial, cap + 1
            chosen = (pad, box_now, *player_now, roll_now)
        if chosen == self.widths:
            return False
        self.widths = chosen
        self.box_w, self.roll_w = chosen[1], chosen[-1]
        self.short = abbreviate(names, cap)
        return True

    def build(self, tables: Iterable[DataTable[Text | str]]) -> None:
        """Give ``tables`` (the sheet and the sums) the chosen columns, emptied."""
        pad, box_w, *player_w, roll_w = self.widths
        for table in tables:
            table.cell_padding = pad
            table.clear(columns=True)
            table.add_column(self._tr("box"), key="box", width=box_w)
            for i, w in enumerate(player_w):
                table.add_column(self.short[i], key=f"p{i}", width=w)
            table.add_column(self._tr("this_roll"), key="roll", width=roll_w)

    def draw(self, table: DataTable[Text | str], view: SeatView) -> None:
        """The boxes' rows: every player's entries, the current player's column highlighted,
        the Roll column with what the dice on the table score (or strike) in each box."""
        lang, rules = self.lang, self.rules
        turn = view.turn
        current = turn.player if turn else None
        for i, column in enumerate(list(table.columns.values())[1:-1]):
            style = "bold reverse" if i == current else "bold"
            column.label = Text(self.short[i], style=style)
        row = table.cursor_row
        scroll = table.scroll_y
        table.clear()
        # what the dice score in each box; a strike only where they score nothing there (with the
        # free-strike house rule every open box may also be struck: the points still show)
        options: dict[Box, Choice] = {}
        for choice in view.choices:
            known = options.get(choice.box)
            if known is None or (known.strike and not choice.strike):
                options[choice.box] = choice
        strike = (self._tr("strike") if self.roll_w >= len(self._tr("strike"))
                  else self._tr("strike_short"))
        for box in rules.boxes:
            cells: list[Text | str] = [fit(rules.box_name(box, lang), self.box_w)]
            for i, s in enumerate(view.sheets):
                e = s.entries.get(box)
                value = "" if e is None else ("–" if e.struck else str(e.points))
                cells.append(Text(value, style="bold" if i == current else ""))
            c = options.get(box)
            if c is None:
                cells.append("")
            elif c.strike:
                cells.append(Text(strike, style="red"))
            else:
                extra = f"+{c.bonus}" if c.bonus else ""
                cells.append(Text(f"{c.points}{extra}", style="bold green"))
            table.add_row(*cells, key=box.value)
        table.move_cursor(row=min(max(row, 0), len(rules.boxes) - 1), scroll=False)
        table.scroll_y = scroll

    def draw_totals(self, table: DataTable[Text | str], sheets: tuple[Sheet, ...],
                    current: int | None) -> None:
        """The sums' rows: upper sum, bonus (or what it still needs), lower sum, the extra
        Kniffel points and chips where the rules have them, the total (the best starred) and,
        with two players or more, every player's win chance as last computed
        (:attr:`chances`)."""
        lang, rules, tr = self.lang, self.rules, self._tr
        table.clear()

        def bonus(s: Sheet) -> str:
            if s.bonus:
                return str(s.bonus)
            return f"−{s.bonus_missing}" if s.bonus_reachable else "0"

        rows: list[tuple[str, str, list[str]]] = [
            ("upper", tr("upper_sum"), [str(s.upper_sum) for s in sheets]),
            ("bonus", tr("bonus_row"), [bonus(s) for s in sheets]),
            ("lower", tr("lower_sum"), [str(s.lower_sum) for s in sheets]),
        ]
        if rules.extra_kniffel_bonus:
            rows.append(("extra", tr("extra", kniffel=rules.box_name(Box.KNIFFEL, lang)),
                         [str(s.extra_bonus) for s in sheets]))
        if rules.chips:
            rows.append(("chips", tr("chips"), [str(s.chips_left) for s in sheets]))
        for key, label, values in rows:
            table.add_row(
                Text(fit(label, self.box_w), style="dim"),
                *(Text(v, style="bold" if i == current else "dim") for i, v in enumerate(values)),
                "", key=key)
        scores = [s.total for s in sheets]
        best = max(scores)
        table.add_row(
            Text(fit(tr("total"), self.box_w), style="bold"),
            *(Text(f"{t}{'★' if t == best and best else ''}",
                   style="bold reverse" if i == current else "bold")
              for i, t in enumerate(scores)), "", key="total")
        if self.has_chances:
            label = tr("chances.row")
            if len(label) > self.box_w:
                label = tr("chances.row_short")
            table.add_row(Text(fit(label, self.box_w), style="dim"),
                          *self.chance_cells(), "", key="chance")

    @property
    def has_chances(self) -> bool:
        """Whether the sheet has the row of win chances (not for a player alone)."""
        return len(self.names) > 1

    def chance_cells(self) -> list[Text]:
        """The win chances' cells, one per player (the leader in bold green; empty where none
        are known)."""
        chances = self.chances
        _pad, _box_w, *player_w, _roll_w = self.widths
        if chances is None or len(chances.players) != len(player_w):
            return [Text("") for _ in player_w]
        leader = chances.leader
        return [Text(chance_text(o.win, self.lang, w),
                     style="bold green" if i == leader else "dim")
                for i, (o, w) in enumerate(zip(chances.players, player_w, strict=True))]

    def draw_chances(self, table: DataTable[Text | str], chances: Chances | None) -> None:
        """Show ``chances`` (None: none) in the row of win chances of the sums' ``table``."""
        self.chances = chances
        if not self.has_chances or "chance" not in table.rows:
            return
        for i, cell in enumerate(self.chance_cells()):
            table.update_cell("chance", f"p{i}", cell)


# --- the dice ----------------------------------------------------------------------------------


def arrange(faces: tuple[int, ...], kept: set[int], roll: Roll) -> tuple[int, ...]:
    """The faces of ``roll`` in their places on the screen after a throw that kept the dice at
    places ``kept`` of ``faces``: a kept die stays in its place (its key 1–6 still points at
    it), the thrown dice fill the other places in sorted order, the d10 stays last.

    >>> arrange((2, 3, 5, 5, 6), {2, 3}, Roll((1, 4, 5, 5, 6)))
    (1, 4, 5, 5, 6)
    >>> arrange((2, 3, 5, 5, 6), {0, 4}, Roll((2, 3, 4, 5, 6)))
    (2, 3, 4, 5, 6)
    >>> arrange((1, 2, 3, 6, 6), {3, 4}, Roll((1, 1, 2, 6, 6)))
    (1, 1, 2, 6, 6)
    >>> arrange((1, 2, 3, 6, 6), {0}, Roll((1, 4, 4, 5, 6)))
    (1, 4, 4, 5, 6)
    >>> arrange((4, 4, 5, 6, 6), {3, 4}, Roll((1, 2, 3, 6, 6)))
    (1, 2, 3, 6, 6)
    >>> arrange((4, 4, 5, 6, 6), {0}, Roll((2, 3, 4, 5, 6)))
    (4, 2, 3, 5, 6)
    """
    n6 = len(roll.d6)
    placed: list[int | None] = [None] * n6
    rest = list(roll.d6)
    for i in sorted(kept):
        if i < n6 and i < len(faces) and faces[i] in rest:
            placed[i] = faces[i]
            rest.remove(faces[i])
    out = [p if p is not None else rest.pop(0) for p in placed]
    return (*out, roll.d10) if roll.d10 is not None else tuple(out)


def _same_dice(faces: tuple[int, ...], roll: Roll) -> bool:
    """Whether ``faces`` (in any order, the d10 last) are the dice of ``roll``."""
    if len(faces) != len(roll.values):
        return False
    n6 = len(roll.d6)
    return sorted(faces[:n6]) == list(roll.d6) and faces[n6:] == roll.values[n6:]


def dice_text(values: Iterable[int], d10: int | None, lang: Lang) -> str:
    """Dice as the move line tells them: ``"2 5 5 · W10 7"``, or "nothing"."""
    parts = [" ".join(map(str, values))] if values else []
    if d10 is not None:
        parts.append(f"{text('tui.d10', lang)} {d10}")
    return " · ".join(p for p in parts if p) or text("tui.nothing", lang)


class DicePlaces:
    """The dice on the screen: their faces in their places (kept dice stay where they are) and
    the places marked kept (0-based, the d10 last)."""

    def __init__(self) -> None:
        self.kept: set[int] = set()
        self.faces: tuple[int, ...] = ()

    def faces_for(self, roll: Roll | None) -> tuple[int, ...]:
        """The faces of ``roll`` in their places on the screen: as they were while they are the
        same dice (a re-throw places them with :func:`arrange`), else in sorted order."""
        if roll is None:
            self.faces = ()
            self.kept = set()
        elif not _same_dice(self.faces, roll):
            self.faces = roll.values
        return self.faces

    def keep(self, roll: Roll) -> Keep:
        """The dice marked kept (by their places) as a keep of ``roll``."""
        faces = self.faces_for(roll)
        n6 = len(roll.d6)
        return Keep([faces[i] for i in sorted(self.kept) if i < n6],
                    roll.d10 if n6 in self.kept else None)

    def places(self, roll: Roll, keep: Keep) -> set[int]:
        """The places on the screen of the dice ``keep`` holds (the first of equal faces)."""
        faces = self.faces_for(roll)
        n6 = len(roll.d6)
        wanted = list(keep.d6)
        out = set()
        for i, face in enumerate(faces[:n6]):
            if face in wanted:
                wanted.remove(face)
                out.add(i)
        if keep.d10 is not None and roll.d10 is not None:
            out.add(n6)
        return out

    def undone(self, before: Sequence[Action], after: Sequence[Action],
               roll: Roll | None) -> None:
        """After an undo from the actions ``before`` to ``after``, ``roll`` on the table: the
        marks as they were, those of the undone throw, or those of the last throw (none
        without dice)."""
        self.kept = set()
        if roll is None:
            return
        undone = before[len(after)]
        last = undone if isinstance(undone, Throw) else next(
            (a for a in reversed(after) if isinstance(a, Throw)), None)
        if isinstance(last, Throw):
            self.kept = self.places(roll, last.keep)

    def thrown(self, roll: Roll) -> None:
        """After a throw: the kept dice stay in their places and stay marked, the new dice fill
        the other places (sorted)."""
        self.faces = arrange(self.faces, self.kept, roll)
        self.kept = {i for i in self.kept if i < len(self.faces)}


# --- the lines around them ---------------------------------------------------------------------


class MoveLog:
    """The move log: the roll-off or start note first, then each box entered or struck, each
    with the number of actions before the move it tells (an undo drops the moves it took
    back)."""

    def __init__(self, note: str) -> None:
        self.moves: list[str] = [note] if note else []
        self._moved_at: list[int] = [-1] if note else []

    def add(self, move: str, at: int) -> None:
        """Add ``move``, told of the action with index ``at``."""
        self.moves.append(move)
        self._moved_at.append(at)

    def taken_back(self, actions: int) -> int:
        """Drop the moves an undo took back (the game now has ``actions`` actions); how many
        were dropped."""
        keep = [i for i, at in enumerate(self._moved_at) if at < actions]
        dropped = len(self.moves) - len(keep)
        self.moves = [self.moves[i] for i in keep]
        self._moved_at = [self._moved_at[i] for i in keep]
        return dropped


def open_row(game: Game, row: int, new_turn: bool) -> int | None:
    """Where the cursor goes for the person whose turn it is (it stands on ``row``): at a new
    turn on the first open box; after a throw where it is unless that box cannot take the dice,
    then on the first open box that can (None: it stays)."""
    turn = game.turn
    assert turn is not None
    rules, sheet = game.rules, game.sheet(turn.player)
    fitting = {c.box for c in game.choices()}
    if not new_turn and 0 <= row < len(rules.boxes):
        box = rules.boxes[row]
        if box not in sheet.entries and (not fitting or box in fitting):
            return None
    wanted = [b for b in rules.boxes if b not in sheet.entries and (not fitting or b in fitting)]
    return rules.boxes.index(wanted[0]) if wanted else None


def entry_line(game: Game, player: int, action: Score | Strike, lang: Lang) -> str:
    """The log's line of ``player``'s box entered or struck (``action``, just applied)."""
    name = game.players[player].name
    box_name = game.rules.box_name(action.box, lang)
    if isinstance(action, Strike):
        return text("tui.strikes", lang, name=name, box=box_name)
    entry = game.sheet(player).entries.get(action.box)
    return text("tui.scores", lang, name=name, box=box_name, points=entry.points if entry else 0)


def status_line(game: Game, lang: Lang) -> Text:
    """The top line: the rule set, the round and whose turn it is, or that the game is over."""
    turn = game.turn
    if turn is None:  # the ranking stands beside the dice (once)
        return Text(f"{game.rules.title(lang)} · {text('tui.over', lang)}", style="bold green")
    name = game.players[turn.player].name
    return Text(f"{game.rules.title(lang)} · "
                f"{text('tui.round', lang, n=game.round, of=len(game.rules.boxes))} · "
                f"{text('tui.turn', lang, name=name)}", style="bold")


def turn_parts(match: Match, speed: float, lang: Lang) -> list[str]:
    """The turn's state beside the dice: throws, chips left, the computers' speed while one
    plays (the ranking once the game is over)."""
    game, rules = match.game, match.game.rules
    turn = game.turn
    if turn is None:
        return ["   ".join(f"{rank}. {game.players[p].name} {total}"
                           for rank, p, total in game.ranking())]
    parts = [text("tui.throws", lang, used=turn.rolls_used, allowed=turn.rolls_allowed)]
    if rules.chips:
        parts.append(text("tui.chips_left", lang, n=game.sheet(turn.player).chips_left))
    if speed and match.has_computers and not match.human_to_move():
        parts.append(text("tui.speed", lang, s=number(speed, lang)))
    return parts


def wrap_parts(parts: Sequence[str], width: int) -> str:
    """``parts`` joined by " · ", broken into lines between parts where one line would be wider
    than ``width`` (0: never)."""
    lines = [parts[0]] if parts else []
    for part in parts[1:]:
        joined = f"{lines[-1]} · {part}"
        if width and len(joined) > width:
            lines.append(part)
        else:
            lines[-1] = joined
    return "\n".join(lines)


def wrap_pieces(pieces: Sequence[tuple[str, str]], width: int | None) -> str:
    """``pieces`` (each a separator and a text) joined, broken into lines between pieces where
    a line would be wider than ``width`` (None: never): the separator at a break is left out,
    so no line starts (or ends) with one."""
    lines: list[str] = []
    for separator, piece in pieces:
        if lines and (width is None or len(lines[-1]) + len(separator) + len(piece) <= width):
            lines[-1] += separator + piece
        else:
            lines.append(piece)
    return "\n".join(lines)


def key_hints(match: Match, lang: Lang, *, short: bool = False,
              hint_open: bool = False) -> list[str]:
    """The keys that do something now, in the order of a turn: throw and keep while throws are
    left, score, strike where the rules allow a strike, hint (or, while it is shown, Esc to
    close it) and chip after a throw, undo once a person has moved, speed while a computer
    plays, quit (``short``: Enter as ⏎)."""
    game, rules = match.game, match.game.rules
    keys: list[str] = []
    turn = game.turn
    if match.human_to_move() and turn is not None:
        legal = game.legal_actions()
        if turn.roll is None or turn.rolls_left > 0:
            keys.append(text("tui.keys_roll", lang))
        if turn.roll is not None:
            if turn.rolls_left > 0:
                keys.append(text("tui.keys_keep", lang, n=rules.dice_count))
            if any(isinstance(a, Score) for a in legal):
                keys.append(text("tui.keys_enter_short" if short else "tui.keys_enter", lang))
            if any(isinstance(a, Strike) for a in legal):
                keys.append(text("tui.keys_strike", lang))
            keys.append(text("tui.keys_hint_close" if hint_open else "tui.keys_hint", lang))
            if UseChip() in legal:
                keys.append(text("tui.keys_chip", lang))
    if match.can_undo():
        keys.append(text("tui.keys_undo", lang))
    if match.computer_to_move() is not None:
        keys.append(text("tui.keys_speed", lang))
    keys.append(text("tui.keys_quit", lang))
    return keys


def key_line(keys: Sequence[str], short: Sequence[str], room: int) -> str:
    """The key line for ``room`` characters: ``keys`` on one line where they fit (closer
    together, then in their ``short`` form), else the short ones on more lines, broken between
    keys."""
    line = "  ".join(keys)
    if len(line) > room:
        line = " ".join(keys)
    if len(line) > room:
        line = " ".join(short)
    if len(line) > room:
        lines = [""]
        for key in short:
            if lines[-1] and len(lines[-1]) + 2 + len(key) > room:
                lines.append(key)
            else:
                lines[-1] = f"{lines[-1]}  {key}" if lines[-1] else key
        line = "\n".join(lines)
    return line


def save_line(state: SaveState, lang: Lang) -> str | None:
    """The warning of a failed history write: how many moves are not written and why (None
    while every write succeeds)."""
    if state.error is None:
        return None
    why = short_why(state.error, lang)
    if state.unsaved:
        return text("tui.unsaved", lang, n=state.unsaved, of=state.actions, why=why)
    return text("tui.unsaved_undo", lang, n=state.stale, why=why)


# --- the hint ----------------------------------------------------------------------------------


def hint_text(advice: Advice | WinAdvice, lang: Lang, options: int = 3, width: int | None = None,
              lines: int = 2) -> str:
    """The hint line: the best options with their expected final scores (and the loss of the
    others, where it shows as more than 0.0), the numbers of
    :meth:`kniffel.engine.expert.Expert.advise`; broken between its parts into at most
    ``lines`` lines of ``width`` characters (a line never starts with a separator), with as
    many of the best ``options`` as fit (the best one always).

    A :class:`~kniffel.engine.winning.WinAdvice` (a game of two or more players) whose choice to
    win differs from the choice for the points gives both, each with its expected final total
    and its chance to win (:func:`win_hint_text`); where they agree, the expert's hint as
    above."""
    if isinstance(advice, WinAdvice):
        if advice.differ:
            return win_hint_text(advice, lang, width, lines)
        advice = advice.points
    line = wrap_pieces(_hint_pieces(advice, lang, options), width)
    while width is not None and options > 1 and line.count("\n") >= lines:
        options -= 1
        line = wrap_pieces(_hint_pieces(advice, lang, options), width)
    return line


def _hint_pieces(advice: Advice, lang: Lang, options: int) -> list[tuple[str, str]]:
    """The hint's parts, each with the separator that joins it to the part before."""
    rules = advice.position.rules
    head = tr("hint_model" if advice.source == "model" else "hint_table", lang)
    pieces: list[tuple[str, str]] = []
    for i, option in enumerate(advice.options[:options]):
        described = option.describe(rules, lang)
        if i == 0:
            pieces += [("", f"{head}: {described}"),
                       (" · ", tr("hint_expected", lang, value=number(option.expected, lang)))]
            continue
        value = number(option.expected, lang)
        loss = number(option.loss, lang)
        if option.loss > 0 and loss != number(0.0, lang):
            value += f" (−{loss})"
        pieces.append((" | ", f"{described} · {value}"))
    return pieces


def win_hint_text(advice: WinAdvice, lang: Lang, width: int | None = None,
                  lines: int = 2) -> str:
    """Both answers of a hint where they differ: "Für die Punkte: 6 6 behalten (Ø 243,1 · 31 %)
    — Für den Sieg: 6 6 6 behalten (Ø 239,8 · 38 %)" on one line where it fits in ``width``
    characters, else each answer on a line of its own (where ``lines`` allows two); where an
    answer does not fit its line, the expected totals are left out first (the chances to win
    are what the two answers are about), then the labels shortened ("Punkte: …", "Sieg: …");
    where even that does not fit, the short form broken between its parts."""
    for short, totals in ((False, True), (False, False), (True, False)):
        halves = [label + (" " + numbers) for label, numbers in
                  _win_hint_halves(advice, lang, short=short, totals=totals)]
        one = " — ".join(halves)
        if width is None or len(one) <= width:
            return one
        if lines >= 2 and all(len(half) <= width for half in halves):
            return "\n".join(halves)
    return "\n".join(wrap_pieces([("", label), (" ", numbers)], width) for label, numbers in
                     _win_hint_halves(advice, lang, short=True, totals=False))


def _win_hint_halves(advice: WinAdvice, lang: Lang, *, short: bool,
                     totals: bool) -> list[tuple[str, str]]:
    """The two answers of :func:`win_hint_text`, each as its choice with its label and its
    numbers ("(Ø 243,1 · 31 %)", without ``totals`` "(31 %)")."""
    rules = advice.points.position.rules
    out = []
    for key, option in (("hint_for_points", advice.for_points), ("hint_for_win", advice.for_win)):
        chance = chance_text(option.win, lang, 99)
        numbers = (tr("hint_numbers", lang, value=number(option.expected, lang), win=chance)
                   if totals else tr("hint_chance", lang, win=chance))
        label = tr(key + ("_short" if short else ""), lang, choice=option.describe(rules, lang))
        out.append((label, numbers))
    return out
