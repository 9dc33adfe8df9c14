"""The terminal game's own widgets and what both its screens share: a die (:class:`Die`), the
notice that asks for a bigger window (:func:`fit_notice`, :data:`MIN_SIZE`) and the question
asked before a game is lost (:class:`ConfirmQuit`)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from kniffel.engine.rules import Lang
from kniffel.tui.view import tr

#: The smallest window the game is played in (columns, rows): the turn and its messages beside
#: the dice, every sum, the chances and the keys visible with a few boxes of the sheet;
#: smaller, a notice asks for more room (the game goes on once it has it).
MIN_SIZE = (80, 20)


class Die(Static):
    """One die: its face, whether it is kept; the d10 drawn with a double border in gold. A
    click on it says so to its screen (:class:`Die.Clicked`)."""

    class Clicked(Message):
        """The die at place ``index`` (0-based, the d10 last) was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int, *, d10: bool, lang: Lang) -> None:
        super().__init__("", id=f"die-{index}", classes="die d10" if d10 else "die")
        self.index = index
        self.border_title = tr("d10", lang) if d10 else f"{index + 1}"
        self.face: int | None = None
        self.kept = False

    def show(self, face: int | None, kept: bool) -> None:
        """Draw ``face`` (None: no die thrown yet), marked as kept or not."""
        if (face, kept) == (self.face, self.kept) and face is not None:
            return
        self.face, self.kept = face, kept
        self.set_class(kept, "kept")
        self.border_subtitle = "✓" if kept else ""
        self.update(Text(" " if face is None else str(face)))

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))


def too_small(screen: Screen[None]) -> bool:
    """Whether ``screen`` is smaller than :data:`MIN_SIZE` in either direction."""
    width, height = screen.size
    return width < MIN_SIZE[0] or height < MIN_SIZE[1]


def fit_notice(screen: Screen[None], lang: Lang, focus: str) -> None:
    """Below :data:`MIN_SIZE` the screen gives way to its notice (``#too-small``) that asks for
    more room (the class ``too-small`` hides the rest); it comes back once there is room, the
    keys going to ``focus`` (a selector) again where the hidden widget lost them."""
    width, height = screen.size
    small = too_small(screen)
    notice = screen.query_one("#too-small", Static)
    if small:
        notice.update(Text(tr("too_small", lang, w=width, h=height, min_w=MIN_SIZE[0],
                              min_h=MIN_SIZE[1]), style="bold"))
    if small != screen.has_class("too-small"):
        screen.set_class(small, "too-small")
        screen.call_after_refresh(notice.refresh, layout=True)
        if not small and screen.focused is None:
            screen.call_after_refresh(screen.query_one(focus).focus)


class ConfirmQuit(ModalScreen[bool]):
    """Asked before a game that could be stored nowhere is lost: j (y) quits, n or Esc plays
    on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,y", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    def __init__(self, lost: str, lang: Lang) -> None:
        super().__init__()
        self.lost = lost
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.lost, style="bold"), id="confirm-text")
            yield Static(Text(tr("confirm_question", self.lang), style="bold reverse"),
                         id="confirm-question")

    def action_answer(self, quit_anyway: bool) -> None:
        self.dismiss(quit_anyway)
