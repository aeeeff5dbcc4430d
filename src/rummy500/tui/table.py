"""The table in play: the flow of the game (computer players' turns, score sheets, the
hot-seat cover) and every way of making a move (keys, clicks, or a move typed in the
notation).

The screen holds no rules: every move goes to the session, and a refused move shows
the engine's reason and changes nothing. What it shows is the session's
:class:`~rummy500.session.seat_state.SeatState` for the seat at the screen, drawn by the
board every table shares (:mod:`.board`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.events import ScreenResume
from textual.screen import Screen
from textual.widgets import Input

from ..bots import Decision
from ..cards import parse_face
from ..legal import PLAY_PHASE, RUMMY_PHASE
from ..moves import (
    MELD,
    RUMMY_MELD,
    Move,
)
from ..narrate import verb
from ..rules import Rules
from ..session.session import BotTurn, Made, SessionError, TableSession
from ..session.words import table_log
from .board import Board
from .confirm import ConfirmScreen
from .keys import MOVE_BINDINGS, describe_claim, piece_shows, piece_words
from .prefs import hand_by_rank, keep_hand_order
from .screens import CoverScreen, RulesScreen
from .told import taken_back
from .widgets import face_label


class TableScreen(Board):
    """A game in play."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *MOVE_BINDINGS,
        Binding("u", "undo", "Undo"),
        Binding("u", "explain_undo", show=False),
        Binding("s", "sort", "Sort"),
        Binding("question_mark", "rules", "Rules"),
        Binding("colon,slash", "type", "Type a move", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("a", "play_again", "Play again"),
        Binding("n", "new_game", "New game", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: TableSession, delay: float = 0.6) -> None:
        """The table of ``session``; computer players move ``delay`` seconds after deciding."""
        super().__init__()
        self.session = session
        people = session.people
        self.viewer: int | None = people[0] if len(people) == 1 else None
        """The seat whose hand is on the screen (None: hidden, or nobody's)."""
        self.thinking = False
        """A computer player is deciding."""
        self.delay = delay
        self.sheets: list[int] = []
        """Deals whose score sheet is still to show."""
        self.asking = False
        """A screen of this table's (a cover, a choice, a score sheet) waits for an answer."""
        self._asked = -1
        self.by_rank = hand_by_rank(self.save_folder())

    def save_folder(self) -> Path | None:
        store = self.session.store
        return store.directory if store is not None else None

    def action_sort(self) -> None:
        super().action_sort()
        keep_hand_order(self.save_folder(), self.by_rank)

    # -- what the board asks of this screen -------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.session.rules

    def acting(self) -> bool:
        """The person whose hand is shown is the one the game waits for."""
        session = self.session
        return (not self.thinking and session.person_to_move and self.viewer is not None
                and self.viewer == session.to_move)

    def refresh_state(self) -> None:
        self.state = self.session.state(self.viewer)

    def reader(self) -> int | None:
        """Whose words the log and the sheets are: the seat at the screen; nobody's when
        people share the screen (what one is told of their own draws is not for all)."""
        return None if self.session.hot_seat else self.viewer

    def names(self) -> list[str]:
        if self.session.hot_seat:
            return list(self.session.names)
        return super().names()

    def table_lines(self) -> list[str]:
        reader = self.reader()
        state = self.state if reader == self.viewer else None
        return table_log(state or self.session.state(reader), self.session.histories(reader))

    def busy(self) -> str | None:
        if not self.thinking or self.session.finished:
            return None
        who = self.names()[self.session.game.turn]
        return f"{who} {verb(who, 'is')} thinking…"

    def waiting(self) -> str | None:
        return "" if self.thinking and not self.session.finished else None

    def hidden_hand(self) -> str:
        if self.session.people:
            return "hidden until the next player is ready"
        return "nobody at this table is a person: the computer players play"

    def binding_keys(self) -> tuple[object, ...]:
        return (self.session.undo_refusal() is None, self.session.finished)

    def message(self) -> Text:
        message = super().message()
        problem = self.session.save_problem
        if problem is not None:  # said until a save succeeds again
            return Text.assemble((f"⚠ {problem[:1].upper()}{problem[1:]}.", "bold"), " ",
                                 message)
        return message

    def prompt(self) -> str:
        if self.session.finished:
            return f"{super().prompt()} — a: play again · n: a new set-up · q: quit"
        return super().prompt()

    # -- the flow of the game ---------------------------------------------------------------------

    def advance(self) -> None:
        """What comes next: a deal's score sheet, the hot-seat cover, a computer player's move,
        or waiting for the person to move. The table is brought up to date on the way."""
        session = self.session
        if not self.is_current or self.asking:
            return
        if self.thinking:
            self.update_table()
            return
        if self.sheets:
            self.update_table()
            index = self.sheets.pop(0)
            self.ask(self.sheet_screen(session.state(self.reader()), index),
                     partial(self.sheet_closed, index))
            return
        if session.finished:
            self.update_table()
            return
        seat = session.game.turn
        if session.is_person(seat):
            if session.hot_seat and self.viewer != seat:
                self.viewer = None
                self.note = None
                self.selected.clear()
                self.update_table()
                self.ask(cover_for(session, seat), partial(self.ready, seat))
                return
            self.viewer = seat
            self.update_table()
            if session.game.deal.phase == RUMMY_PHASE and self._asked != session.stamp:
                self._asked = session.stamp
                self.action_rummy()
            return
        turn = session.bot_turn()
        assert turn is not None
        self.thinking = True
        self.update_table()
        self.run_worker(partial(self.think, turn), thread=True, group="bots")

    def ask(self, screen: Screen[Any], answered: Callable[[Any], None]) -> None:
        """Show ``screen``; the game goes on once it is answered."""
        def done(answer: Any) -> None:
            self.asking = False
            answered(answer)
        self.asking = True
        self.app.push_screen(screen, done)

    def ready(self, seat: int, _: object = None) -> None:
        self.viewer = seat
        self.note = None
        self.advance()

    def on_screen_resume(self, event: ScreenResume) -> None:
        if self.is_mounted:
            self.call_after_refresh(self.advance)

    def think(self, turn: BotTurn) -> None:
        """Run in a worker thread: the computer player decides, and a moment later moves."""
        started = time.monotonic()
        try:
            decision = turn.decide()
        except Exception as error:  # a computer player's failure must not take the table down
            self.from_thread(self.bot_failed, turn, error)
            return
        rest = self.delay - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)
        self.from_thread(self.bot_done, turn, decision)

    def from_thread(self, callback: Callable[..., Any], *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
            self.app.call_from_thread(callback, *args)

    def bot_done(self, turn: BotTurn, decision: Decision) -> None:
        self.thinking = False
        try:
            made = self.session.apply_bot(turn, decision)
        except SessionError as error:
            self.refuse(str(error))
            return
        self.after_move(made)

    def bot_failed(self, turn: BotTurn, error: Exception) -> None:
        self.thinking = False
        self.refuse(f"{self.session.names[turn.seat]} could not move: {error}")

    def after_move(self, made: Made) -> None:
        session = self.session
        if made.ended is not None:
            self.sheets.append(made.ended)
        if session.hot_seat and (made.ended is not None or session.to_move != made.seat):
            self.viewer = None
        self.advance()

    def sheet_closed(self, index: int, choice: str | None) -> None:
        if choice == "again":
            self.app_call("play_again")
        elif choice == "setup":
            self.app_call("open_setup")
        elif choice == "quit":
            self.action_quit_game(partial(self.sheet_again, index))
        else:
            self.advance()

    def sheet_again(self, index: int) -> None:
        """Quitting was not confirmed over the sheet of deal ``index``: show it again."""
        self.sheets.insert(0, index)
        self.advance()

    def app_call(self, name: str) -> None:
        getattr(self.app, name)(self.session.settings)

    # -- making moves -----------------------------------------------------------------------------

    def act(self, move: Move | str) -> bool:
        """Send a move for the person at the screen; show the engine's reason if refused."""
        session = self.session
        if not self.acting() or self.viewer is None:
            self.refuse("it is not your move" if not self.thinking else
                        "wait: a computer player is moving")
            return False
        seat = self.viewer
        reason = session.play(seat, move)
        if reason is not None:
            self.refuse(reason)
            return False
        self.selected.clear()
        self.note = None
        made = session.made[-1]
        said = session.words.history(seat)[-1]
        if made.ended is None and said.drawn is not None:
            self.note = Text(f"{session.names[seat]} drew {face_label(parse_face(said.drawn))}.")
        self.after_move(made)
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return len(self.session.people) == 1 and self.session.undo_refusal() is None
        if action == "play_again":
            return self.session.finished
        return super().check_action(action, parameters)

    # -- what the move keys (keys.MoveKeys) ask of this screen ------------------------------------

    def meld_without_choice(self, faces: list[int]) -> None:
        if len(faces) < 3 or self.phase() != PLAY_PHASE:
            self.act(Move(MELD, tuple(faces)))
        else:
            self.refuse("these cards make no meld, whatever the jokers stand for")

    def no_claim(self) -> None:
        self.act(Move(RUMMY_MELD, ()))

    def claim_title(self) -> str:
        discarder = self.session.names[self.session.game.deal.discarder]
        return f"Rummy! {discarder} left cards in the pile that you can use."

    # -- other keys -------------------------------------------------------------------------------

    def action_hint(self) -> None:
        if not self.acting() or self.viewer is None:
            self.refuse("hints are for your own turn")
            return
        self.say("Thinking of a hint…", "italic")
        turn = self.session.hint_turn(self.viewer)
        self.run_worker(partial(self.find_hint, turn), thread=True, group="hints")

    def find_hint(self, turn: BotTurn) -> None:
        try:
            decision = turn.decide()
        except Exception as error:  # a computer player's failure must not take the table down
            self.from_thread(self.refuse, f"no hint: {error}")
            return
        self.from_thread(self.hint_found, turn, decision)

    def hint_found(self, turn: BotTurn, decision: Decision) -> None:
        if turn.stamp != self.session.stamp or self.viewer != turn.seat:
            return
        self.show_hint(decision.move, decision.reason)

    def action_undo(self) -> None:
        session = self.session
        reason = session.undo_refusal()
        if reason is not None:
            self.refuse(reason)
            return
        taken = session.undo()
        self.selected.clear()
        mine = taken[-1]  # taken: the newest first, down to the person's own move
        after = [self.session.names[made.seat] for made in reversed(taken[:-1])]
        self.note = Text(taken_back(mine.move, after), "italic")
        self.update_table()

    def action_explain_undo(self) -> None:
        self.refuse(self.session.undo_refusal() or "there is nothing to take back")

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.session.rules, self.session.game.players))

    def action_new_game(self) -> None:
        self.app_call("open_setup")

    def action_quit_game(self, stay: Callable[[], None] | None = None) -> None:
        """Save and quit; asked first while the game is on (``stay``: what follows a no)."""
        if self.session.finished:
            self.quit_now()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.quit_now()
            elif stay is not None:
                stay()
        self.app.push_screen(ConfirmScreen(
            "Quit this game?", "It is saved as it stands: rummy500 play --resume continues it.",
            "save and quit"), answered)

    def quit_now(self) -> None:
        self.session.save()
        self.app.exit(self.session)

    def action_play_again(self) -> None:
        self.app_call("play_again")

    # -- the widgets' messages --------------------------------------------------------------------

    @on(Input.Submitted, "#command")
    def typed(self, event: Input.Submitted) -> None:
        text = self.typed_move(event)
        if text is None:
            return
        if self.act(text):
            event.input.value = ""
            self.hand.focus()  # the keys (and the key bar) work again
        else:
            event.input.select_all()


def cover_for(session: TableSession, seat: int) -> CoverScreen:
    phase = session.game.deal.phase
    why = "you may call rummy." if phase == RUMMY_PHASE else "it is your turn."
    return CoverScreen(session.names[seat], why)


__all__ = ["TableScreen", "describe_claim", "piece_shows", "piece_words"]
