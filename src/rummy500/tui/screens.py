"""The screens around the table: choices, the hot-seat cover, deal scores, rules, resuming."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..cards import face_pretty, parse_face
from ..narrate import value_text
from ..rules import OPTION_DOCS, PRESET_DOCS, Rules
from ..session.seat_state import DealSheet, signed
from ..session.words import rules_summary
from .widgets import Words, hidden, number_text

MODAL_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 76; max-width: 100%; height: auto; max-height: 100%;
    border: round $accent; background: $surface; padding: 0 1; overflow-y: auto;
}}
{name} .title {{ text-style: bold; margin-bottom: 1; }}
{name} .keys {{ color: $text-muted; margin-top: 1; }}
"""


class ChoiceScreen(ModalScreen[int | None]):
    """Pick one of a few moves (a joker's declaration, a lay-off's meld, a rummy claim)."""

    DEFAULT_CSS = MODAL_CSS.format(name="ChoiceScreen") + """
    ChoiceScreen OptionList { height: auto; max-height: 14; border: none; padding: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: Sequence[str], keys: str = "↑↓ and Enter to "
                 "choose, Esc to cancel") -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.keys = keys

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Words(self.title_text, classes="title")
            yield OptionList(*(Option(Text(choice), id=f"choice-{index}")
                               for index, choice in enumerate(self.choices)), id="choices")
            yield Words(self.keys, classes="keys")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CoverScreen(ModalScreen[None]):
    """Hot seat: the whole screen is hidden until the next player is ready."""

    DEFAULT_CSS = """
    CoverScreen { align: center middle; background: $background; }
    CoverScreen > Vertical { width: 60; max-width: 100%; height: auto; border: heavy $accent;
                             padding: 1 2; background: $surface; }
    CoverScreen .title { text-style: bold; text-align: center; }
    CoverScreen .keys { color: $text-muted; text-align: center; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", "Ready")]

    def __init__(self, name: str, why: str) -> None:
        super().__init__()
        self.player = name
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Words(f"{self.player}, {self.why}", classes="title")
            yield Words("Everyone else, look away: the next screen shows "
                         f"{self.player}'s hand.", classes="keys")
            yield Words(f"{self.player}: press Enter (or click) when you are ready.",
                         classes="keys")

    def on_click(self) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)


def sheet_table(sheet: DealSheet) -> Table:
    """A deal's sheet line by line: each side's lines, then its score for the deal and its
    total after it (every figure the sheet's own)."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0), header_style="bold")
    table.add_column("")
    table.add_column("points", justify="right")
    table.add_column("total", justify="right")
    best = max(sheet.totals_after)
    for side, name in enumerate(sheet.sides):
        for line in sheet.side_lines(side):
            table.add_row(line.text, signed(line.points), "")
        total = sheet.totals_after[side]
        table.add_row(f"{name}: this deal", signed(sheet.scores[side]), number_text(total),
                      style="bold" if total == best else "", end_section=True)
    return table


def hand_words(hand: Sequence[str]) -> str:
    return " ".join(face_pretty(parse_face(card)) for card in hand) or "—"


class SheetScreen(ModalScreen[str]):
    """A deal's score sheet; at the end of the game the winner and 'play again'. At an
    online table (``online``) the server deals on by itself: the sheet only closes."""

    DEFAULT_CSS = MODAL_CSS.format(name="SheetScreen") + """
    SheetScreen .outcome { text-style: bold; margin-top: 1; }
    SheetScreen .note { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "next", "Next deal"),
        *hidden(("a", "again", "Play again"), ("s", "setup", "Set-up"), ("q", "quit_game", "Quit"),
                ("escape", "close", "Close"), ("up", "scroll(-1)", "Scroll up"),
                ("down", "scroll(1)", "Scroll down")),
    ]

    def __init__(self, sheet: DealSheet, names: Sequence[str], online: bool = False) -> None:
        """``names``: the seats' names as the sheet's reader reads them."""
        super().__init__()
        self.sheet = sheet
        self.names = list(names)
        self.online = online

    def compose(self) -> ComposeResult:
        sheet = self.sheet
        with Vertical():
            yield Words(sheet.text, classes="title")
            yield Words(sheet_table(sheet))
            left = [f"{self.names[seat]}: {hand_words(hand)}"
                    for seat, hand in enumerate(sheet.hands) if hand]
            if left:
                yield Words("Cards left in hand: " + "; ".join(left) + ".", classes="note hands")
            yield Words(sheet.standing, classes="outcome")
            if self.online:
                keys = "Enter or Esc: back to the table · q: leave"
            elif sheet.last:
                keys = "Enter or Esc: look at the table · a: play again · s: a new set-up · q: quit"
            else:
                keys = f"Enter: on to deal {sheet.deal + 1} · q: save and quit"
            keys += " · ↑↓: scroll"
            yield Words(keys, classes="keys")

    def action_next(self) -> None:
        """Enter: on to the next deal; at the end of the game (or online), back to the table
        (a new game has a key of its own)."""
        self.dismiss("close" if self.online or self.sheet.last else "next")

    def action_close(self) -> None:
        self.action_next()

    def action_scroll(self, lines: int) -> None:
        self.query_one(Vertical).scroll_relative(y=lines, animate=False)

    def action_again(self) -> None:
        if self.sheet.last and not self.online:
            self.dismiss("again")

    def action_setup(self) -> None:
        if self.sheet.last and not self.online:
            self.dismiss("setup")

    def action_quit_game(self) -> None:
        self.dismiss("quit")


