"""What the table shows: everything public about the deal and the hand of the person at the
screen, kept up to date from the session (the moves are made in :mod:`.table`).

Nothing here decides what is legal: cards are marked playable from the view's legal
moves.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer, Input, RichLog, Static

from ..bots import strength
from ..cards import JOKER, face_of, iter_bits
from ..legal import DRAW_PHASE, PLAY_PHASE, RUMMY_PHASE
from ..moves import Move
from ..narrate import YOU, plural, verb
from ..rules import Rules
from ..session.session import TableSession
from ..session.settings import PERSON, bot_title
from ..view import PlayerView
from .keys import TableWidgets, layoff_fits, move_prompt, usable_faces
from .widgets import (
    RED_ON_DARK,
    RED_ON_LIGHT,
    FlowBar,
    Item,
    MeldItem,
    MeldList,
    Strip,
    Words,
    card_label,
)


def suit_order(card: int) -> tuple[int, int, int]:
    face = face_of(card)
    return (face == JOKER, face >> 4, face & 15)


def rank_order(card: int) -> tuple[int, int, int]:
    face = face_of(card)
    return (face == JOKER, face & 15, face >> 4)


def status_table(title: str, rules: Rules, deal: int, stock: int, right: str,
                 acting: bool) -> Table:
    """The status line of a table: the game on the left, ``right`` (whose turn it is) on the
    right, reversed while the person at the screen is to act; laid out at any width."""
    deal_text = f"deal {deal}"
    if rules.max_deals is not None:
        deal_text += f" of {rules.max_deals}"
    changed = len(rules.overrides())
    preset = rules.preset + (f" (+{plural(changed, 'option')})" if changed else "")
    parts = [title, preset, deal_text, f"stock {stock}"]
    if rules.target_score is not None:
        parts.append(f"to {rules.target_score}")
    line = Table.grid(expand=True, padding=(0, 0, 0, 2))
    line.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    line.add_column(justify="right", no_wrap=True)
    line.add_row(Text(" · ".join(parts), "bold"), Text(right, "bold reverse" if acting else "bold"))
    return line


def table_layout() -> ComposeResult:
    """The widgets of a table screen, local or online, top to bottom."""
    yield Words(id="status")
    yield FlowBar(id="players")
    with VerticalScroll(id="table"):
        yield Strip("the pile is empty", id="pile")
        yield MeldList(id="melds")
    # min_width: RichLog renders every line at least 78 cells wide by default, wider
    # than the log at 80 columns, so the last letter went under the scrollbar.
    yield RichLog(id="log", wrap=True, max_lines=2000, auto_scroll=True, min_width=10)
    yield Strip(id="hand")
    yield Words(id="message")
    yield Input(placeholder=": type a move, like take 7h, meld 7h 7d 7s or layoff 8h m2",
                id="command")
    yield Footer(compact=True, show_command_palette=False)


def dress_table(screen: Screen[None]) -> None:
    """The titles and the focus of a :func:`table_layout` once it is mounted."""
    screen.query_one("#log", RichLog).border_title = "Log"
    screen.query_one("#melds", MeldList).border_title = "Table"
    screen.query_one("#table").can_focus = False
    screen.query_one("#hand", Strip).focus()


class Board(TableWidgets, Screen[None]):
    """The table of one session, as the person at the screen sees it."""

    DEFAULT_CSS = """
    Board { layout: vertical; }
    #status { height: 1; padding: 0 1; background: $panel; }
    #players { padding: 0 1; }
    #table { height: auto; max-height: 60%; scrollbar-size-vertical: 1; }
    #pile, #melds, #hand { border-top: solid $border-blurred; border-title-color: $text-muted;
                           padding: 0 1; }
    #pile:focus, #melds:focus, #hand:focus { border-top: solid $border;
                                             border-title-color: $text-accent; }
    #log { height: 1fr; min-height: 4; border-top: solid $border-blurred;
           border-title-color: $text-muted; padding: 0 1; scrollbar-size-vertical: 1;
           scrollbar-gutter: stable; background: $background; }
    #message { height: 2; padding: 0 1; }
    #command { height: 1; border: none; padding: 0 1; background: $boost; }
    #command:focus { border: none; background: $surface-active; }
    """

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        people = session.people
        self.viewer: int | None = people[0] if len(people) == 1 else None
        """The seat whose hand is on the screen (None: hidden, or nobody's)."""
        self.selected: set[int] = set()
        """The picked cards of the hand."""
        self.by_rank = False
        self.note: Text | None = None
        """A message (a refusal, a hint) shown instead of the prompt until the next move."""
        self.thinking = False
        """A computer player is deciding."""
        self.legal: list[Move] = []
        """The legal moves of the person at the screen, when it is their move."""
        self._log_shown = 0
        self._log_width = -1
        self._pile_length = -1
        self._keys: tuple[object, ...] = ()

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from table_layout()

    def on_mount(self) -> None:
        dress_table(self)

    def on_resize(self, event: Resize) -> None:
        self.call_after_refresh(self._resized)

    def _resized(self) -> None:
        log = self.query_one("#log", RichLog)
        width = log.scrollable_content_region.width
        if width != self._log_width:  # written lines keep their width: wrap them again
            self._log_width = width
            log.clear()
            self._log_shown = 0
        self.update_table()

    # -- what is on the screen --------------------------------------------------------------------

    def acting(self) -> bool:
        """The person whose hand is shown is the one the game waits for."""
        session = self.session
        return (not self.thinking and session.person_to_move and self.viewer is not None
                and self.viewer == session.to_move)

    def public_view(self) -> PlayerView:
        """A view for the public facts (its hand is shown only if it is the viewer's)."""
        session = self.session
        return session.view(self.viewer if self.viewer is not None else session.game.turn)

    def update_table(self) -> None:
        if not self.is_attached:
            return
        session = self.session
        game = session.game
        view = self.public_view()
        dark = self.app.current_theme.dark
        self.legal = view.legal_moves() if self.acting() else []
        held = set(iter_bits(view.hand)) if self.viewer is not None else set()
        self.selected &= held
        self.query_one("#status", Static).update(self.status_line(view), layout=False)
        self.query_one("#players", FlowBar).show(self.player_entries(view))
        self.show_pile(list(view.pile), dark)
        fits = layoff_fits(self.legal, self.picked())
        self.melds.show([MeldItem(meld, session.names, meld.number in fits)
                         for meld in view.melds])
        self.show_hand(view, dark)
        message = self.note if self.note is not None else Text(self.prompt(view))
        if session.save_problem is not None:  # said until a save succeeds again
            problem = session.save_problem
            message = Text.assemble((f"⚠ {problem[:1].upper()}{problem[1:]}.", "bold"), " ",
                                    message)
        self.query_one("#message", Static).update(message, layout=False)
        self.sync_log()
        keys = (self.acting(), tuple(sorted({m.kind for m in self.legal})),
                self.session.undo_refusal() is None, game.finished)
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    def status_line(self, view: PlayerView) -> Table:
        """The game on the left, whose turn it is on the right; laid out at any width."""
        session = self.session
        if session.finished:
            right = "game over"
        else:
            who = session.names[view.turn]
            doing = {DRAW_PHASE: "draw", PLAY_PHASE: "play", RUMMY_PHASE: "call rummy or pass"}
            right = (f"{who} {verb(who, 'is')} thinking…" if self.thinking
                     else f"{who} to {doing.get(view.phase, 'play')}")
        return status_table("500 Rum", session.rules, view.deal_number + 1, view.stock_count,
                            right, self.acting())

    def player_entries(self, view: PlayerView) -> list[Text]:
        session = self.session
        rules = session.rules
        entries = []
        for seat, name in enumerate(session.names):
            entry = Text()
            entry.append("▶" if seat == view.turn and not session.finished else " ", "bold")
            entry.append(name, "bold underline" if seat == view.turn else "bold")
            kind = session.settings.seats[seat]
            tags = []
            if kind != PERSON:
                tags.append(strength(kind) if name.startswith(bot_title(kind))
                            else f"{kind}, {strength(kind)}")
            if (rules.partnership and self.viewer is not None and seat != self.viewer
                    and rules.side_of(seat) == rules.side_of(self.viewer)):
                owner = "your" if session.names[self.viewer] == YOU else \
                    f"{session.names[self.viewer]}'s"
                tags.append(f"{owner} partner")
            if seat == view.dealer:
                tags.append("dealer")
            if tags:
                entry.append(f" ({', '.join(tags)})", "dim")
            entry.append(f" {plural(view.hand_sizes[seat], 'card')}, table {view.credit[seat]}")
            if not rules.partnership:
                entry.append(f", score {view.totals[seat]}")
            entries.append(entry)
        if rules.partnership:
            for side, total in enumerate(view.totals):
                entries.append(Text(f"{session.side_label(side)}: {total}", "bold"))
        return entries

    def hand_cards(self, view: PlayerView) -> list[int]:
        return sorted(iter_bits(view.hand), key=rank_order if self.by_rank else suit_order)

    def show_hand(self, view: PlayerView, dark: bool) -> None:
        session = self.session
        hand = self.hand
        if self.viewer is None:
            if session.people:
                hand.show([], "hidden until the next player is ready")
            else:
                hand.show([], "nobody at this table is a person: the computer players play")
            hand.border_title = "Hand"
            return
        usable = usable_faces(self.legal)
        must = view.must_use
        items = [Item(card, card_label(card, dark), face_of(card) in usable or card == must,
                      card in self.selected) for card in self.hand_cards(view)]
        hand.show(items, "no cards")
        name = session.names[self.viewer]
        owner = "Your hand" if name == YOU else f"{name}'s hand"
        order = "by rank" if self.by_rank else "by suit"
        picked = f" · {len(self.selected)} picked" if self.selected else ""
        hand.border_title = Content(f"{owner} · {plural(len(items), 'card')} · {order}{picked}")

    def prompt(self, view: PlayerView) -> str:
        session = self.session
        if session.finished:
            return "The game is over."
        if self.thinking:
            return ""
        who = session.names[view.turn]
        if not self.acting():
            return f"{who} to play."
        must = face_of(view.must_use) if view.must_use >= 0 else -1
        return move_prompt(view.phase, view.stock_count, must)

    def sync_log(self) -> None:
        log = self.query_one("#log", RichLog)
        lines = self.session.log
        if len(lines) < self._log_shown:
            log.clear()
            self._log_shown = 0
        for line in lines[self._log_shown:]:
            log.write(Text(line))
        self._log_shown = len(lines)

    def picked(self) -> list[int]:
        """The picked cards of the hand, in the hand's order."""
        if self.viewer is None:
            return []
        view = self.session.view(self.viewer)
        return [card for card in self.hand_cards(view) if card in self.selected]

    def say(self, text: str, style: str = "") -> None:
        self.note = Text(text, style)
        self.query_one("#message", Static).update(self.note, layout=False)

    def refuse(self, reason: str) -> None:
        colour = RED_ON_DARK if self.app.current_theme.dark else RED_ON_LIGHT
        self.say(f"✗ {reason[:1].upper()}{reason[1:]}.", f"bold {colour}")
