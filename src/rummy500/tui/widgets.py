"""The table's widgets: card strips (the hand, the discard pile), the melds, the players.

Cards are drawn as text: rank and suit symbol, hearts and diamonds in red (a red
chosen for the theme, light or dark), clubs and spades in the text colour. Each
strip lays its cards out in cells of five columns and wraps; a click, the arrow
keys and space pick a card.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Static

from ..cards import JOKER, face_pretty
from ..melds import DECLARED
from ..moves import parse_piece
from ..session.seat_state import TableMeld

ItemT = TypeVar("ItemT")

RANK_LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = "♣♦♥♠"
RED_ON_DARK = "#ff6b6b"
RED_ON_LIGHT = "#c4001a"
JOKER_ON_DARK = "#d79bff"
JOKER_ON_LIGHT = "#7a1fa2"


def hidden(*keys: tuple[str, str, str]) -> list[BindingType]:
    """Key bindings (keys, action, description) that work without showing in the footer."""
    return [Binding(key, action, description, show=False) for key, action, description in keys]


def number_text(number: int) -> str:
    """A whole number as the table writes it: a negative total with a true minus sign."""
    return str(number) if number >= 0 else f"\u2212{-number}"


def face_label(face: int) -> str:
    """``10♥``, ``A♠``, or ``Jk`` for a joker."""
    if face == JOKER:
        return "Jk"
    return RANK_LABELS[face & 15] + SUIT_SYMBOLS[face >> 4]


def face_style(face: int, dark: bool) -> Style:
    if face == JOKER:
        return Style(color=JOKER_ON_DARK if dark else JOKER_ON_LIGHT, bold=True)
    if face >> 4 in (1, 2):
        return Style(color=RED_ON_DARK if dark else RED_ON_LIGHT, bold=True)
    return Style(bold=True)


def card_label(face: int, dark: bool) -> Text:
    return Text(face_label(face), face_style(face, dark))


def piece_label(piece: int, dark: bool) -> Text:
    """A card on the table; a wild joker shows ``*`` and the card it stands for."""
    if piece >= DECLARED:
        return Text("*" + face_label(piece - DECLARED), face_style(JOKER, dark))
    return card_label(piece, dark)


def piece_pretty(piece: int) -> str:
    """A card on the table as a person reads it: ``7♥``, ``*`` or ``*=7♥``."""
    if piece >= DECLARED:
        return "*=" + face_pretty(piece - DECLARED)
    return "*" if piece == JOKER else face_pretty(piece)


@dataclass(frozen=True, slots=True)
class Item:
    """One card of a strip: its face, its label and how it is marked."""

    face: int
    label: Text
    marked: bool = False
    """Playable (in the hand) or takeable (in the pile): underlined."""
    selected: bool = False
    """Picked for the next move: shown in reverse."""
    key: Hashable = None
    """What tells this card from the strip's other cards of the same face."""


