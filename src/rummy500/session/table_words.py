"""The words of a table, made once as it plays: each change's line for every reader, and
each finished deal's sheet line by line.

A reader is a seat, or None for a spectator. A line about a seat's move says "You" to
that seat and the seat's name to everyone else; the card a seat draws from the stock is
named to that seat only. Everything here is public but that card. A move the stand-in
made for a person (the turn clock ran out, or they are away) says so: "Your stand-in
takes 6♦" to that seat, "Ann's stand-in takes 6♦" to everyone else.

>>> from rummy500.game import Game
>>> game = Game(players=2, seed=1, auto_deal=False)
>>> words = TableWords(game, ["Ann", "Bob"])
>>> _ = game.start_deal(); words.deal_started()
>>> words.play(game.turn, "draw")
>>> [entry.text for entry in words.history(None)]
['Deal 1: Ann deals.', 'Bob draws from the stock']
>>> words.history(1)[-1].text.startswith("You draw ") and words.history(1)[-1].drawn is not None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..cards import face_of, face_str, iter_bits
from ..deal import Deal
from ..game import Game
from ..moves import DRAW, Move, parse_move
from ..narrate import YOU, Before, before, fresh_deal, move_text, restocked
from .seat_state import DealSheet, HistoryEntry
from .sheets import deal_sheet

WHO = "\x00"
"""Stands for the mover's name in a line said of a seat in the third person."""


class _Said(NamedTuple):
    """One change in words: ``third`` with :data:`WHO` for the mover, ``mine`` to the mover."""

    seat: int | None
    move: str | None
    third: str
    mine: str
    drawn: str | None = None
    deal: int | None = None
    dealer: int | None = None
    left: bool = False


class TableWords:
    """The history of the deal in play and the sheets of the finished deals, in words,
    kept as the table plays; :meth:`history` and :meth:`sheets` give them to one reader."""

    def __init__(self, game: Game, names: Sequence[str]) -> None:
        self.game = game
        self.names = list(names)
        self._said: list[_Said] = []
        self._history: dict[int | None, list[HistoryEntry]] = {}
        self._sheets: dict[int | None, list[DealSheet]] = {}
        self._standin: int | None = None

    @classmethod
    def of_game(cls, game: Game, names: Sequence[str]) -> TableWords:
        """The words of ``game`` as it stands, its deal in play told again from its start."""
        words = cls(game, names)
        if game.deals:
            deal = game.deal
            words._said = [words._dealt()]
            again = fresh_deal(deal)
            for move in deal.moves:
                seat, seen = again.turn, before(again)
                again.play(move, check=False)
                words.said(seat, move, seen, again)
        return words

    def rename(self, names: Sequence[str]) -> None:
        """New names for the seats (a seat taken before the game starts)."""
        if list(names) != self.names:
            self.names = list(names)
            self._history.clear()
            self._sheets.clear()

    # -- as the table plays -------------------------------------------------------------------

    def deal_started(self) -> None:
        """The game has just dealt a new deal: its history starts."""
        self._said = [self._dealt()]
        self._history.clear()

    def _dealt(self) -> _Said:
        number, dealer = len(self.game.deals), self.game.deal.dealer
        return _Said(None, None, f"Deal {number}: {WHO} deals.", f"Deal {number}: You deal.",
                     deal=number, dealer=dealer)

    def left(self, seat: int) -> None:
        """The person of ``seat`` has left the table for good: it is said so."""
        rest = "a computer player plays {} for the rest of the game."
        self._said.append(_Said(seat, None, f"{WHO} left the table: {rest.format('the seat')}",
                                f"You left the table: {rest.format('your seat')}", left=True))

    def left_since_deal(self) -> bool:
        """Whether a person left the table during the deal in play."""
        return any(said.left for said in self._said)

    def stand_in(self, seat: int) -> None:
        """The next move of ``seat`` (a person's) is the stand-in's: it is said so."""
        self._standin = seat

    def play(self, seat: int, move: Move | str, *, check: bool = True,
             undoable: bool = False) -> None:
        """Make ``move`` for ``seat`` on the game and say it (``check=False``: a move
        already checked; ``undoable``: made with :meth:`Game.push`, for :meth:`Game.pop`)."""
        move = parse_move(move) if isinstance(move, str) else move
        deal, deals = self.game.deal, len(self.game.deals)
        seen = before(deal)
        standin, self._standin = self._standin == seat, None
        (self.game.push if undoable else self.game.play)(move, check=check)
        self.said(seat, move, seen, deal, standin=standin)
        if len(self.game.deals) > deals:  # a game that deals on by itself
            self.deal_started()

    def said(self, seat: int, move: Move, seen: Before, deal: Deal, *,
             standin: bool = False) -> None:
        """Say ``move``, made by ``seat`` on ``deal`` (now after it), which stood as
        ``seen`` (:func:`rummy500.narrate.before`) just before it (``standin``: made for
        the seat by the stand-in)."""
        who, you = (f"{WHO}'s stand-in", "Your stand-in") if standin else (WHO, YOU)
        third = move_text(who, seat, move, seen, deal, spectator=False)
        drawn = None
        if move.kind == DRAW:
            mine = move_text(you, seat, move, seen, deal, spectator=True)
            new = list(iter_bits(deal.hands[seat] & ~seen.hand)) if not deal.over else []
            drawn = face_str(face_of(new[0])) if new else None
        else:
            mine = move_text(you, seat, move, seen, deal, spectator=False)
        restock = restocked(seen, deal)
        if restock is not None:
            third, mine = f"{third}. {restock}", f"{mine}. {restock}"
        self._said.append(_Said(seat, str(move), third, mine, drawn))

    # -- for one reader -------------------------------------------------------------------------

    def history(self, reader: int | None) -> list[HistoryEntry]:
        """The deal in play, change by change, as ``reader`` is told it (a list kept and
        extended: copy it to keep it)."""
        told = self._history.setdefault(reader, [])
        for said in self._said[len(told):]:
            told.append(self._tell(said, reader))
        return told

    def sheets(self, reader: int | None) -> list[DealSheet]:
        """Every finished deal's sheet, as ``reader`` reads it."""
        made = self._sheets.setdefault(reader, [])
        for index in range(len(made), len(self.game.results)):
            made.append(deal_sheet(self.game, self.names, index, reader))
        return made

    def _tell(self, said: _Said, reader: int | None) -> HistoryEntry:
        mover = said.seat if said.move is not None or said.left else said.dealer
        if mover is not None and mover == reader:
            text = said.mine
        else:
            text = said.third.replace(WHO, self.names[mover] if mover is not None else "")
        if said.left:
            return HistoryEntry(text=text, seat=said.seat, left=True)
        if said.move is None:
            return HistoryEntry(text=text, deal=said.deal, dealer=said.dealer)
        return HistoryEntry(text=text, seat=said.seat, move=said.move,
                            drawn=said.drawn if said.seat == reader else None)


__all__ = ["TableWords"]
