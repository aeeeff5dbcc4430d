"""One online table in memory: its seats, its game rebuilt from the stored changes, and
what each seat may see of it.

A table's game is determined by its seed and its list of changes (each a move, or
a new deal), so any process rebuilds it exactly by replaying what the database
holds: the state after a restart is the state of the last stored change.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import RecordFormatError
from ..game import Game
from ..moves import Move, parse_move
from ..record import game_record
from ..rules import rules_from_record
from ..session.seat_state import PublicTable, SeatInfo
from ..session.settings import bot_seat_names
from ..session.state import (
    Own,
    Parts,
    deal_event,
    move_event,
    own_part,
    public_move,
    public_table,
    seat_moves,
    shared_part,
)
from ..session.table_words import TableWords
from ..session.undo_rule import moves_to_take_back
from .thinking import Question

PERSON = "person"
BOT = "bot"
STANDIN_BOT = "expert"
"""The computer player that plays a disconnected person's turns."""

WAITING, PLAYING, OVER = "waiting", "playing", "over"
SEED_LIMIT = 2**63
"""Table seeds are below it (a secret one is drawn for a table made without one)."""


@dataclass(slots=True)
class Seat:
    seat: int
    kind: str
    """``person`` or ``bot``."""
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    kept_for: str | None = None
    """At a Play again table: the token hash of the person this seat is kept for."""
    kept_until: float | None = None
    """Until when (Unix time) it is kept for them."""
    left_at: float | None = None
    """When the person of this seat left the table for good (Unix time): a computer
    player (``bot``) plays it from then on, and its token acts no more."""

    @property
    def open(self) -> bool:
        """A person seat nobody has taken yet (perhaps kept for someone)."""
        return self.kind == PERSON and self.token_hash is None

    def kept(self, now: float | None = None) -> bool:
        """Whether this open seat is kept for someone now: nobody else may take it."""
        return (self.open and self.kept_for is not None and self.kept_until is not None
                and self.kept_until > (time.time() if now is None else now))


@dataclass(frozen=True, slots=True)
class Spec:
    """What a table is created with; the seed decides every shuffle and stays secret."""

    rules: dict[str, Any]
    players: int
    seed: int
    takeover_s: float = 60.0
    seeded: bool = False
    """The creator chose the seed (tests, reproducible games): then the creator can know
    every hand, and the public summary says so."""
    budget: float = 1.0
    deal_pause_s: float = 0.0
    """How long a finished deal's sheet holds the computer players (0: no pause)."""
    turn_s: float = 0.0
    """The turn clock: seconds a person has for a turn (0: no clock)."""
    bank_s: float = 0.0
    """Each person's time bank for the game: seconds spent when a turn outlasts its
    clock, before the stand-in plays (0: none; only with a turn clock)."""
    prefix: tuple[tuple[int, str] | None, ...] = ()
    """The changes played as the first deal starts, after it (tests only: the ``moves``
    of :mod:`.prefix`): each a seat and its move, or None for the next deal."""

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": self.rules, "players": self.players, "seed": self.seed,
            "takeover_s": self.takeover_s, "seeded": self.seeded, "budget": self.budget,
            "deal_pause_s": self.deal_pause_s, "turn_s": self.turn_s}
        if self.bank_s:
            data["bank_s"] = self.bank_s
        if self.prefix:
            data["prefix"] = [None if step is None else list(step) for step in self.prefix]
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Spec:
        return cls(rules=dict(data["rules"]), players=int(data["players"]),
                   seed=int(data["seed"]), takeover_s=float(data.get("takeover_s", 60)),
                   seeded=bool(data.get("seeded", False)), budget=float(data.get("budget", 1.0)),
                   deal_pause_s=float(data.get("deal_pause_s", 0)),
                   turn_s=float(data.get("turn_s", 0)),
                   bank_s=float(data.get("bank_s", 0)),
                   prefix=tuple(None if step is None else (int(step[0]), str(step[1]))
                                for step in data.get("prefix", ())))

    def prefix_changes(self, start: int) -> list[Change]:
        """The :attr:`prefix` as the changes that follow the first deal's, change ``start``."""
        return [Change(start + index) if step is None else Change(start + index, *step)
                for index, step in enumerate(self.prefix, 1)]


