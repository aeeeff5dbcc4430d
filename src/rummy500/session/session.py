"""A table session: one game, which seats are people and which computer players, and the
services every front end needs around it (front-end neutral: no Textual here).

The session makes people's moves only when the engine allows them (a refused
move changes nothing and gives the engine's reason), prepares computer players'
turns so a front end can run them off its main thread, takes moves back against
computer players (with :meth:`Game.push` / :meth:`Game.pop`), gives hints, and saves
the game after every move. Beside its game it keeps the table's words
(:class:`~.table_words.TableWords`): :meth:`TableSession.state` is one seat's
:class:`~.seat_state.SeatState`, the same model an online seat reads from the server.

>>> from rummy500.session.settings import default_settings
>>> session = TableSession.new(default_settings(bot="random", seed=0))
>>> session.log(0)
['Deal 1: Random deals.']
>>> session.play(0, "discard Kc")
'draw first: the top card of the stock, or cards from the discard pile'
>>> session.play(0, "draw") is None, session.log(0)[-1].startswith("You draw ")
(True, True)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..bots import Bot, Decision, make_bot
from ..bots.playout import check_move
from ..errors import DeckError, SaveError, SaveInUseError
from ..errors import SessionError as SessionError
from ..game import Game
from ..moves import (
    InvalidMoveError,
    Move,
    parse_move,
)
from ..record import ReplayError, cards_from_faces, game_record, replay
from ..view import PlayerView
from .saves import SaveStore
from .seat_state import HistoryEntry, SeatInfo, SeatState
from .settings import PERSON, SettingsError, TableSettings, default_bot
from .state import build_state
from .table_words import TableWords
from .undo_rule import moves_to_take_back
from .words import side_label, table_log

SAVE_VERSION = 1

@dataclass(frozen=True, slots=True)
class Made:
    """A move the session made, and what it did."""

    seat: int
    move: Move
    deal: int
    """The index of the deal it was made in (from 0)."""
    ended: int | None
    """The index of the deal this move ended, if it ended one."""


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A decision to be taken by a computer player, safe to run off the main thread.

    The view is a snapshot; the bot's random source is seeded from the game's seed
    and the position, so the same position gives the same move (after an undo, or
    a resume).
    """

    seat: int
    view: PlayerView
    bot: Bot
    seed: str
    stamp: int

    def decide(self) -> Decision:
        self.bot.rng.seed(self.seed)
        return self.bot.decide(self.view)


