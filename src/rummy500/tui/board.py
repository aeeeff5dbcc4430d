"""What a table shows, local or online: one seat's :class:`~rummy500.session.seat_state.SeatState`
drawn on one screen: the status line, the players, the pile, the melds, the hand, the log
and a message. The local table (:mod:`.table`) gets the state from its session, the online
seat (:mod:`.remote_seat`) from the server; both draw it here, alike.

Nothing here decides what is legal, and nothing adds up a score: cards are marked playable
from the state's legal moves, and every figure is the state's.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer, Input, RichLog, Static

from ..bots import strength
from ..cards import JOKER, parse_face
from ..errors import Rummy500Error
from ..moves import Move, parse_move
from ..narrate import plural
from ..rules import Rules
from ..session.seat_state import HistoryEntry, SeatState
from ..session.settings import bot_title
from ..session.sheets import reader_names
from ..session.state import WAITING
from ..session.words import side_label, table_log
from .fitted import FittedParts
from .keys import MoveKeys, layoff_fits, move_prompt, usable_faces
from .screens import SheetScreen
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
    meld_number,
    meld_words,
    number_text,
)

HandKey = tuple[int, int]
"""A card of the hand: its face, and which copy of that face it is (0, 1, …)."""


def suit_order(face: int) -> tuple[int, int, int]:
    return (face == JOKER, face >> 4, face & 15)


def rank_order(face: int) -> tuple[int, int, int]:
    return (face == JOKER, face & 15, face >> 4)


def hand_keys(hand: Sequence[str], by_rank: bool) -> list[HandKey]:
    """The hand's cards in the order shown, each told apart from its copies."""
    faces = sorted((parse_face(card) for card in hand),
                   key=rank_order if by_rank else suit_order)
    keys: list[HandKey] = []
    for face in faces:
        keys.append((face, sum(1 for shown, _ in keys if shown == face)))
    return keys


def legal_moves(state: SeatState | None) -> list[Move]:
    """The state's legal moves as moves (none when it is not the seat's move)."""
    moves = []
    for text in (state.legal or ()) if state is not None else ():
        try:
            moves.append(parse_move(text))
        except Rummy500Error:
            continue
    return moves


def shown_names(state: SeatState) -> list[str]:
    """The seats' names as the state's reader reads them: its own is "You"."""
    return reader_names(state.names, state.seat)


def status_table(title: str, rules: Rules, deal: int, stock: int, right: str,
                 acting: bool) -> Table:
    """The status line of a table: the game on the left, ``right`` (whose turn it is) on the
    right, reversed while the person at the screen is to act; laid out at any width."""
    changed = len(rules.overrides())
    preset = rules.preset + (f" (+{plural(changed, 'option')})" if changed else "")
    parts = [title, preset]
    if deal:  # nothing is dealt while a table waits for its players
        deal_text = f"deal {deal}"
        if rules.max_deals is not None:
            deal_text += f" of {rules.max_deals}"
        parts += [deal_text, f"stock {stock}"]
    if rules.target_score is not None:
        parts.append(f"to {rules.target_score}")
    line = Table.grid(expand=True, padding=(0, 0, 0, 2))
    line.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    line.add_column(justify="right", no_wrap=True)
    line.add_row(FittedParts(parts, "bold"), Text(right, "bold reverse" if acting else "bold"))
    return line


def whose_turn(state: SeatState, names: Sequence[str]) -> str:
    """The right of the status line: whose turn it is, to do what."""
    if state.over:
        return "game over"
    if state.phase == WAITING or state.turn is None:
        return "waiting for players"
    doing = {"draw": "draw", "play": "play", "rummy": "call rummy or pass"}
    return f"{names[state.turn]} to {doing.get(state.phase, 'play')}"


def player_entries(state: SeatState, rules: Rules, names: Sequence[str]) -> list[Text]:
    """Each player (``names``: as the screen calls them): the turn, the name, what kind of
    player, cards held, points on the table and (or each side's) total."""
    public = state.public
    me = state.seat
    entries = []
    for info, name in zip(state.seats, names, strict=True):
        seat = info.seat
        entry = Text()
        entry.append("▶" if seat == state.turn and not state.over else " ", "bold")
        entry.append(name, "bold underline" if seat == state.turn else "bold")
        tags = []
        if info.left:
            tags.append("left the table, a computer plays")
        elif info.kind == "bot":
            bot = info.bot or "expert"
            tags.append(strength(bot) if info.name.startswith(bot_title(bot))
                        else f"{bot}, {strength(bot)}")
        elif info.open:
            tags.append("open seat")
        elif info.standin:
            tags.append("away, a computer plays")
        elif not info.connected and seat != me:
            tags.append("away")
        if (rules.partnership and me is not None and seat != me
                and rules.side_of(seat) == rules.side_of(me)):
            tags.append("your partner")
        if seat == state.dealer:
            tags.append("dealer")
        if tags:
            entry.append(f" ({', '.join(tags)})", "dim")
        entry.append(f" {plural(public.hand_sizes[seat], 'card')}, "
                     f"{public.credit[seat]} melded")
        if not rules.partnership and seat < len(public.totals):
            entry.append(f", score {number_text(public.totals[seat])}")
        entries.append(entry)
    if rules.partnership:
        for side, total in enumerate(public.totals):
            entries.append(Text(f"{side_label(rules, names, side)}: {number_text(total)}",
                                "bold"))
    return entries


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


