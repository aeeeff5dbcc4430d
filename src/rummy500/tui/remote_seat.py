"""What an online seat in the terminal shows (``rummy500 play --join URL``): the state of
the protocol (docs/protocol.md) the server sent last, read back as a
:class:`~rummy500.session.seat_state.SeatState` and drawn by the board the local table
draws its own with (:mod:`.board`). The connection is :mod:`.remote_link`'s, the keys
:mod:`.remote`'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from ..cards import parse_face
from ..errors import Rummy500Error
from ..moves import parse_piece
from ..net.client import TableConnection
from ..rules import Rules
from ..session.seat_state import HistoryEntry, SeatState, StateFormatError
from .board import Board, status_table, whose_turn
from .remote_again import NextGame
from .remote_pacing import OnlineSheet, TurnClock
from .remote_talk import Talk
from .screens import SheetScreen
from .tokens import Joined
from .widgets import face_label

STANDIN = "Your stand-in"
"""How the seat's history begins a move the stand-in made for it (session/table_words.py)."""


def _cards(texts: Iterable[str], where: str, *, pieces: bool = False) -> None:
    for text in texts:
        try:
            parse_piece(text) if pieces else parse_face(text)
        except Rummy500Error:
            raise StateFormatError(f"{where}: {text!r:.20} is not a card") from None


def _seat(value: int | None, players: int, where: str) -> None:
    if value is not None and not 0 <= value < players:
        raise StateFormatError(f"{where}: there is no seat {value} at a table of {players}")


def _count(values: Sequence[Any], wanted: int, where: str) -> None:
    if len(values) != wanted:
        raise StateFormatError(f"{where}: {len(values)} entries for {wanted}")


def read_state(data: Mapping[str, Any], rules: Rules, players: int) -> SeatState:
    """The server's ``state`` as a :class:`SeatState` this seat can draw: its shape
    (:meth:`SeatState.from_json`), and every card, seat and count in it, checked against
    the table's ``rules`` and ``players``; :class:`StateFormatError` says what is wrong."""
    state = SeatState.from_json(data)
    if state.players != players:
        raise StateFormatError(f"the state is of {state.players} players, the table of {players}")
    public = state.public
    sides = rules.sides(players)
    counted: tuple[tuple[Sequence[object], int, str], ...] = (
        (public.hand_sizes, players, "hand_sizes"),
        (public.credit, players, "credit"), (public.totals, sides, "totals"),
        (state.seats, players, "seats"))
    for values, wanted, where in counted:
        _count(values, wanted, where)
    for index, info in enumerate(state.seats):
        if info.seat != index:
            raise StateFormatError(f"seats: entry {index} is of seat {info.seat}")
    for value, where in ((state.seat, "seat"), (state.turn, "turn"), (state.dealer, "dealer")):
        _seat(value, players, where)
    _cards(state.hand or (), "hand")
    _cards(public.pile, "pile")
    _cards([public.must_use] if public.must_use else [], "must_use")
    for meld in public.melds:
        _cards(meld.cards, f"meld {meld.id}", pieces=True)
        _count(meld.by, len(meld.cards), f"meld {meld.id}")
        for seat in meld.by:
            _seat(seat, players, f"meld {meld.id}")
        if not meld.id.removeprefix("m").isdigit():
            raise StateFormatError(f"a meld's id should be m1, m2, …, not {meld.id!r:.20}")
    for sheet in state.deals:
        where = f"deal {sheet.deal}'s sheet"
        _count(sheet.scores, sides, where)
        _count(sheet.sides, sides, where)
        _count(sheet.totals_after, sides, where)
        _count(sheet.hands, players, where)
        for hand in sheet.hands:
            _cards(hand, where)
        for line in sheet.lines:
            _seat(line.seat, players, where)
            if not 0 <= line.side < sides:
                raise StateFormatError(f"{where}: there is no side {line.side}")
    return state