class TableSession:
    """One game at one table. Build it with :meth:`new` or :meth:`resume`."""

    def __init__(self, settings: TableSettings, game: Game, store: SaveStore | None = None) -> None:
        if settings.seed is None:
            raise SessionError("a session needs its seed")
        self.settings = settings
        self.seed: int = settings.seed
        self.game = game
        self.rules = game.rules
        self.store = store
        self.names = settings.seat_names()
        self.people = settings.people
        # The session deals each next deal itself, once it has kept the words of the deal
        # that ended (a game that deals on by itself would deal before they are kept).
        game.auto_deal = False
        self.words = TableWords.of_game(game, self.names)
        self.told: dict[int, dict[int | None, tuple[HistoryEntry, ...]]] = {}
        """The history of each finished deal (by its number from 1), for each reader."""
        self.made: list[Made] = []
        self._stamp = 0
        budget = settings.budget
        self.bots: dict[int, Bot] = {
            seat: make_bot(kind, self._seed_for(f"seat {seat}"), budget)
            for seat, kind in enumerate(settings.seats) if kind != PERSON
        }
        self._hint_bot: Bot | None = None
        self.save_problem: str | None = None
        """Why the last save failed (the game goes on unsaved), or None."""

    # -- making one -------------------------------------------------------------------------------

    @classmethod
    def new(cls, settings: TableSettings, store: SaveStore | None = None) -> TableSession:
        """A new game; raises :class:`SettingsError` for a set-up that cannot be played."""
        rules = settings.check()
        if settings.seed is None:
            settings = replace(settings, seed=secrets.randbelow(2**31))
        assert settings.seed is not None
        game = Game(rules, settings.players, rng=random.Random(settings.seed), auto_deal=False)
        game.start_deal()
        session = cls(settings, game, store)
        session.save()
        return session

    @classmethod
    def resume(cls, store: SaveStore) -> TableSession:
        """The game saved in ``store``, exactly as it was left."""
        return cls.from_data(store.read(), store)

    @classmethod
    def from_data(cls, data: Mapping[str, Any], store: SaveStore | None = None) -> TableSession:
        """A session from a saved game (a record with its ``table`` settings).

        Raises :class:`SaveError` (a :class:`RecordFormatError`) for a save that cannot be read,
        :class:`ReplayError` for an illegal move in it and :class:`SettingsError`.
        """
        table = data.get("table")
        if not isinstance(table, Mapping):
            raise SaveError("this record has no table settings: it is not a saved game")
        settings = TableSettings.from_data(table)
        if settings.seed is None:
            raise SaveError("the saved game has no seed")
        rounds = data.get("rounds")
        if not isinstance(rounds, list) or not rounds or not isinstance(rounds[-1], dict):
            raise SaveError("rounds must be a list with at least one round")
        last = rounds[-1]
        moves = last.get("moves", [])
        if not isinstance(moves, list):
            raise SaveError("moves must be a list of move texts")
        restock = last.get("restock", [])
        if not isinstance(restock, list) or not all(isinstance(o, list) for o in restock):
            raise SaveError("restock must be a list of card lists")
        # The last deal is dealt bare and its moves made below, one by one, as they were
        # made at the table; its reshuffles come from the record's restock orders.
        game = replay({**data, "rounds": [*rounds[:-1], {**last, "moves": [], "restock": []}]})
        if game.finished:
            raise SaveError("the saved game is over")
        if settings.players != game.players:
            raise SaveError("the saved game's seats do not match its players")
        settings.check()
        session = cls(settings, game, store)
        index = len(game.deals) - 1
        deal = game.deal
        deal.set_restocks([cards_from_faces(order, game.rules, game.players)
                           for order in restock], None)
        for number, text in enumerate(moves):
            try:
                move = parse_move(text)
            except (InvalidMoveError, TypeError) as error:
                raise ReplayError(index, number, str(error)) from None
            reason = game.why_illegal(move)
            if reason is not None:
                raise ReplayError(index, number, reason)
            try:
                session._make(game.turn, move, save=False, deal_on=False)
            except DeckError as error:  # a restock order that does not fit the pile
                raise ReplayError(index, number, str(error)) from None
        if game.deal.over:
            raise SaveError("the saved game's last deal is over and no deal follows it")
        if deal.restocks != len(restock):
            raise SaveError(f"the save gives {len(restock)} restock order(s), but the stock was "
                            f"reshuffled {deal.restocks} time(s)")
        deal.set_restocks((), game.rng)
        state = table.get("rng")
        if state is not None:
            try:
                game.rng.setstate((int(state[0]), tuple(int(n) for n in state[1]), state[2]))
            except (TypeError, ValueError, IndexError) as error:
                raise SaveError(f"the saved random state cannot be read: {error}") from None
        return session

    def _seed_for(self, what: str) -> int:
        return random.Random(f"rummy500 play {self.seed} {what}").getrandbits(63)

    # -- who is who -------------------------------------------------------------------------------

    def is_person(self, seat: int) -> bool:
        return self.settings.seats[seat] == PERSON

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def to_move(self) -> int | None:
        """The seat the game waits for, or None when it is over."""
        return None if self.game.finished else self.game.turn

    @property
    def person_to_move(self) -> bool:
        seat = self.to_move
        return seat is not None and self.is_person(seat)

    @property
    def hot_seat(self) -> bool:
        """Several people share the screen: hands are hidden between their turns."""
        return len(self.people) > 1

    @property
    def stamp(self) -> int:
        """Changes with every move made or taken back (to drop stale hints and bot moves)."""
        return self._stamp

    def view(self, seat: int) -> PlayerView:
        return self.game.view(seat)

    def side_label(self, side: int) -> str:
        return side_label(self.rules, self.names, side)

    def seat_infos(self) -> list[SeatInfo]:
        return [SeatInfo(seat, PERSON, name) if kind == PERSON else
                SeatInfo(seat, "bot", name, bot=kind)
                for seat, (kind, name) in enumerate(zip(self.settings.seats, self.names,
                                                        strict=True))]

    def state(self, reader: int | None) -> SeatState:
        """The table as ``reader`` (a seat, or None: hands hidden) may know it now."""
        return build_state(self.game, reader, self.seat_infos(), self.words)

    def histories(self, reader: int | None) -> dict[int, tuple[HistoryEntry, ...]]:
        """The history of every finished deal of this session, as ``reader`` was told it."""
        return {number: told[reader] for number, told in self.told.items() if reader in told}

    def log(self, reader: int | None) -> list[str]:
        """The whole log as ``reader`` is told it (:func:`~.words.table_log`)."""
        return table_log(self.state(reader), self.histories(reader))

    def standing(self) -> str:
        totals = ", ".join(f"{self.side_label(side)} {total}"
                           for side, total in enumerate(self.game.totals))
        return f"Totals: {totals}."

    # -- moves ------------------------------------------------------------------------------------

    def play(self, seat: int, move: Move | str) -> str | None:
        """A person's move: made if the engine allows it (None), else the reason (no change)."""
        if self.game.finished:
            return "the game is over"
        if not self.is_person(seat):
            return f"{self.names[seat]} is a computer player"
        if isinstance(move, str):
            try:
                move = parse_move(move)
            except InvalidMoveError as error:
                return str(error)
        reason = self.game.view(seat).why_illegal(move)
        if reason is not None:
            return reason
        self._make(seat, move)
        return None

    def bot_turn(self) -> BotTurn | None:
        """The computer player's decision to take now, or None (a person's turn, or the end)."""
        seat = self.to_move
        if seat is None or self.is_person(seat):
            return None
        deal = self.game.deal
        seed = f"{self.seed} seat {seat} deal {len(self.game.deals)} move {len(deal.moves)}"
        return BotTurn(seat, self.game.view(seat), self.bots[seat], seed, self._stamp)

    def apply_bot(self, turn: BotTurn, decision: Decision) -> Made:
        """Make the move ``turn``'s bot decided on (refused if the game moved on meanwhile)."""
        if turn.stamp != self._stamp or self.to_move != turn.seat:
            raise SessionError("the game moved on while the computer player was thinking")
        who = f"{self.names[turn.seat]} ({self.settings.seats[turn.seat]})"
        check_move(self.game, turn.seat, decision.move, who, SessionError)
        return self._make(turn.seat, decision.move)

    def _make(self, seat: int, move: Move, *, save: bool = True, deal_on: bool = True) -> Made:
        """Make a legal ``move``; when it ends a deal, keep its words and (``deal_on``)
        deal the next one."""
        game = self.game
        index = len(game.deals) - 1
        results = len(game.results)
        self.words.play(seat, move, check=False, undoable=True)
        ended = None
        if len(game.results) > results:
            ended = index
            readers: list[int | None] = [*self.people, None]
            self.told[index + 1] = {reader: tuple(self.words.history(reader))
                                    for reader in readers}
            if deal_on and not game.finished:
                game.start_deal()
                self.words.deal_started()
        made = Made(seat, move, index, ended)
        self.made.append(made)
        self._stamp += 1
        if save:
            self.save()
        return made

    # -- undo and hints ---------------------------------------------------------------------------

    def undo_refusal(self) -> str | None:
        """Why :meth:`undo` cannot be done now, or None."""
        if len(self.people) != 1:
            return ("moves are taken back only in a game against computer players"
                    if self.people else "there is nobody's move to take back")
        if not self.person_to_move:
            return "wait for your turn to take a move back"
        current = len(self.game.deals) - 1
        person = self.people[0]
        taken = moves_to_take_back([(m.seat, m.move) for m in self.made if m.deal == current],
                                   person, self.names)
        return taken if isinstance(taken, str) else None

    def undo(self) -> list[Made]:
        """Take back the person's last move and every computer player's move since."""
        reason = self.undo_refusal()
        if reason is not None:
            raise SessionError(reason)
        taken = []
        while True:
            made = self.made.pop()
            self.game.pop()
            taken.append(made)
            if made.seat in self.people:
                break
        self.words = TableWords.of_game(self.game, self.names)
        self._stamp += 1
        self.save()
        return taken

    def hint_turn(self, seat: int) -> BotTurn:
        """The strongest computer player's decision for ``seat``'s position (run it anywhere)."""
        if self._hint_bot is None:
            self._hint_bot = make_bot(default_bot(), self._seed_for("hints"),
                                      self.settings.budget)
        deal = self.game.deal
        seed = f"{self.seed} hint {seat} deal {len(self.game.deals)} move {len(deal.moves)}"
        return BotTurn(seat, self.game.view(seat), self._hint_bot, seed, self._stamp)

    # -- saving -----------------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The game record (NOTATION.md) with the table settings and the random state."""
        version, internal, gauss = self.game.rng.getstate()
        data = game_record(self.game)
        data["table"] = {**self.settings.to_data(), "version": SAVE_VERSION,
                         "rng": [version, list(internal), gauss]}
        return data

    def save(self) -> None:
        """Keep the game (a finished one as the last game). A save that fails does not stop
        the game: :attr:`save_problem` says why, until a save succeeds."""
        if self.store is None:
            return
        try:
            if self.game.finished:
                self.store.finish(self.to_data())
            else:
                self.store.write(self.to_data())
        except (OSError, SaveError, SaveInUseError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            self.save_problem = (f"the game cannot be saved in {self.store.directory} "
                                 f"({reason}); it goes on unsaved")
        else:
            self.save_problem = None


__all__ = ["BotTurn", "Made", "SessionError", "SettingsError", "TableSession"]