@dataclass(frozen=True, slots=True)
class Change:
    """One stored change: a seat's move, or (``seat`` and ``move`` None) a new deal, or
    (``move`` :data:`LEFT`) the person of ``seat`` leaving the table for good."""

    seq: int
    seat: int | None = None
    move: str | None = None
    standin: bool = False
    """The stand-in made this move for the person of the seat (their clock ran out, they
    were away, or they left): kept with the move so every process says it alike."""
    spent: float = 0.0
    """Seconds of the seat's time bank this move spent (the move that ended a turn that
    outlasted its clock)."""

    @property
    def left(self) -> bool:
        return self.move == LEFT


LEFT = "left"
"""The move of a stored change that says a person left the table."""


@dataclass(slots=True)
class LiveTable:
    id: str
    spec: Spec
    seats: list[Seat]
    game: Game = field(init=False)
    seq: int = 0
    connected: dict[int, bool] = field(default_factory=dict)
    """Seats with a connection in any process (people only)."""
    standins: set[int] = field(default_factory=set)
    """Person seats whose turns the stand-in computer player plays until they return."""
    words: TableWords = field(init=False)
    """The words of the deal in play and of the finished deals, for every reader."""
    shared: PublicTable | None = None
    """The public part of every seat's state at change ``shared_seq``."""
    shared_seq: int = -1
    next_table: str | None = None
    """The table of the next game, once someone asked for one (``POST …/again``)."""
    banks: list[float] = field(init=False)
    """Each seat's time bank left (seconds), as the stored changes have spent it."""
    playing_for: int | None = None
    """The person seat whose next move the stand-in is about to make (:meth:`make`)."""
    listed: tuple[int, int, tuple[Move, ...], tuple[str, ...]] | None = None
    """The legal moves last listed in a state: the change and seat they are of, the moves
    and their texts (:meth:`legal_texts`, :meth:`listed_moves`)."""

    def __post_init__(self) -> None:
        rules = rules_from_record(self.spec.rules)
        self.game = Game(rules, self.spec.players, rng=random.Random(self.spec.seed),
                         auto_deal=False)
        self.words = TableWords(self.game, [info.name for info in self.seat_infos()])
        self.banks = [self.spec.bank_s] * self.spec.players

    @classmethod
    def rebuild(cls, table_id: str, spec: Spec, seats: list[Seat],
                changes: Iterable[Change], next_table: str | None = None) -> LiveTable:
        table = cls(table_id, spec, seats)
        table.next_table = next_table
        for change in changes:
            table.apply(change)
        return table

    # -- the game ---------------------------------------------------------------------------

    @property
    def status(self) -> str:
        if self.game.finished:
            return OVER
        return PLAYING if self.game.deals else WAITING

    def open_seats(self) -> list[int]:
        return [seat.seat for seat in self.seats if seat.open]

    def apply(self, change: Change) -> dict[str, Any]:
        """Make a stored change (in order); its public event."""
        if change.seq != self.seq + 1:
            raise RecordFormatError(f"change {change.seq} follows change {self.seq}")
        if change.move is None:
            deal = self.game.start_deal()
            self.words.rename([info.name for info in self.seat_infos()])
            self.words.deal_started()
            event = deal_event(len(self.game.deals), deal.dealer)
        elif change.left:
            assert change.seat is not None
            self.words.left(change.seat)
            event = {"seat": change.seat, "left": True}
        else:
            assert change.seat is not None
            if self.game.turn != change.seat:
                raise RecordFormatError(
                    f"stored change {change.seq}: seat {change.seat} is not to move")
            move = parse_move(change.move)
            if change.standin:
                self.words.stand_in(change.seat)
            self.words.play(change.seat, move)
            self._spend(change)
            event = move_event(change.seat, move)
        self.seq = change.seq
        return event

    def _spend(self, change: Change) -> None:
        if change.spent and change.seat is not None:
            self.banks[change.seat] = max(0.0, self.banks[change.seat] - change.spent)

    def _play_checked(self, seat: int, move: Move, overrun: float) -> Change:
        """Make the move ``move`` of ``seat`` that :func:`check_move` has just allowed,
        played without being parsed or checked again: its change (the stand-in's, if it
        plays for the seat; spending ``overrun`` seconds of the seat's bank at most, if
        the move ends the turn)."""
        entry = self.seats[seat]
        standin = self.playing_for == seat or entry.left_at is not None
        self.playing_for = None
        if standin:
            self.words.stand_in(seat)
        deal = self.game.deal
        self.words.play(seat, move, check=False)
        ended = deal.over or self.game.turn != seat or self.game.deal is not deal
        spent = round(min(overrun, self.banks[seat]), 1) if ended and overrun > 0 else 0.0
        change = Change(self.seq + 1, seat, str(move), standin, spent)
        self._spend(change)
        self.seq = change.seq
        return change

    def make(self, seat: int, move: Move,
             seen: Callable[[Change, dict[str, Any]], None] | None = None,
             overrun: float = 0.0) -> list[Change]:
        """Make a move :func:`check_move` allowed (checked once: it is not checked again):
        its change, and the next deal's when it ends a deal.
        ``seen`` hears each change and its event as the table stands right after it;
        ``overrun``: seconds the turn has outlasted its clock (spent from the seat's
        bank if this move ends the turn).

        The table is changed in memory before the changes are stored: if storing them
        fails, drop this table and rebuild it from the database.
        """
        made = [self._play_checked(seat, move, overrun)]
        event = move_event(seat, move)
        if seen is not None:
            seen(made[0], event)
        if self.game.deal.over and not self.game.finished:
            made.append(Change(self.seq + 1))
            event = self.apply(made[1])
            if seen is not None:
                seen(made[1], event)
        return made

    def leave_change(self, seat: int) -> Change:
        """The change that says the person of ``seat`` left (made once stored, with the
        seat given to a computer player: :meth:`apply`)."""
        return Change(self.seq + 1, seat, LEFT)

    def start_change(self) -> Change | None:
        """The first deal, once every person seat is taken."""
        if self.game.deals or self.open_seats():
            return None
        return Change(self.seq + 1)

    # -- computer players --------------------------------------------------------------------

    def question(self, seat: int) -> Question:
        """The decision of ``seat``'s computer player (or of the stand-in for a person), to
        be taken in a worker; its random source is seeded by the table and the position."""
        entry = self.seats[seat]
        name = entry.bot if entry.kind == BOT and entry.bot else STANDIN_BOT
        bot_seed = random.Random(f"rummy500 serve {self.spec.seed} seat {seat} {name}")
        game = self.game
        seed = f"{self.spec.seed} seat {seat} deal {len(game.deals)} move {len(game.deal.moves)}"
        return Question(name, bot_seed.getrandbits(63), self.spec.budget, game.view(seat), seed)

    def seat_with(self, wanted: str) -> int | None:
        """The seat whose token hashes to ``wanted``."""
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return seat.seat
        return None

    # -- what is shown -----------------------------------------------------------------------

    def seat_infos(self) -> list[SeatInfo]:
        bots = bot_seat_names([seat.bot if seat.kind == BOT else None for seat in self.seats])
        now = time.time()
        return [SeatInfo(seat.seat, seat.kind, seat.name or bot or f"Seat {seat.seat + 1}",
                         seat.kind == BOT or self.connected.get(seat.seat, False), seat.open,
                         seat.bot if seat.kind == BOT else None,
                         STANDIN_BOT if seat.seat in self.standins else None, seat.kept(now),
                         seat.left_at is not None)
                for seat, bot in zip(self.seats, bots, strict=True)]

    def seats_json(self) -> list[dict[str, Any]]:
        return [info.to_json() for info in self.seat_infos()]

    def shared_part(self, **table: Any) -> tuple[Any, ...]:
        """What every reader's state holds alike now (:func:`..session.state.shared_part`),
        with what the table adds besides the game's (``table``: the pacing's keys). The
        public table is worked out once per change."""
        if self.shared_seq != self.seq or self.shared is None:
            self.shared, self.shared_seq = public_table(self.game), self.seq
        return shared_part(self.game, self.seat_infos(), self.shared, next=self.next_table,
                           **table)

    def own_part(self, seat: int | None) -> Own:
        """What only ``seat`` (None: a spectator) reads now."""
        return own_part(self.game, seat, self.words, self.legal_texts,
                        None if seat is None else self.can_undo(seat))

    def parts(self, seat: int | None, **table: Any) -> Parts:
        """``seat``'s state in its two parts (``table``: the pacing's keys)."""
        return Parts(self.shared_part(**table), self.own_part(seat))

    def legal_texts(self, game: Game, seat: int) -> tuple[str, ...]:
        """``seat``'s legal moves now (``game`` is this table's) as a state lists them,
        worked out once for each change and kept for :meth:`listed_moves`."""
        listed = self.listed
        if listed is None or listed[0] != self.seq or listed[1] != seat:
            moves = seat_moves(game, seat)
            listed = self.listed = (self.seq, seat, moves, tuple(map(public_move, moves)))
        return listed[3]

    def listed_moves(self, seat: int) -> tuple[Move, ...]:
        """``seat``'s legal moves now if a state has listed them since the last change
        (none if not: they are not worked out here)."""
        listed = self.listed
        if listed is None or listed[0] != self.seq or listed[1] != seat:
            return ()
        return listed[2]

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take its last move back now (:mod:`..session.undo_rule`):
        the only person at a table of computer players, in a game under way."""
        people = [entry.seat for entry in self.seats if entry.kind == PERSON]
        if people != [seat] or self.status != PLAYING or self.words.left_since_deal():
            return False
        deal = self.game.deal
        taken = moves_to_take_back(list(zip(deal.movers, deal.moves, strict=True)), seat,
                                   self.words.names)
        return not isinstance(taken, str)

    def summary(self) -> dict[str, Any]:
        """The public summary: never a hidden card."""
        summary = {
            "table": self.id, "rules": self.game.rules.to_record(), "players": self.spec.players,
            "seats": self.seats_json(), "status": self.status, "totals": list(self.game.totals),
            "deal": len(self.game.deals), "seq": self.seq, "takeover_s": self.spec.takeover_s,
            "deal_pause_s": self.spec.deal_pause_s, "turn_s": self.spec.turn_s,
            "bank_s": self.spec.bank_s, "next": self.next_table,
        }
        if self.spec.seeded:
            summary["seeded"] = True
        return summary

    def record(self) -> dict[str, Any]:
        return game_record(self.game)

    def again(self, table_id: str, seat: int, token_hash: str, keep_until: float) -> LiveTable:
        """The next game of this table, ``table_id``: the same rules, players, seats, names
        and ``takeover_s``; a new secret seed (seed + 1 for a table created with a seed);
        every person seat open but ``seat``, which ``token_hash`` holds, and each kept
        until ``keep_until`` for the person who held it here."""
        spec = self.spec
        seed = (spec.seed + 1) % SEED_LIMIT if spec.seeded else secrets.randbelow(SEED_LIMIT)
        new_spec = Spec(rules=dict(spec.rules), players=spec.players, seed=seed,
                        takeover_s=spec.takeover_s, seeded=spec.seeded, budget=spec.budget,
                        deal_pause_s=spec.deal_pause_s, turn_s=spec.turn_s,
                        bank_s=spec.bank_s)
        seats = []
        for entry in self.seats:
            taken = entry.seat == seat and entry.kind == PERSON
            keep = entry.kind == PERSON and not taken and entry.token_hash is not None
            if entry.left_at is not None:  # a computer player, not the person who left
                seats.append(Seat(entry.seat, BOT, entry.bot))
                continue
            seats.append(Seat(entry.seat, entry.kind, entry.bot, entry.name,
                              token_hash if taken else None,
                              entry.token_hash if keep else None,
                              keep_until if keep else None))
        return LiveTable(table_id, new_spec, seats)


__all__ = ["BOT", "LEFT", "OVER", "PERSON", "PLAYING", "SEED_LIMIT", "STANDIN_BOT", "WAITING",
           "Change", "LiveTable", "Seat", "Spec"]
