"""The score sheet's box on the game screen (:class:`SheetBox`): the sheet and its sums, their
columns chosen for the width there is, the sheet as tall as the room, scrolled to what matters."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Region, Spacing
from textual.widgets import DataTable

from kniffel.tui.view import SheetTable


class SheetBox(Vertical):
    """The sheet (``#sheet``, a row per box) and its sums (``#totals``) drawn by ``sheet``;
    ``boxes``: how many boxes the rule set has; ``playing``: whether a turn is on (the cursor
    matters). Whenever its size changed (a resize, a line above or below that came or went),
    the sheet is fitted to the room again."""

    def __init__(self, sheet: SheetTable, boxes: int, playing: Callable[[], bool], *,
                 id: str) -> None:
        super().__init__(id=id)
        self.sheet = sheet
        self.boxes = boxes
        self.playing = playing

    def compose(self) -> ComposeResult:
        yield DataTable(id="sheet", cursor_type="row", zebra_stripes=True)
        yield DataTable(id="totals", cursor_type="none", show_header=False, show_cursor=False)

    @property
    def table(self) -> DataTable[Text | str]:
        return self.query_one("#sheet", DataTable)

    @property
    def totals(self) -> DataTable[Text | str]:
        return self.query_one("#totals", DataTable)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.fit_height)

    def choose_columns(self, width: int, beside_log: bool) -> bool:
        """Choose the sheet's column widths for ``width`` columns; True when they changed (the
        tables are built anew then). Beside the log the box is as wide as the sheet, else it
        takes the whole width (also when the columns stayed the same: from a wide window to a
        narrow one)."""
        changed = self.sheet.choose(max(width - 1, 20))  # the sheet's scroll bar
        self.styles.width = self.sheet.width if beside_log else "1fr"
        if changed:
            self.sheet.build((self.table, self.totals))
        return changed

    def fit_height(self) -> None:
        """The sheet as tall as its boxes when there is room (the sums right below), else as
        tall as the room (it scrolls, the sums stay)."""
        room = self.size.height
        if room <= 0:
            return
        height = max(min(self.boxes + 1, room - self.totals.row_count), 3)
        table = self.table
        if table.styles.height is None or table.styles.height.value != height:
            table.styles.height = height
            self.call_after_refresh(self._scroll_to_cursor)

    def _scroll_to_cursor(self) -> None:
        """After the sheet's height changed: every box in view when they all fit (no row
        scrolled away above empty lines), else the cursor's row."""
        table = self.table
        if table.size.height >= self.boxes + 1:
            table.scroll_to(y=0, animate=False)
        elif self.playing():
            table.move_cursor(row=table.cursor_row, scroll=True)

    def show_row(self, row: int) -> None:
        """Scroll the sheet (as little as it takes) so box ``row`` is in view."""
        table = self.table
        header = table.header_height if table.show_header else 0
        table.scroll_to_region(Region(0, header + row, 1, 1), spacing=Spacing(top=header),
                               animate=False, force=True)
