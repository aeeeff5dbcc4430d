"""A game of 500 Rum: deals one after another, the running totals, and the winner."""

from __future__ import annotations

import random
from collections.abc import Sequence
from copy import deepcopy
from typing import Any

from .cards import Cards, make_pack
from .deal import Deal, DealResult
from .errors import DeckError, IllegalMoveError, InvalidMoveError, NotNowError, PositionError
from .moves import Move, parse_move
from .rules import PRESETS, Rules
from .scoring import points_for
from .view import PlayerView, view_of

DEAD_DEALS = 3
"""The game ends when this many deals in a row end with no card put on the table (nobody
melded, laid off or went out): a project decision (docs/rules-decisions.md)."""

DEAD_DEALS_STOP = "dead_deals"
DEAL_LIMIT_STOP = "deal_limit"
"""Why a game stopped short of its own end (:attr:`Game.stopped`): three dead deals in a
row, or :data:`~rummy500.rules.DEAL_LIMIT` deals played where the rules set no
``max_deals``."""


def dead_deal(deal: Deal) -> bool:
    """Whether a finished ``deal`` put no card on the table: no meld (so no lay-off), and
    nobody went out."""
    return deal.went_out is None and not deal.melds


def dead_run(deals: Sequence[Deal]) -> int:
    """How many of the last finished ``deals`` in a row were dead (:func:`dead_deal`)."""
    run = 0
    for deal in reversed(deals):
        if not dead_deal(deal):
            break
        run += 1
    return run


def game_end(
    rules: Rules, totals: Sequence[float], deals_played: int, dead_deals: int = 0
) -> tuple[bool, int | None]:
    """Whether a game with these totals after ``deals_played`` deals, the last
    ``dead_deals`` of them in a row dead (:func:`dead_deal`), is over, and its winner.

    The game ends when one side alone has reached the target, or after the last deal
    (``max_deals``, else :data:`~rummy500.rules.DEAL_LIMIT`), or after :data:`DEAD_DEALS`
    dead deals in a row: there the side with the highest total wins, and a tie for the
    lead is a drawn game (winner None).
    """
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    if rules.target_score is not None and best >= rules.target_score and len(leaders) == 1:
        return True, leaders[0]
    if deals_played >= rules.deal_limit or dead_deals >= DEAD_DEALS:
        return True, leaders[0] if len(leaders) == 1 else None
    return False, None


def stop_reason(rules: Rules, totals: Sequence[float], deals_played: int,
                dead_deals: int) -> str:
    """Why a game that :func:`game_end` ends stopped short of its own end: ``""`` when a
    side reached the target or the rules' ``max_deals`` were played, else
    :data:`DEAD_DEALS_STOP` or :data:`DEAL_LIMIT_STOP`."""
    best = max(totals)
    if (rules.target_score is not None and best >= rules.target_score
            and list(totals).count(best) == 1):
        return ""
    if rules.max_deals is not None and deals_played >= rules.max_deals:
        return ""
    if dead_deals >= DEAD_DEALS:
        return DEAD_DEALS_STOP
    return DEAL_LIMIT_STOP if deals_played >= rules.deal_limit else ""


def winner_after(
    rules: Rules, totals: Sequence[float], scores: Sequence[float], deals_played: int,
    dead_deals: int = 0,
) -> int | None:
    """The side that wins the game when a deal scoring ``scores`` (per side) is added to
    ``totals`` as deal number ``deals_played`` (``dead_deals``: the dead deals in a row
    then, itself included): None if the game goes on, or ends drawn.

    The one end-of-game check for those who look ahead (the bots' race and play-outs).
    """
    after = [total + score for total, score in zip(totals, scores, strict=True)]
    return game_end(rules, after, deals_played, dead_deals)[1]