class Board(MoveKeys, Screen[None]):
    """A table as one seat sees it, drawn from :attr:`state`. A screen built on it sets the
    state (or builds it in :meth:`refresh_state`) and says what differs (the hooks below)."""

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

    TITLE_TEXT = "500 Rum"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "cycle_focus(1)", "Next place", show=False),
        Binding("shift+tab", "cycle_focus(-1)", "Previous place", show=False),
    ]
    FOCUS_CYCLE = ("#hand", "#pile", "#melds", "#log")
    """Where Tab goes, in turn (the move box is reached with ``:``)."""

    def __init__(self) -> None:
        super().__init__()
        self.state: SeatState | None = None
        """The table as the seat at the screen knows it (None: not known yet)."""
        self.selected: set[Hashable] = set()
        """The picked cards of the hand (their :data:`HandKey`)."""
        self.by_rank = False
        self.note: Text | None = None
        """A message (a refusal, a hint) shown instead of the prompt until the next move."""
        self.legal: list[Move] = []
        """The legal moves of the person at the screen, when it is their move."""
        self.notices: list[tuple[int, str]] = []
        """Lines of this screen's own for the log (the connection's), each with the number
        of the table's lines before it."""
        self.log_lines: list[str] = []
        """What the log shows."""
        self._told = 0
        self._log_width = -1
        self._pile_length = -1
        self._keys: tuple[object, ...] = ()

    # -- what differs from screen to screen -------------------------------------------------------

    @property
    def rules(self) -> Rules:
        raise NotImplementedError

    def acting(self) -> bool:
        """The person at the screen may move now."""
        raise NotImplementedError

    def offers_moves(self) -> bool:
        """The state's legal moves are offered to the keys (an online seat offers them while
        the connection is down, so that a key says why nothing is sent)."""
        return self.acting()

    def refresh_state(self) -> None:
        """Bring :attr:`state` up to date before it is drawn (a local table builds it)."""

    def busy(self) -> str | None:
        """What the status line says instead of whose turn it is (someone thinking, the
        connection), or None."""
        return None

    def waiting(self) -> str | None:
        """What the message says instead of the prompt while the screen waits, or None."""
        return None

    def hidden_hand(self) -> str:
        """What the hand's strip says when the state has no hand."""
        return "no cards"

    def deal_histories(self) -> Mapping[int, Sequence[HistoryEntry]]:
        """The history of each deal before the one in play (by number) the reader saw."""
        return {}

    def binding_keys(self) -> tuple[object, ...]:
        """What else changes the key bar."""
        return ()

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from table_layout()

    def on_mount(self) -> None:
        self.query_one("#log", RichLog).border_title = "Log"
        self.query_one("#melds", MeldList).border_title = "Table"
        self.query_one("#table").can_focus = False
        self.query_one("#hand", Strip).focus()

    def on_resize(self, event: Resize) -> None:
        self.call_after_refresh(self._resized)

    def _resized(self) -> None:
        log = self.query_one("#log", RichLog)
        width = log.scrollable_content_region.width
        if width != self._log_width:  # written lines keep their width: wrap them again
            self._log_width = width
            log.clear()
            self.log_lines = []
        self.update_table()

    def action_cycle_focus(self, step: int) -> None:
        """Tab: the next of the hand, the pile, the melds and the log (from the move box,
        the hand)."""
        places = [self.query_one(selector) for selector in self.FOCUS_CYCLE]
        focused = self.focused
        if focused in places:
            target = places[(places.index(focused) + step) % len(places)]
        else:
            target = places[0]
        target.focus()

    # -- what is on the screen --------------------------------------------------------------------

    def names(self) -> list[str]:
        """The seats' names as the screen says them (the seat at the screen is "You")."""
        return shown_names(self.state) if self.state is not None else []

    def hand_keys(self) -> list[HandKey]:
        state = self.state
        if state is None or state.hand is None:
            return []
        return hand_keys(state.hand, self.by_rank)

    def picked(self) -> list[int]:
        """The faces of the picked cards of the hand, in the hand's order."""
        return [face for face, copy in self.hand_keys() if (face, copy) in self.selected]

    def update_table(self) -> None:
        if not self.is_attached:
            return
        self.refresh_state()
        state = self.state
        dark = self.app.current_theme.dark
        self.legal = legal_moves(state) if self.offers_moves() else []
        self.selected &= set(self.hand_keys())
        self.query_one("#status", Static).update(self.status_line(), layout=False)
        self.query_one("#players", FlowBar).show(
            player_entries(state, self.rules, self.names()) if state is not None else [])
        public = state.public if state is not None else None
        self.show_pile([parse_face(card) for card in public.pile] if public else [], dark)
        fits = layoff_fits(self.legal, self.picked())
        self.melds.show([MeldItem(meld, self.names(), meld_number(meld) in fits)
                         for meld in (public.melds if public else ())])
        self.show_hand(dark)
        self.query_one("#message", Static).update(self.message(), layout=False)
        self.sync_log()
        keys = (self.acting(), tuple(sorted({m.kind for m in self.legal})),
                *self.binding_keys())
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    def status_line(self) -> Table:
        state = self.state
        right = self.busy() or (whose_turn(state, self.names()) if state is not None else "")
        return status_table(self.TITLE_TEXT, self.rules, state.deal if state else 0,
                            state.stock if state else 0, right, self.acting())

    def show_hand(self, dark: bool) -> None:
        state = self.state
        hand = self.hand
        if state is None or state.hand is None:
            hand.show([], self.hidden_hand())
            hand.border_title = "Hand"
            return
        usable = usable_faces(self.legal)
        must = parse_face(state.must_use) if state.must_use else -1
        items = [Item(face, card_label(face, dark), face in usable or face == must,
                      (face, copy) in self.selected, (face, copy))
                 for face, copy in self.hand_keys()]
        hand.show(items, "no cards" if state.phase != WAITING else
                  "no cards yet: the game starts when every seat is taken")
        order = "by rank" if self.by_rank else "by suit"
        picked = f" · {len(self.selected)} picked" if self.selected else ""
        hand.border_title = Content(f"Your hand · {plural(len(items), 'card')} · {order}{picked}")

    def message(self) -> Text:
        return self.note if self.note is not None else Text(self.prompt())

    def prompt(self) -> str:
        state = self.state
        waiting = self.waiting()
        if waiting is not None:
            return waiting
        if state is None:
            return "Connecting to the table…"
        if state.over:
            return state.deals[-1].standing if state.deals else "The game is over."
        if state.phase == WAITING:
            return "Waiting for every seat to be taken."
        if not self.acting():
            return f"{whose_turn(state, self.names())}." if state.turn is not None else ""
        must = state.must_use
        return move_prompt(state.phase, state.stock, parse_face(must) if must else -1)

    # -- what the move keys (keys.MoveKeys) ask of every table screen ---------------------------

    def phase(self) -> str:
        return self.state.phase if self.state is not None else WAITING

    def wild_jokers(self) -> bool:
        return self.rules.jokers == "wild"

    def pile_faces(self) -> list[int]:
        return [parse_face(card) for card in self.state.pile] if self.state else []

    def cursor_meld(self) -> int:
        melds = self.melds.items
        return melds[self.melds.cursor].number if melds else 1

    def layoff_where(self, move: Move) -> str:
        melds = {item.number: item.meld for item in self.melds.items}
        meld = melds.get(move.meld)
        return f"on m{move.meld}" + (f" ({meld_words(meld)})" if meld is not None else "")

    # -- the log ----------------------------------------------------------------------------------

    def notice(self, line: str) -> None:
        """A line of this screen's own in the log, after the table's lines so far."""
        self.notices.append((self._told, line))
        self.sync_log()

    def table_lines(self) -> list[str]:
        """The table's lines of the log: each deal's history and sheet, as told to the
        reader."""
        state = self.state
        if state is None:
            return []
        return table_log(state, self.deal_histories())

    def sheet_screen(self, state: SeatState, index: int, online: bool = False) -> SheetScreen:
        """The sheet of deal ``index`` of ``state``, for this screen."""
        return SheetScreen(state.deals[index], self.names(), online=online)

    def sync_log(self) -> None:
        if not self.is_attached:
            return
        told = self.table_lines()
        self._told = len(told)
        lines: list[str] = []
        notices = iter(self.notices)
        notice = next(notices, None)
        for index, line in enumerate([*told, None]):
            while notice is not None and (notice[0] <= index or line is None):
                lines.append(notice[1])
                notice = next(notices, None)
            if line is not None:
                lines.append(line)
        log = self.query_one("#log", RichLog)
        written = self.log_lines
        if lines[:len(written)] != written:  # a move taken back, another reader
            log.clear()
            written = []
        for line in lines[len(written):]:
            log.write(Text(line))
        self.log_lines = lines

    # -- messages ---------------------------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        self.note = Text(text, style)
        if self.is_attached:
            self.query_one("#message", Static).update(self.note, layout=False)

    def refuse(self, reason: str) -> None:
        colour = RED_ON_DARK if self.app.current_theme.dark else RED_ON_LIGHT
        text = reason.rstrip(".")
        self.say(f"✗ {text[:1].upper()}{text[1:]}.", f"bold {colour}")


__all__ = ["Board", "HandKey", "hand_keys", "legal_moves", "player_entries", "rank_order",
           "shown_names", "status_table", "suit_order", "table_layout", "whose_turn"]
