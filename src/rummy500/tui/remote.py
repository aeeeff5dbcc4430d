"""An online seat in the terminal (``rummy500 play --join URL``): the table as the server
sends it, moves sent in the notation.

The screen holds no rules and no game: it shows the seat's ``state`` of the protocol
(docs/protocol.md), the last one the server sent, and every move goes to the server as
a ``move`` frame with the last ``seq`` seen. Which cards are playable, which pile
cards can be taken and which melds a card fits come from the state's ``legal`` list; a
refused move shows the server's words and changes nothing. A dropped connection is
tried again and again (the welcome that follows is the whole truth, so nothing is
missed); undo and saving are the local game's and do not apply here.

The widgets are the local table's (:mod:`.widgets`): cards reach them as card numbers
made up from the faces the server sends (copies of a card look alike).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, RichLog, Static

from ..cards import JOKER, face_of, parse_face, rank_of
from ..client import Api, Closed, ServerError, TableConnection
from ..errors import Rummy500Error
from ..melds import ACE_HIGH, DECLARED, JOKER_SET, RUN, SET, Meld, TableCard, piece_face
from ..moves import (
    Move,
    parse_move,
    parse_piece,
)
from ..narrate import YOU, cards_text, meld_text, plural, verb
from .board import Board, rank_order, status_table, suit_order, table_layout
from .keys import (
    MOVE_BINDINGS,
    MoveKeys,
    layoff_fits,
    move_prompt,
    usable_faces,
)
from .online_sheet import online_sheet
from .remote_again import AGAIN_KEY, NextGame
from .screens import RulesScreen, SheetScreen
from .widgets import (
    RED_ON_DARK,
    RED_ON_LIGHT,
    FlowBar,
    Item,
    MeldItem,
    MeldList,
    card_label,
)
from .words import side_label

if TYPE_CHECKING:
    from ..commands.play_join import Joined

UNAUTHORIZED = 4401
RETRY_FIRST = 0.5
RETRY_MOST = 5.0


# -- the state's cards as card numbers ------------------------------------------------------


def numbered(faces: Sequence[int]) -> list[int]:
    """A card number for each face, copies told apart (``face_of`` gives the face back)."""
    seen: dict[int, int] = {}
    cards = []
    for face in faces:
        copy = seen.get(face, 0)
        seen[face] = copy + 1
        if face == JOKER:
            cards.append(JOKER + 16 * (copy % 4) + 64 * (copy // 4))
        else:
            cards.append(face + 64 * copy)
    return cards


def faces_of(texts: Sequence[str]) -> list[int]:
    return [parse_face(text) for text in texts]


def meld_of(entry: dict[str, Any]) -> Meld:
    """A meld of the state (``{"id": "m2", "cards": ["*=6h", ...], "by": [...]}``) as the
    table widgets draw it; its cards come in the meld's order."""
    pieces = [parse_piece(text) for text in entry["cards"]]
    faces = [piece_face(piece) for piece in pieces]
    jokers = 0
    cards = []
    for piece, face, seat in zip(pieces, faces, entry["by"], strict=True):
        if piece >= DECLARED or piece == JOKER:
            card = JOKER + 16 * (jokers % 4) + 64 * (jokers // 4)
            jokers += 1
        else:
            card = face
        cards.append(TableCard(card, face, int(seat), 0))
    naturals = [face for face in faces if face != JOKER]
    number = int(str(entry["id"]).lstrip("m"))
    bits = 0
    for face in faces:
        bits |= 1 << face
    if not naturals:
        return Meld(number, JOKER_SET, -1, 0, 0, 0, bits, tuple(cards), 0)
    ranks = {rank_of(face) for face in naturals}
    if len(ranks) == 1 and len(faces) <= 4 and len(set(faces)) == len(faces) and (
            len({face >> 4 for face in naturals}) == len(naturals)):
        return Meld(number, SET, -1, ranks.pop(), 0, 0, bits, tuple(cards), 0)
    high = ACE_HIGH if rank_of(faces[-1]) == 1 and len(faces) > 1 else rank_of(faces[-1])
    return Meld(number, RUN, faces[0] >> 4, rank_of(faces[0]), rank_of(faces[0]), high, bits,
                tuple(cards), 0)


def legal_moves(state: dict[str, Any]) -> list[Move]:
    moves = []
    for text in state.get("legal") or []:
        try:
            moves.append(parse_move(text))
        except Rummy500Error:
            continue
    return moves


# -- the screen -----------------------------------------------------------------------------------


class RemoteTableScreen(NextGame, MoveKeys, Screen[None]):
    """One seat at an online table."""

    DEFAULT_CSS = Board.DEFAULT_CSS.replace("Board {", "RemoteTableScreen {")

    BINDINGS: ClassVar[list[BindingType]] = [
        *MOVE_BINDINGS,
        Binding("s", "sort", "Sort"),
        Binding("u", "explain_undo", show=False),
        Binding("question_mark", "rules", "Rules"),
        Binding("colon,slash", "type", "Type a move", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("q", "quit_table", "Leave"),
        Binding(AGAIN_KEY, "play_again", "Play again"),
    ]

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

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from table_layout()

    def on_mount(self) -> None:
        self.query_one("#log", RichLog).border_title = "Log"
        self.query_one("#melds", MeldList).border_title = "Table"
        self.query_one("#table").can_focus = False
        self.hand.focus()
        self.log_line(f"Table {self.joined.url}, seat {self.joined.seat}.")
        self.update_table()
        self.run_worker(self.keep_connected(), group="socket", exclusive=True)

    # -- the connection ---------------------------------------------------------------------------

    async def keep_connected(self) -> None:
        """Connect, read every frame, and connect again whenever the connection drops."""
        from websockets.exceptions import WebSocketException

        joined = self.joined
        wait = RETRY_FIRST
        while not self.fatal:
            try:
                self.connection = await TableConnection.open(joined.base, joined.table,
                                                             joined.token, open_timeout=10)
            except Closed as closed:
                self.dropped(closed.code)
            except (OSError, TimeoutError, WebSocketException) as error:
                self.dropped(None, str(getattr(error, "strerror", None) or error))
            else:
                wait = RETRY_FIRST
                self.welcomed()
                try:
                    while True:
                        self.received(await self.connection.next())
                except Closed as closed:
                    self.dropped(closed.code)
                except (OSError, WebSocketException) as error:
                    self.dropped(None, str(error))
                finally:
                    connection, self.connection = self.connection, None
                    if connection is not None:  # also when the app closes (a cancel)
                        with contextlib.suppress(Exception):
                            await connection.close()
            if self.fatal:
                break
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MOST)

    def dropped(self, code: int | None, why: str = "") -> None:
        if code == UNAUTHORIZED:
            self.fatal = True
            if isinstance(self.app, RemoteApp):
                self.app.unknown_seat = True
            self.status = "refused"
            self.refuse("the server does not know this seat any more (its table or token is "
                        "gone)")
        else:
            self.status = "reconnecting…"
            if self.pending is not None:
                self.pending = None
                self.say("The connection dropped before your move was answered: the table "
                         "shows whether it was made.", "italic")
        self.log_line("Connection lost" + (f" ({why})" if why else "")
                      + ("." if self.fatal else "; reconnecting…"))
        self.update_table()

    def welcomed(self) -> None:
        assert self.connection is not None
        first = self.seq < 0
        self.status = ""
        self.take_state(self.connection.state, self.connection.seq)
        if first:
            history = self.state.get("history") or []
            if history:
                self.log_line(f"This deal so far: {', '.join(history)}.")
        else:
            self.log_line(f"Connected again at change {self.seq}.")
        self.update_table()

    def received(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        connection = self.connection
        if kind in ("welcome", "update") and connection is not None:
            self.take_state(connection.state, connection.seq)
            event = frame.get("event")
            if isinstance(event, dict):
                self.log_event(event)
        elif kind == "seats" and connection is not None:
            self.state = connection.state
        elif kind == "next" and connection is not None:
            self.state = connection.state
            self.tell_next()
        elif kind == "ack" and frame.get("id") == self.pending:
            self.pending = None
            if self.pending_typed:
                self.query_one("#command", Input).value = ""
                self.hand.focus()
        elif kind == "refused" and frame.get("id") == self.pending:
            self.pending = None
            self.refuse(str(frame.get("message") or frame.get("code")))
            if self.pending_typed:
                self.query_one("#command", Input).select_all()
        elif kind == "error":
            self.pending = None
            self.refuse(str(frame.get("message") or frame.get("code")))
        self.update_table()

    def take_state(self, state: dict[str, Any], seq: int) -> None:
        before = self.state
        self.state = state
        self.seq = seq
        if state.get("hand") != before.get("hand"):
            self.selected.clear()
        deals = state.get("deals") or []
        first = self._deals_logged < 0
        if first:
            self._deals_logged = len(deals)
        self.tell_next()
        for number in range(self._deals_logged, len(deals)):
            self.log_line(self.sheet_line(number + 1, deals[number]))
        if deals and (len(deals) > self._deals_logged or (first and state.get("over"))):
            # The finished deal's table is in whichever state still shows that deal.
            ended = state if state.get("deal") == len(deals) else before
            self.show_sheet(len(deals) - 1, ended if ended.get("deal") == len(deals) else {})
        self._deals_logged = len(deals)

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

    async def send(self, text: str, typed: bool = False) -> None:
        connection = self.connection
        if connection is None:
            self.refuse("not connected to the server: wait for the connection to come back")
            return
        ident = f"t{next(self._ids)}"
        self.pending = ident
        self.pending_typed = typed
        self.note = None
        self.update_table()
        try:
            await connection.send({"type": "move", "id": ident, "seq": self.seq, "move": text})
        except Exception as error:  # the reader sees the drop and reconnects
            self.pending = None
            self.refuse(f"the move was not sent: {error}")

    # -- names and words --------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        seats = self.state.get("seats") or []
        names = []
        for index in range(self.joined.players):
            entry = seats[index] if index < len(seats) else {}
            names.append(YOU if index == self.joined.seat else
                         str(entry.get("name") or f"Seat {index}"))
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

    # -- making moves -----------------------------------------------------------------------------

    def act(self, move: Move | str, typed: bool = False) -> None:
        """Send a move; the server's answer (an ack or its refusal) comes back on the socket."""
        if self.pending is not None:
            self.refuse("wait: your last move is on its way")
            return
        if not self.legal and not typed:
            self.refuse(self.not_acting())
            return
        self.run_worker(self.send(str(move), typed), group="moves")

    def not_acting(self) -> str:
        if self.connection is None:
            return "not connected to the server: wait for the connection to come back"
        if self.state.get("over"):
            return "the game is over"
        return "it is not your move"

    def ask(self, screen: Screen[Any], answered: Callable[[Any], None]) -> None:
        """Show ``screen`` (a choice); ``answered`` hears its answer."""
        self.app.push_screen(screen, answered)

    # -- what the move keys (keys.MoveKeys) ask of this screen ------------------------------------

    def phase(self) -> str:
        return str(self.state.get("phase"))

    def wild_jokers(self) -> bool:
        return self.joined.rules.jokers == "wild"

    def pile_faces(self) -> list[int]:
        return faces_of(self.state.get("pile") or [])

    def cursor_meld(self) -> int:
        melds = self.melds.items
        return melds[self.melds.cursor].meld.number if melds else 1

    def no_claim(self) -> None:
        self.refuse("there is no rummy to call" if self.legal else self.not_acting())

    def claim_title(self) -> str:
        return "Rummy! Cards left in the pile that you can use."

    # -- other keys -------------------------------------------------------------------------------

    def action_hint(self) -> None:
        if not self.acting():
            self.refuse("hints are for your own turn")
            return
        self.say("Thinking of a hint…", "italic")
        self.run_worker(self.ask_hint(self.seq), group="hints", exclusive=True)

    async def ask_hint(self, seq: int) -> None:
        api = Api(self.joined.base, timeout=30.0)
        try:
            answer = await api.call("POST", f"/api/tables/{self.joined.table}/hint",
                                    {"token": self.joined.token})
        except ServerError as error:
            self.refuse(f"no hint: {error.message}")
            return
        except (OSError, ValueError) as error:
            self.refuse(f"no hint: {error}")
            return
        if answer.get("seq") != self.seq or seq != self.seq:
            return
        try:
            move = parse_move(str(answer.get("move")))
        except Rummy500Error:
            return
        self.show_hint(move, str(answer.get("reason", "")), self.hand_cards())

    def action_explain_undo(self) -> None:
        self.refuse("moves at an online table are not taken back")

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.joined.rules, self.joined.players))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        again = self.check_again(action)
        return again if again is not None else super().check_action(action, parameters)

    def action_quit_table(self) -> None:
        self.fatal = True
        self.app.exit()

    # -- the widgets' messages --------------------------------------------------------------------

    @on(Input.Submitted, "#command")
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.hand.focus()
            return
        self.act(text, typed=True)


class RemoteApp(App[None]):
    """``rummy500 play --join``: one seat at an online table."""

    TITLE = "rummy500"
    ENABLE_COMMAND_PALETTE = True

    def __init__(self, joined: Joined, *, light: bool = False) -> None:
        super().__init__()
        self.joined = joined
        self.light = light
        self.unknown_seat = False
        """The server closed the connection for an unknown token (its table is gone)."""

    def on_mount(self) -> None:
        if self.light:
            self.theme = "textual-light"
        self.push_screen(RemoteTableScreen(self.joined))


__all__ = ["RemoteApp", "RemoteTableScreen", "meld_of", "numbered"]
