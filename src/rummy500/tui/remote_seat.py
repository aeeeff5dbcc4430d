"""What an online seat in the terminal shows (``rummy500 play --join URL``): the state of
the protocol (docs/protocol.md) the server sent last, drawn with the local table's widgets,
and told in words in the log. The connection is :mod:`.remote_link`'s, the keys
:mod:`.remote`'s.
"""

from __future__ import annotations

import itertools
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.content import Content
from textual.screen import Screen
from textual.widgets import RichLog, Static

from ..cards import face_of, parse_face
from ..client import TableConnection
from ..errors import Rummy500Error
from ..moves import Move, parse_move
from ..narrate import YOU, cards_text, meld_text, plural, verb
from ..session.words import side_label
from .board import rank_order, status_table, suit_order
from .keys import MoveKeys, layoff_fits, move_prompt, usable_faces
from .online_sheet import online_sheet
from .remote_again import NextGame
from .remote_cards import faces_of, legal_moves, meld_of, numbered
from .screens import SheetScreen
from .tokens import Joined
from .widgets import RED_ON_DARK, RED_ON_LIGHT, FlowBar, Item, MeldItem, card_label


class SeatScreen(NextGame, MoveKeys, Screen[None]):
    """One seat at an online table, as drawn from the last state the server sent."""

    def __init__(self, joined: Joined) -> None:
        super().__init__()
        self.joined = joined
        self.state: dict[str, Any] = {}
        self.seq = -1
        self.connection: TableConnection | None = None
        self.status = "connecting…"
        """How the connection stands, when it is not simply open."""
        self.fatal = False
        """The server will not take this seat's token any more: no more tries."""
        self.pending: str | None = None
        """The id of the move sent and not yet answered."""
        self.pending_typed = False
        self.selected: set[int] = set()
        self.by_rank = False
        self.note: Text | None = None
        self.legal: list[Move] = []
        self.refusals: list[str] = []
        """Every refusal shown (its words), oldest first."""
        self._ids = itertools.count(1)
        self._keys: tuple[object, ...] = ()
        self._pile_length = -1
        self._deals_logged = -1

    def show_sheet(self, index: int, ended: dict[str, Any]) -> None:
        """The score sheet of deal ``index`` over the table (a newer one replaces it)."""
        if not self.is_attached:
            return
        names = self.names
        table = [f"{entry['id']} {meld_text(meld_of(entry))} ("
                 + ", ".join(dict.fromkeys(names[int(seat)] for seat in entry["by"])) + ")"
                 for entry in ended.get("melds") or []]
        if ended:
            table.append("pile: " + (cards_text(numbered(faces_of(ended.get("pile") or [])))
                                     or "empty"))
        sheet = online_sheet(self.joined.rules, names, self.state, index, table)
        if isinstance(self.app.screen, SheetScreen):
            self.app.pop_screen()
        self.app.push_screen(SheetScreen(sheet, online=True))

    # -- names and words --------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        seats = self.state.get("seats") or []
        names = []
        for index in range(self.joined.players):
            entry = seats[index] if index < len(seats) else {}
            names.append(YOU if index == self.joined.seat else
                         str(entry.get("name") or f"Seat {index + 1}"))
        return names

    def log_line(self, line: str) -> None:
        if self.is_attached:
            self.query_one("#log", RichLog).write(Text(line))

    def log_event(self, event: dict[str, Any]) -> None:
        names = self.names
        if "deal" in event:
            dealer = event.get("dealer")
            who = names[dealer] if isinstance(dealer, int) and dealer < len(names) else "?"
            self.log_line(f"Deal {event['deal']}: {who} {verb(who, 'deals')}.")
            return
        seat = event.get("seat")
        text = str(event.get("move", ""))
        who = names[seat] if isinstance(seat, int) and seat < len(names) else "?"
        try:
            said = verb(who, parse_move(text).describe())
        except Rummy500Error:
            said = text
        self.log_line(f"{who} {said}.")
        if self.state.get("over"):
            self.log_line(self.outcome())

    def sheet_line(self, number: int, sheet: dict[str, Any]) -> str:
        names = self.names
        out = sheet.get("went_out")
        ending = (f"{names[out]} went out" if isinstance(out, int) and out < len(names)
                  else "nobody went out")
        scores = ", ".join(f"{side_label(self.joined.rules, names, side)} {score:+d}"
                           for side, score in enumerate(sheet.get("scores") or []))
        return f"Deal {number} is over: {ending}. Scores: {scores}."

    def outcome(self) -> str:
        winner = self.state.get("winner")
        totals = self.state.get("totals") or []
        names = self.names
        standing = ", ".join(f"{side_label(self.joined.rules, names, side)} {total}"
                             for side, total in enumerate(totals))
        if winner is None:
            return f"The game is over: a tie. {standing}."
        who = side_label(self.joined.rules, names, int(winner))
        return f"The game is over: {who} {verb(who, 'wins')}. {standing}."

    # -- what is on the screen --------------------------------------------------------------------

    def acting(self) -> bool:
        return bool(self.legal) and self.connection is not None and self.pending is None

    def hand_cards(self) -> list[int]:
        cards = numbered(faces_of(self.state.get("hand") or []))
        return sorted(cards, key=rank_order if self.by_rank else suit_order)

    def picked(self) -> list[int]:
        return [card for card in self.hand_cards() if card in self.selected]

    def update_table(self) -> None:
        if not self.is_attached:
            return
        state = self.state
        dark = self.app.current_theme.dark
        self.legal = legal_moves(state) if self.pending is None else []
        self.selected &= set(self.hand_cards())
        self.query_one("#status", Static).update(self.status_line(), layout=False)
        self.query_one("#players", FlowBar).show(self.player_entries())
        self.show_pile(numbered(faces_of(self.state.get("pile") or [])), dark)
        fits = layoff_fits(self.legal, self.picked())
        melds = [meld_of(entry) for entry in state.get("melds") or []]
        self.melds.show([MeldItem(meld, self.names, meld.number in fits) for meld in melds])
        self.show_hand(dark)
        message = self.note if self.note is not None else Text(self.prompt())
        self.query_one("#message", Static).update(message, layout=False)
        keys = (self.acting(), tuple(sorted({m.kind for m in self.legal})), self.again_open())
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    def status_line(self) -> Table:
        state = self.state
        turn = state.get("turn")
        if self.status:
            right = self.status
        elif state.get("over"):
            right = "game over"
        elif state.get("phase") == "waiting" or not isinstance(turn, int):
            right = "waiting for players"
        else:
            who = self.names[turn]
            doing = {"draw": "draw", "play": "play", "rummy": "call rummy or pass"}
            right = f"{who} to {doing.get(str(state.get('phase')), 'play')}"
        return status_table("500 Rum online", self.joined.rules, int(state.get("deal", 0)),
                            int(state.get("stock", 0)), right, self.acting())

    def player_entries(self) -> list[Text]:
        state = self.state
        rules = self.joined.rules
        names = self.names
        seats = state.get("seats") or []
        sizes = state.get("hand_sizes") or [0] * len(names)
        credit = state.get("credit") or [0] * len(names)
        totals = state.get("totals") or []
        turn = state.get("turn")
        me = self.joined.seat
        entries = []
        for seat, name in enumerate(names):
            entry_of = seats[seat] if seat < len(seats) else {}
            entry = Text()
            entry.append("▶" if seat == turn and not state.get("over") else " ", "bold")
            entry.append(name, "bold underline" if seat == turn else "bold")
            tags = []
            if entry_of.get("kind") == "bot":
                tags.append(f"computer, {entry_of.get('bot', 'expert')}")
            elif entry_of.get("open"):
                tags.append("open seat")
            elif entry_of.get("standin"):
                tags.append("away, a computer plays")
            elif not entry_of.get("connected", True) and seat != me:
                tags.append("away")
            if rules.partnership and seat != me and rules.side_of(seat) == rules.side_of(me):
                tags.append("your partner")
            if seat == state.get("dealer"):
                tags.append("dealer")
            if tags:
                entry.append(f" ({', '.join(tags)})", "dim")
            entry.append(f" {plural(int(sizes[seat]), 'card')}, table {credit[seat]}")
            if not rules.partnership and seat < len(totals):
                entry.append(f", score {totals[seat]}")
            entries.append(entry)
        if rules.partnership:
            for side, total in enumerate(totals):
                entries.append(Text(f"{side_label(rules, names, side)}: {total}", "bold"))
        return entries

    def show_hand(self, dark: bool) -> None:
        usable = usable_faces(self.legal)
        must_text = self.state.get("must_use")
        must = parse_face(must_text) if isinstance(must_text, str) else -1
        cards = self.hand_cards()
        items = [Item(card, card_label(card, dark),
                      face_of(card) in usable or face_of(card) == must, card in self.selected)
                 for card in cards]
        self.hand.show(items, "no cards" if self.state.get("phase") != "waiting"
                       else "no cards yet: the game starts when every seat is taken")
        order = "by rank" if self.by_rank else "by suit"
        picked = f" · {len(self.selected)} picked" if self.selected else ""
        self.hand.border_title = Content(
            f"Your hand · {plural(len(items), 'card')} · {order}{picked}")

    def prompt(self) -> str:
        state = self.state
        if self.fatal:
            return "This seat cannot be played any more."
        if not state:
            return "Connecting to the table…"
        if state.get("over"):
            return self.outcome()
        if self.pending is not None:
            return "Sent; waiting for the server…"
        if state.get("phase") == "waiting":
            return "Waiting for every seat to be taken."
        turn = state.get("turn")
        if not self.legal:
            return f"{self.names[turn]} to play." if isinstance(turn, int) else ""
        must = state.get("must_use")
        return move_prompt(str(state.get("phase")), int(state.get("stock") or 0),
                           parse_face(must) if isinstance(must, str) else -1)

    def say(self, text: str, style: str = "") -> None:
        self.note = Text(text, style)
        if self.is_attached:
            self.query_one("#message", Static).update(self.note, layout=False)

    def refuse(self, reason: str) -> None:
        self.refusals.append(reason)
        colour = RED_ON_DARK if self.app.current_theme.dark else RED_ON_LIGHT
        text = reason.rstrip(".")
        self.say(f"✗ {text[:1].upper()}{text[1:]}.", f"bold {colour}")


__all__ = ["SeatScreen"]