class SeatScreen(TurnClock, Talk, NextGame, Board):
    """One seat at an online table, as drawn from the last state the server sent."""

    TITLE_TEXT = "500 Rum online"

    def __init__(self, joined: Joined) -> None:
        super().__init__()
        self.joined = joined
        self.seq = -1
        self.connection: TableConnection | None = None
        self.status = "connecting…"
        """How the connection stands, when it is not simply open."""
        self.fatal = False
        """The server will not take this seat's token any more: no more tries."""
        self.pending: str | None = None
        """The id of the move sent and not yet answered."""
        self.pending_typed = False
        self.aside: set[str] = set()
        """The ids of the lines and ``continue`` sent and not refused (so far)."""
        self.refusals: list[str] = []
        """Every refusal shown (its words), oldest first."""
        self.seen: dict[int, tuple[HistoryEntry, ...]] = {}
        """The history of each deal (by number) as this seat last saw it."""
        self._ids = itertools.count(1)
        self._sheets_shown = -1

    # -- what the board asks of this screen -------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.joined.rules

    def acting(self) -> bool:
        return (self.state is not None and self.state.my_turn and self.connection is not None
                and self.pending is None)

    def offers_moves(self) -> bool:
        return self.acting()

    def busy(self) -> str | None:
        return self.status or None

    def waiting(self) -> str | None:
        if self.fatal:
            return "This seat cannot be played any more."
        if self.connection is None and self.state is not None:
            return "Not connected to the server: moves wait until it answers again."
        if self.state is not None and not self.state.over and self.pending is not None:
            return "Sent; waiting for the server…"
        if not self.acting():
            return self.waits_words()
        return None

    def status_line(self) -> Table:
        state = self.state
        right = self.busy() or (whose_turn(state, self.names()) + self.clock_words()
                                if state is not None else "")
        return status_table(self.TITLE_TEXT, self.rules, state.deal if state else 0,
                            state.stock if state else 0, right, self.acting())

    def deal_histories(self) -> Mapping[int, Sequence[HistoryEntry]]:
        return self.seen

    def binding_keys(self) -> tuple[object, ...]:
        return (self.again_open(),)

    def log_line(self, line: str) -> None:
        self.notice(line)

    def refuse(self, reason: str) -> None:
        self.refusals.append(reason)
        super().refuse(reason)

    # -- the server's state -----------------------------------------------------------------------

    def take_state(self, data: Mapping[str, Any], seq: int) -> None:
        """The state the server sent at change ``seq``: drawn, its deal's history kept, and
        the sheet of a deal that has just ended shown over the table."""
        try:
            state = read_state(data, self.joined.rules, self.joined.players)
        except StateFormatError as error:
            self.refuse(f"the server sent a table this seat cannot read: {error}")
            return
        before = self.state
        self.state = state
        self.seq = seq
        self.clock_passed(before, self.pending is not None)
        if before is None or state.hand != before.hand:
            self.selected.clear()
        if state.deal:
            self.seen[state.deal] = state.history
        sheets = len(state.deals)
        first = self._sheets_shown < 0
        if sheets and (sheets > self._sheets_shown >= 0 or (first and state.over)):
            self.show_sheet(sheets - 1)
        self._sheets_shown = sheets
        self.tell_drawn(before, state)
        self.sync_log()  # the lines below come after this state's moves and sheet
        self.tell_next()
        self.show_waits()

    def tell_drawn(self, before: SeatState | None, state: SeatState) -> None:
        """Say which card this seat has just drawn from the stock, as the local table does."""
        if before is None or before.deal != state.deal or not state.history:
            return
        last = state.history[-1]
        if (len(state.history) > len(before.history) and last.seat == state.seat
                and last.move == "draw" and last.drawn):
            # The stand-in's draw (the clock ran out) is not the person's: say whose it was.
            who = STANDIN if last.text.startswith(STANDIN) else "You"
            self.note = Text(f"{who} drew {face_label(parse_face(last.drawn))}.")

    def sheet_answered(self, deal: int, choice: str | None) -> None:
        self.sheet_closed(deal)
        if choice == "quit":
            self.leave()

    def leave(self) -> None:
        """The person asked to leave the table (q)."""

    def show_sheet(self, index: int) -> None:
        """The score sheet of deal ``index`` over the table (a newer one replaces it)."""
        if not self.is_attached or self.state is None:
            return
        if isinstance(self.app.screen, SheetScreen):
            self.app.pop_screen()
        sheet = self.state.deals[index]
        shown = OnlineSheet(sheet, self.names())
        self.app.push_screen(shown, lambda choice: self.sheet_answered(sheet.deal, choice))
        self.show_waits()


__all__ = ["SeatScreen", "read_state"]