MOVE_KEY_HELP = """\
Keys: d draw · t take from the pile at the pile's cursor (or click a pile card) · \
m meld the picked cards · l lay off the picked card (or click a meld) · x discard · \
e end the deal (empty stock) · r call rummy · p pass · space or a click picks a card · \
Tab moves between the hand, the pile, the melds and the log · s sorts by suit or rank · \
h hint · u undo · : type a move (Enter sends it, then the keys work again) · ? these rules"""
"""The keys of every table, local or online; each adds its own after them."""
NOTATION_HELP = """\
Moves typed in the notation: draw, take 7h, meld 7h 7d 7s, meld 5h *=6h 7h, \
layoff 8h m2, layoff *=9h m2, discard Kc, end, rummy meld 4s 5s 6s, rummy layoff 9s m2, pass.
Underlined cards can be played now (in the pile: taken); picked cards are shown in reverse."""
KEY_HELP = (MOVE_KEY_HELP + " · n new game · q save and quit (asked first while the game is "
            "on).\n" + NOTATION_HELP)
"""The keys of the local table."""


def rules_text(rules: Rules, players: int) -> Text:
    text = Text()
    text.append(f"{rules.preset}: ", "bold")
    text.append(PRESET_DOCS.get(rules.preset, "") + "\n")
    for topic, words in rules_summary(rules, players):
        text.append(f"\n{topic}: ", "bold")
        text.append(words)
    text.append("\n\nEvery setting (rummy500 rules explains them):\n", "bold")
    changed = rules.overrides()
    text.append(", ".join(f"{name}={value_text(getattr(rules, name))}"
                          + (" (set for this game)" if name in changed else "")
                          for name in OPTION_DOCS) + "\n")
    return text


class RulesScreen(ModalScreen[None]):
    """The rules of the game in play, and the keys."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > VerticalScroll { width: 100%; height: 100%; border: round $accent;
                                   background: $surface; padding: 0 1; }
    RulesScreen .title { text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "close", "Close")]

    def __init__(self, rules: Rules, players: int, keys: str = KEY_HELP) -> None:
        """``keys``: the table's keys, in words."""
        super().__init__()
        self.rules = rules
        self.players = players
        self.keys = keys

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Words("The rules of this game (Esc closes; ↑↓ scroll)", classes="title")
            yield Words(rules_text(self.rules, self.players))
            yield Words("Keys", classes="title")
            yield Words(self.keys)

    def action_close(self) -> None:
        self.dismiss(None)


class ResumeScreen(ModalScreen[str]):
    """A game is saved: resume it, or start a new one."""

    DEFAULT_CSS = MODAL_CSS.format(name="ResumeScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,enter", "choose('resume')", "Resume"),
        Binding("n", "choose('new')", "New game"),
        Binding("q,escape", "choose('quit')", "Quit"),
    ]

    def __init__(self, summary: str) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Words("A game in progress is saved.", classes="title")
            yield Words(self.summary)
            yield Words("r or Enter: resume it · n: start a new game (the saved one is "
                         "replaced) · q: quit", classes="keys")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