class CursorList(Widget, Generic[ItemT]):
    """A focusable list of items with a cursor, redrawn when either changes: what
    :class:`Strip` and :class:`MeldList` share."""

    cursor: reactive[int] = reactive(0)
    items: list[ItemT]

    def watch_cursor(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        if self.items:
            self.cursor = (self.cursor + step) % len(self.items)


class Strip(CursorList["Item"], can_focus=True):
    """A wrapping row of cards with a cursor; posts :class:`Strip.Picked` on space or a click."""

    DEFAULT_CSS = """
    Strip { height: auto; width: 1fr; }
    """
    CELL = 5

    BINDINGS: ClassVar[list[BindingType]] = hidden(
        ("left", "move(-1)", "Left"), ("right", "move(1)", "Right"),
        ("up", "move_row(-1)", "Up"), ("down", "move_row(1)", "Down"),
        ("home", "jump(0)", "First"), ("end", "jump(-1)", "Last"),
        ("space", "pick", "Pick"), ("enter", "pick", "Pick"))

    class Picked(Message):
        """A card of the strip was picked (space, enter or a click)."""

        def __init__(self, strip: Strip, index: int, item: Item) -> None:
            super().__init__()
            self.strip = strip
            self.index = index
            self.item = item

        @property
        def control(self) -> Strip:
            return self.strip

    def __init__(self, empty: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: list[Item] = []
        self.empty = empty

    def show(self, items: Sequence[Item], empty: str | None = None) -> None:
        rows = self._rows(self.content_size.width)
        self.items = list(items)
        if empty is not None:
            self.empty = empty
        self.cursor = min(self.cursor, max(len(self.items) - 1, 0))
        self.refresh(layout=rows != self._rows(self.content_size.width))

    def per_row(self, width: int | None = None) -> int:
        return max(1, (self.content_size.width if width is None else width) // self.CELL)

    def _rows(self, width: int) -> int:
        return max(1, -(-len(self.items) // self.per_row(width)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._rows(width)

    def render(self) -> Text:
        if not self.items:
            return Text(self.empty, style="dim italic")
        per_row = self.per_row()
        text = Text()
        focused = self.has_focus
        for index, item in enumerate(self.items):
            if index and index % per_row == 0:
                text.append("\n")
            here = focused and index == self.cursor
            label = item.label.copy()
            label.pad_left(3 - label.cell_len)
            if item.marked:
                label.stylize("underline")
            if item.selected:
                label.stylize("reverse")
            text.append("[" if here else " ", "bold" if here else "")
            text.append_text(label)
            text.append("]" if here else " ", "bold" if here else "")
        return text

    def offset_of(self, index: int) -> tuple[int, int]:
        """Where card ``index`` is drawn, relative to the widget (for clicks)."""
        per_row = self.per_row()
        gutter = self.styles.gutter
        return (gutter.left + index % per_row * self.CELL + 2, gutter.top + index // per_row)

    def index_at(self, x: int, y: int) -> int | None:
        gutter = self.styles.gutter
        column = (x - gutter.left) // self.CELL
        row = y - gutter.top
        if column < 0 or row < 0 or column >= self.per_row():
            return None
        index = row * self.per_row() + column
        return index if index < len(self.items) else None

    def on_click(self, event: Click) -> None:
        index = self.index_at(event.x, event.y)
        if index is not None:
            self.cursor = index
            self.post_message(self.Picked(self, index, self.items[index]))

    def action_move_row(self, step: int) -> None:
        target = self.cursor + step * self.per_row()
        if 0 <= target < len(self.items):
            self.cursor = target

    def action_jump(self, index: int) -> None:
        if self.items:
            self.cursor = index % len(self.items)

    def action_pick(self) -> None:
        if self.items:
            self.post_message(self.Picked(self, self.cursor, self.items[self.cursor]))


def meld_number(meld: TableMeld) -> int:
    """The number of a meld of the table (``m2``: 2)."""
    return int(meld.id.removeprefix("m"))


def meld_words(meld: TableMeld) -> str:
    """A meld's cards as a person reads them: ``Q♠ *=K♠ A♠``."""
    return " ".join(piece_pretty(parse_piece(card)) for card in meld.cards)


@dataclass(frozen=True, slots=True)
class MeldItem:
    meld: TableMeld
    owners: Sequence[str]
    """The name of each seat (to say who laid each card)."""
    marked: bool = False
    """The picked card can be laid off on it."""

    @property
    def number(self) -> int:
        return meld_number(self.meld)


def meld_text(item: MeldItem, dark: bool, cursor: bool) -> Text:
    """``m2 4♣ 5♣ 6♣ (You) 7♣ (Ann)``: cards in order, each group followed by who laid it
    (in brackets, so that a name like ``Expert 2`` never reads as a card).

    The meld under the cursor has its id underlined; one the picked card fits, reversed.
    """
    meld = item.meld
    style = "bold" + (" reverse" if item.marked else "") + (" underline" if cursor else "")
    text = Text(meld.id, style)
    for index, (card, seat) in enumerate(zip(meld.cards, meld.by, strict=True)):
        text.append(" ")
        text.append_text(piece_label(parse_piece(card), dark))
        if index == len(meld.cards) - 1 or meld.by[index + 1] != seat:
            text.append(f" ({item.owners[seat]})", "dim italic")
    return text


def flow(
    chunks: Sequence[Text], width: int, gap: int = 3
) -> tuple[Text, list[tuple[int, int, int]]]:
    """Chunks laid out left to right, wrapping; with each chunk's (row, start, end)."""
    lines: list[Text] = []
    spans: list[tuple[int, int, int]] = []
    line = Text()
    for chunk in chunks:
        if line.cell_len and line.cell_len + gap + chunk.cell_len > width:
            lines.append(line)
            line = Text()
        if line.cell_len:
            line.append(" " * gap)
        start = line.cell_len
        line.append_text(chunk)
        spans.append((len(lines), start, line.cell_len))
    if line.cell_len or not lines:
        lines.append(line)
    return Text("\n").join(lines), spans


class MeldList(CursorList["MeldItem"], can_focus=True):
    """Every meld on the table with its id and who laid each card; pick one to lay off on."""

    DEFAULT_CSS = """
    MeldList { height: auto; width: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = hidden(
        ("left,up", "move(-1)", "Previous"), ("right,down", "move(1)", "Next"),
        ("space,enter", "pick", "Lay off here"))

    class Picked(Message):
        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: list[MeldItem] = []
        self._spans: list[tuple[int, int, int]] = []

    def show(self, items: Sequence[MeldItem]) -> None:
        width = self.content_size.width
        rows = self.get_content_height(Size(0, 0), Size(0, 0), width)
        self.items = list(items)
        self.cursor = min(self.cursor, max(len(self.items) - 1, 0))
        self.refresh(layout=rows != self.get_content_height(Size(0, 0), Size(0, 0), width))

    def _layout(self, width: int) -> tuple[Text, list[tuple[int, int, int]]]:
        dark = self.app.current_theme.dark
        focused = self.has_focus
        chunks = [meld_text(item, dark, focused and index == self.cursor)
                  for index, item in enumerate(self.items)]
        return flow(chunks, max(width, 10))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not self.items:
            return 1
        text, _ = self._layout(width)
        return len(text.split("\n"))

    def render(self) -> Text:
        if not self.items:
            return Text("no melds yet", style="dim italic")
        text, self._spans = self._layout(self.content_size.width)
        return text

    def offset_of(self, number: int) -> tuple[int, int]:
        """Where meld ``number`` (m1 = 1) is drawn, relative to the widget (for clicks)."""
        _, spans = self._layout(self.content_size.width)
        row, start, _ = spans[number - 1]
        gutter = self.styles.gutter
        return (gutter.left + start + 1, gutter.top + row)

    def on_click(self, event: Click) -> None:
        gutter = self.styles.gutter
        x, y = event.x - gutter.left, event.y - gutter.top
        for index, (row, start, end) in enumerate(self._spans):
            if row == y and start <= x < end:
                self.cursor = index
                self.post_message(self.Picked(self.items[index].number))
                return

    def action_pick(self) -> None:
        if self.items:
            self.post_message(self.Picked(self.items[self.cursor].number))


class FlowBar(Widget):
    """Short entries (the players, their hands and scores) laid out in wrapping lines."""

    DEFAULT_CSS = """
    FlowBar { height: auto; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[Text] = []

    def show(self, entries: Sequence[Text]) -> None:
        width = self.content_size.width
        rows = self.get_content_height(Size(0, 0), Size(0, 0), width)
        self.entries = list(entries)
        self.refresh(layout=rows != self.get_content_height(Size(0, 0), Size(0, 0), width))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        text, _ = flow(self.entries, max(width, 10), gap=2)
        return len(text.split("\n"))

    def render(self) -> Text:
        text, _ = flow(self.entries, max(self.content_size.width, 10), gap=2)
        return text


class Words(Static):
    """Text shown as written: a name like ``[/]`` is never read as markup."""

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(content, markup=False, **kwargs)
