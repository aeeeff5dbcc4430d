"""An online seat in the terminal (``rummy500 play --join URL``): the table as the server
sends it, moves sent in the notation.

The screen holds no rules and no game: it shows the seat's ``state`` of the protocol
(docs/protocol.md), the last one the server sent, read as a
:class:`~rummy500.session.seat_state.SeatState` and drawn by the board of the local table
(:mod:`.board`); every move goes to the server as
a ``move`` frame with the last ``seq`` seen. Which cards are playable, which pile
cards can be taken and which melds a card fits come from the state's ``legal`` list; a
refused move shows the server's words and changes nothing. A dropped connection is
tried again and again (the welcome that follows is the whole truth, so nothing is
missed). The pace (turn clock, deal pause) is :mod:`.remote_pacing`'s, talk
:mod:`.remote_talk`'s, ``q`` (step away or leave for good) :mod:`.remote_leave`'s; ``u``
takes back a move when the server offers it (``can_undo``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input

from ..errors import Rummy500Error
from ..moves import Move, parse_move
from ..net.client import Api, ServerError
from .keys import MOVE_BINDINGS
from .prefs import hand_by_rank, keep_hand_order
from .remote_again import AGAIN_KEY
from .remote_leave import Leaving
from .remote_link import LinkedSeatScreen
from .remote_talk import TALK_KEY
from .screens import MOVE_KEY_HELP, NOTATION_HELP, RulesScreen
from .terminal import TerminalApp
from .tokens import Joined

ONLINE_KEY_HELP = (
    f"{MOVE_KEY_HELP} · {TALK_KEY} talk at the table · {AGAIN_KEY} play again (once the game "
    "is over) · q leave: while the game is on it asks whether to step away (your seat stays "
    "yours and --join takes it again) or leave the table for good (a computer player takes "
    "your seat); once the game is over q just closes.\n" + NOTATION_HELP)
"""The keys of an online seat, as its rules screen (?) lists them."""


class RemoteTableScreen(Leaving, LinkedSeatScreen):
    """One seat at an online table: the keys and the moves they make."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *MOVE_BINDINGS,
        Binding("s", "sort", "Sort"),
        Binding("u", "undo", "Undo", show=False),
        Binding(TALK_KEY, "talk", "Talk"),
        Binding("question_mark", "rules", "Rules"),
        Binding("colon,slash", "type", "Type a move", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("q", "quit_table", "Leave"),
        Binding(AGAIN_KEY, "play_again", "Play again"),
    ]

    # -- layout -----------------------------------------------------------------------------------

    def on_mount(self) -> None:  # after it, Textual calls the board's own on_mount
        self.by_rank = hand_by_rank(self.joined.directory)
        self.log_line(f"Table {self.joined.url}, seat {self.joined.seat}.")
        if self.joined.said:
            self.log_line(self.joined.said)
        self.update_table()
        self.run_worker(self.keep_connected(), group="socket", exclusive=True)
        self.set_interval(1.0, self.tick)

    def seat_unknown(self) -> None:
        if isinstance(self.app, RemoteApp):
            self.app.unknown_seat = True

    def left_for_good(self) -> None:
        if isinstance(self.app, RemoteApp):
            self.app.left_for_good = True

    # -- making moves -----------------------------------------------------------------------------

    def act(self, move: Move | str, typed: bool = False) -> None:
        """Send a move; the server's answer (an ack or its refusal) comes back on the socket."""
        if self.pending is not None:
            self.refuse("wait: your last move is on its way")
            return
        if not self.acting() and not typed:
            self.refuse(self.not_acting())
            return
        self.run_worker(self.send(str(move), typed), group="moves")

    def not_acting(self) -> str:
        if self.connection is None:
            return "not connected to the server: wait for the connection to come back"
        if self.state is not None and self.state.over:
            return "the game is over"
        return "it is not your move"

    def ask(self, screen: Screen[Any], answered: Callable[[Any], None]) -> None:
        """Show ``screen`` (a choice); ``answered`` hears its answer."""
        self.app.push_screen(screen, answered)

    # -- what the move keys (keys.MoveKeys) ask of this screen ------------------------------------

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
        self.show_hint(move, str(answer.get("reason", "")))

    def action_undo(self) -> None:
        """Take back this seat's last move, when the server offers it (``can_undo``)."""
        state = self.state
        if self.connection is None or state is None:
            self.refuse(self.not_acting())
        elif self.pending is not None:
            self.refuse("wait: your last move is on its way")
        elif state.can_undo:
            self.run_worker(self.send_frame({"type": "undo"}), group="moves")
        elif any(info.kind == "person" and info.seat != state.seat for info in state.seats):
            self.refuse("moves are not taken back at a table with other people")
        else:
            self.refuse("your last move is not taken back: undo takes back only your own "
                        "moves of this deal, never a draw from the stock nor past a card a "
                        "computer player has shown")

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.joined.rules, self.joined.players,
                                         ONLINE_KEY_HELP))

    def action_sort(self) -> None:
        super().action_sort()
        keep_hand_order(self.joined.directory, self.by_rank)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        again = self.check_again(action)
        return again if again is not None else super().check_action(action, parameters)

    # -- the widgets' messages --------------------------------------------------------------------

    @on(Input.Submitted, "#command")
    def typed(self, event: Input.Submitted) -> None:
        text = self.typed_move(event)
        if text is not None:
            self.act(text, typed=True)


class RemoteApp(TerminalApp[None]):
    """``rummy500 play --join``: one seat at an online table."""

    def __init__(self, joined: Joined, *, light: bool = False) -> None:
        super().__init__(light=light)
        self.joined = joined
        self.unknown_seat = False
        """The server closed the connection for an unknown token (its table is gone)."""
        self.left_for_good = False
        """The person left the table for good: a computer player plays the seat."""

    def on_mount(self) -> None:
        self.choose_theme()
        self.push_screen(RemoteTableScreen(self.joined))


__all__ = ["ONLINE_KEY_HELP", "RemoteApp", "RemoteTableScreen"]