class Game:
    """A whole game: the current :class:`Deal`, every finished one, totals and the winner.

    Randomness comes only from ``rng`` (or ``seed``): the first dealer, every
    shuffle. ``auto_deal=False`` leaves the next deal to :meth:`start_deal` (for
    replaying a record, whose pack orders are given).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        players: int = 2,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        dealer: int | None = None,
        auto_deal: bool = True,
    ) -> None:
        self.rules = rules if rules is not None else PRESETS["classic"]
        self.rules.check_players(players)
        self.players = players
        self.rng = rng if rng is not None else random.Random(seed)
        self.auto_deal = auto_deal
        self.first_dealer = self.rng.randrange(players) if dealer is None else dealer
        if not 0 <= self.first_dealer < players:
            raise PositionError(f"the dealer must be a seat from 0 to {players - 1}")
        self.deals: list[Deal] = []
        self.results: list[DealResult] = []
        self.totals = [0] * self.rules.sides(players)
        self.finished = False
        self.winner: int | None = None
        self.margin = 0
        self.stopped = ""
        """Why the game stopped short of its own end (:func:`stop_reason`: three dead deals
        in a row, or the deal limit), else empty."""
        self._stack: list[tuple[Any, ...]] = []
        if auto_deal:
            self.start_deal()

    # -- deals ---------------------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        if not self.deals:
            raise NotNowError("no deal has started")
        return self.deals[-1]

    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) % self.players

    def start_deal(
        self,
        deck: Sequence[int] | None = None,
        restock: Sequence[Sequence[int]] = (),
        dealer: int | None = None,
    ) -> Deal:
        """Deal the next hand from ``deck`` (cards, in dealing order) or a fresh shuffle."""
        if self.finished:
            raise NotNowError("the game is over")
        if self.deals and not self.deals[-1].over:
            raise NotNowError("the current deal is not over")
        pack = make_pack(self.rules.deck_count(self.players), self.rules.jokers_in_each_deck)
        if deck is None:
            self.rng.shuffle(pack)
            deck = pack
        elif sorted(deck) != sorted(pack):
            raise DeckError("the pack order does not hold exactly the cards of the pack")
        if dealer is None:
            dealer = self.next_dealer()
        deal = Deal(self.rules, self.players, dealer, deck, restock, self.rng)
        self.deals.append(deal)
        return deal

    def add_deal(self, deal: Deal) -> Deal:
        """Go on with ``deal`` as the next deal: one set up in a position of its own
        (:meth:`Deal.from_position`, :meth:`Deal.from_fen`), dealt by the next dealer."""
        if self.finished:
            raise NotNowError("the game is over")
        if self.deals and not self.deals[-1].over:
            raise NotNowError("the current deal is not over")
        if deal.rules != self.rules or deal.players != self.players:
            raise PositionError("the deal is not played by this game's rules and players")
        if deal.dealer != self.next_dealer():
            raise PositionError(f"seat {self.next_dealer()} deals next, not seat {deal.dealer}")
        self.deals.append(deal)
        return deal

    @classmethod
    def from_deal(
        cls,
        deal: Deal,
        totals: Sequence[int] | None = None,
        *,
        seed: int | None = None,
        auto_deal: bool = True,
    ) -> Game:
        """A game whose first deal is ``deal``, in whatever position it is, with ``totals``
        per side standing before it (none by default).

        The game's random source (``seed``) shuffles the deals after it and, unless the
        deal has a random source of its own, any reshuffle of its pile.
        """
        rules, players = deal.rules, deal.players
        game = cls(rules, players, seed=seed, dealer=deal.dealer, auto_deal=False)
        sides = rules.sides(players)
        game.totals = [0] * sides if totals is None else list(totals)
        if len(game.totals) != sides:
            raise PositionError(f"the totals are per side: {sides} of them")
        if game_end(rules, game.totals, 0)[0]:
            raise PositionError("a side has already won the game with these totals")
        if deal.rng is None:
            deal.set_restocks(deal.restock_orders[deal.restocks:], game.rng)
        game.add_deal(deal)
        game.auto_deal = auto_deal
        if deal.over:
            game._finish_deal()
        return game

    # -- moves ---------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The seat the game waits for."""
        return self.deal.turn

    def hand_cards(self, seat: int) -> Cards:
        """``seat``'s cards in the current deal as :class:`Cards` (any seat's: a player sees
        only its own, through :meth:`view`)."""
        return self.deal.hand_cards(seat)

    def legal_moves(self) -> list[Move]:
        return [] if self.finished else self.deal.legal_moves()

    def why_illegal(self, move: Move | str) -> str | None:
        """None if the move is legal now, else the reason in a player's words (for text that
        is no move at all too)."""
        if self.finished:
            return "the game is over"
        if isinstance(move, str):
            try:
                move = parse_move(move)
            except InvalidMoveError as error:
                return str(error)
        return self.deal.why_illegal(move)

    def is_legal(self, move: Move | str) -> bool:
        return self.why_illegal(move) is None

    def play(self, move: Move | str, *, check: bool = True) -> None:
        """Make a move; when it ends the deal, score it and (with auto_deal) deal again."""
        if self.finished:
            raise IllegalMoveError("the game is over")
        self.deal.play(move, check=check)
        if self.deal.over:
            self._finish_deal()

    def push(self, move: Move | str, *, check: bool = True) -> None:
        """Make a move that :meth:`pop` takes back exactly, across deal ends too."""
        if self.finished:
            raise IllegalMoveError("the game is over")
        deal = self.deal
        count, results = len(self.deals), len(self.results)
        deal.push(move, check=check)
        rng_state = self.rng.getstate() if deal.over else None
        self._stack.append((count, results, list(self.totals), self.finished, self.winner,
                            self.margin, self.stopped, rng_state))
        if deal.over:
            self._finish_deal()

    def pop(self) -> Move:
        count, results, totals, finished, winner, margin, stopped, rng_state = self._stack.pop()
        del self.deals[count:]
        del self.results[results:]
        self.totals, self.finished, self.winner, self.margin = totals, finished, winner, margin
        self.stopped = stopped
        if rng_state is not None:
            self.rng.setstate(rng_state)
        return self.deal.pop()

    # -- scoring ----------------------------------------------------------------------------

    def _finish_deal(self) -> None:
        result = self.deal.result()
        self.results.append(result)
        for side, score in enumerate(result.scores):
            self.totals[side] += score
        self._check_end()
        if not self.finished and self.auto_deal:
            self.start_deal()

    def _check_end(self) -> None:
        played = len(self.results)
        dead = dead_run(self.deals[:played])
        over, winner = game_end(self.rules, self.totals, played, dead)
        if over:
            self.stopped = stop_reason(self.rules, self.totals, played, dead)
            self._end(winner)

    def _end(self, winner: int | None) -> None:
        self.finished = True
        self.winner = winner
        if winner is not None:
            self.totals[winner] += points_for(self.rules).final_bonus
            others = [t for side, t in enumerate(self.totals) if side != winner]
            self.margin = self.totals[winner] - max(others)

    def copy(self) -> Game:
        """An independent copy: moves made on it, and its shuffles, leave this game alone."""
        return deepcopy(self, {id(self.rules): self.rules})

    def branch(self) -> Game:
        """An independent copy to search from, cheaper than :meth:`copy`: without the undo
        stack, the finished deals shared (they never change), the deal in play copied with
        :meth:`Deal.copy` and the random source with its state."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__, deals=list(self.deals), results=list(self.results),
                             totals=list(self.totals), _stack=[], rng=rng)
        if self.deals and not self.deals[-1].over:
            deal = twin.deals[-1] = self.deals[-1].copy()
            if self.deals[-1].rng is self.rng:  # one source for its reshuffles and the deals
                deal.set_restocks(deal.restock_orders[deal.restocks:], rng)
        return twin

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see of the current deal, with the running totals."""
        return view_of(self.deal, seat, tuple(self.totals), len(self.deals) - 1)

    def __repr__(self) -> str:
        return (f"<Game {self.rules.preset} players={self.players} deals={len(self.deals)} "
                f"totals={self.totals} finished={self.finished}>")
