"""The data of an OpenSpiel state of 500 Rum (:mod:`rummy500.rl.openspiel`): the engine's
game, the action history with its chance outcomes, and what each seat saw.

The engine deals from a whole pack order; OpenSpiel deals one chance outcome at a time.
This module keeps the cards dealt so far until the pack order is whole, and which hidden
cards each seat received, so that a state can be resampled from a seat's information.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..extras import require

require("rl", "pyspiel", feature="rummy500.rl.openspiel")

import pyspiel  # type: ignore[import-not-found]

from ..cards import NATURAL_MASK, Cards, card_for_face, face_of, face_str, iter_bits, make_pack
from ..dealing import cards_to_deal, dealt_to
from ..errors import DeckError
from ..game import Game
from ..moves import DRAW, Move
from ..rules import Rules
from ..view import PlayerView
from .actions import CARD_FACE_INDEX, action_space, index_face

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class Core:
    """The state's data: the engine's game, the action history and what each seat saw.

    Kept in one attribute so that OpenSpiel's clone (a deepcopy of each
    attribute) is a cheap structural copy, and serialization is the history.
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        """The rules, players, actions and pack, shared by every state of the game."""
        self.game: Game | None = None
        self.dealing: list[int] | None = None
        """Cards dealt so far while a deal is being dealt (None otherwise)."""
        self.undealt = self.setup.pack_bits
        self.player = CHANCE
        """The player to move (cached: OpenSpiel asks often)."""
        self.pending_draw = False
        self.history: list[int] = []
        self.log: list[tuple[int, str]] = []
        """(seat, text) of everything seen: seat -1 for what every seat sees."""
        self.events: list[tuple[int, int, int, int]] = []
        """This deal's hidden arrivals: (history index, seat, card, pool: restocks so far)."""
        self.departed: dict[int, int] = {}
        """Event number -> history index at which its card left the hand."""
        self.holding: dict[int, int] = {}
        """Card -> event number, for cards in a hand that arrived hidden."""
        self.legal: list[int] | None = None
        self.views: dict[int, PlayerView] = {}

    # -- copying and pickling ----------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        twin = object.__new__(Core)
        twin.__dict__.update(self.__dict__)
        twin.history = list(self.history)
        twin.log = list(self.log)
        twin.events = list(self.events)
        twin.departed = dict(self.departed)
        twin.holding = dict(self.holding)
        twin.dealing = None if self.dealing is None else list(self.dealing)
        twin.game = None if self.game is None else self.game.branch()
        twin.views = {}
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, (self.setup.rules, self.setup.players, list(self.history)))

    # -- where the game is -------------------------------------------------------------

    def _find_player(self) -> int:
        game = self.game
        if game is None or self.dealing is not None or self.pending_draw:
            return CHANCE
        if game.finished:
            return TERMINAL
        return game.deal.turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game = self.game
        if game is None:
            return [(seat, 1.0 / self.setup.players) for seat in range(self.setup.players)]
        if self.dealing is not None:
            return _face_weights(self.undealt)
        return _face_weights(game.deal.stock_cards().bits)

    def legal_actions(self) -> list[int]:
        if self.legal is None:
            game = self.game
            assert game is not None
            view = self.view(game.deal.turn)
            assert view is not None
            self.legal = self.setup.space.actions(view.legal_moves())
        return self.legal

    # -- making moves ----------------------------------------------------------------------

    def apply(self, action: int) -> None:
        index = len(self.history)
        self.history.append(action)
        self.legal = None
        self.views = {}
        game = self.game
        if game is None:
            # The engine's random source only orders a reshuffled stock, which the
            # chance outcomes of the draws override.
            setup = self.setup
            self.game = Game(setup.rules, setup.players, seed=0, dealer=action, auto_deal=False)
            self._begin_dealing()
        elif self.dealing is not None:
            self._deal_card(index, action)
        elif self.pending_draw:
            self._draw(index, action)
        else:
            self._play(index, game, self.setup.space.decode(action))
        self.player = self._find_player()

    def _begin_dealing(self) -> None:
        game = self.game
        assert game is not None
        self.dealing = []
        self.undealt = self.setup.pack_bits
        self.events = []
        self.departed = {}
        self.holding = {}
        self.log.append((-1, f"deal {len(game.deals)} dealer {game.next_dealer()}"))

    def _deal_card(self, index: int, face_index: int) -> None:
        game = self.game
        dealing = self.dealing
        assert game is not None and dealing is not None
        face = index_face(face_index)
        card = card_for_face(self.undealt, face)
        if card < 0:
            raise DeckError(f"no {face_str(face)} is left to deal")
        self.undealt &= ~(1 << card)
        dealing.append(card)
        text = face_str(face)
        if len(dealing) == self.setup.to_deal:
            self.log.append((-1, f"up {text}"))
            rest = [c for c in self.setup.pack if self.undealt >> c & 1]
            self.dealing = None
            game.start_deal(dealing + rest)
            return
        seat = dealt_to(game.next_dealer(), self.setup.players, len(dealing) - 1)
        self.events.append((index, seat, card, 0))
        self.holding[card] = len(self.events) - 1
        self.log.append((seat, f"+{text}"))

    def _draw(self, index: int, face_index: int) -> None:
        game = self.game
        assert game is not None
        deal = game.deal
        face = index_face(face_index)
        card = next((card for card in reversed(deal.stock) if face_of(card) == face), -1)
        deal.bring_to_top(card)
        seat = deal.turn
        self.pending_draw = False
        self.events.append((index, seat, card, deal.restocks))
        self.holding[card] = len(self.events) - 1
        self.log.append((seat, f"+{face_str(face)}"))
        game.play(Move(DRAW), check=False)

    def _play(self, index: int, game: Game, move: Move) -> None:
        deal = game.deal
        seat = deal.turn
        self.log.append((-1, f"{seat}:{move}"))
        if move.kind == DRAW:
            self.pending_draw = True
            return
        before = deal.hands[seat]
        game.play(move, check=False)
        for card in iter_bits(before & ~deal.hands[seat]):
            event = self.holding.pop(card, None)
            if event is not None:
                self.departed[event] = index
        if deal.over:
            result = game.results[-1]
            self.log.append((-1, f"result {' '.join(map(str, result.scores))}"))
            if not game.finished:
                self._begin_dealing()

    # -- what a seat knows -------------------------------------------------------------

    def information_state(self, seat: int) -> str:
        return " ".join([f"p{seat}", *(text for who, text in self.log if who < 0 or who == seat)])

    def view(self, seat: int) -> PlayerView | None:
        view = self.views.get(seat)
        if view is None:
            game = self.game
            if game is None or not game.deals:
                return None
            view = self.views[seat] = game.view(seat)
        return view

    def resampled_history(self, seat: int, uniform: Callable[[], float]) -> list[int]:
        """A history that ``seat`` cannot tell from this one, the others' hidden cards redrawn.

        Only the deal in progress has hidden cards that matter: the cards other
        seats received unseen (dealt or drawn) are redrawn from the cards
        ``seat`` has not seen, keeping every card another seat has since played
        with that seat, received before it was played.
        """
        game = self.game
        if game is None or game.finished or (self.dealing is None and game.deal.over):
            return list(self.history)
        current_pool = 0 if self.dealing is not None else game.deal.restocks
        hidden = [(n, e) for n, e in enumerate(self.events) if e[1] != seat]
        assigned: dict[int, int] = {}
        free: dict[tuple[int, int], list[int]] = {}
        for n, (_index, who, _card, pool) in hidden:
            free.setdefault((who, pool), []).append(n)
        shown = sorted((self.departed[n], n) for n, _ in hidden if n in self.departed)
        for deadline, n in shown:
            _index, who, card, pool = self.events[n]
            slots = free[(who, pool)]
            early = [i for i, m in enumerate(slots) if self.events[m][0] < deadline]
            assigned[slots.pop(early[int(uniform() * len(early)) % len(early)])] = card
        unseen: dict[int, list[int]] = {}
        for n, (_index, _who, card, pool) in hidden:
            if n not in self.departed:
                unseen.setdefault(pool, []).append(card)
        if self.dealing is not None:
            unseen.setdefault(0, []).extend(iter_bits(self.undealt))
        else:
            unseen.setdefault(current_pool, []).extend(game.deal.stock)
        for (_who, pool), slots in free.items():
            cards = unseen.get(pool, [])
            for n in slots:
                pick = int(uniform() * len(cards)) % len(cards)
                cards[pick], cards[-1] = cards[-1], cards[pick]
                assigned[n] = cards.pop()
        history = list(self.history)
        for n, card in assigned.items():
            history[self.events[n][0]] = CARD_FACE_INDEX[card]
        return history

    def __str__(self) -> str:
        game = self.game
        if game is None:
            return "choosing the first dealer"
        head = f"totals {game.totals}"
        if self.dealing is not None:
            return f"{head} | dealing deal {len(game.deals)}: {len(self.dealing)} cards dealt"
        if game.finished:
            return f"{head} | game over, winner {game.winner}"
        pending = " | drawing" if self.pending_draw else ""
        return f"{head} | deal {len(game.deals) - 1} | {game.deal.fen()}{pending}"


def _face_weights(cards: int) -> list[tuple[int, float]]:
    """Chance outcomes: each face index of ``cards`` with its share of them."""
    if not cards & ~NATURAL_MASK:  # one copy of each: every card its own face
        share = 1.0 / cards.bit_count()
        fi = CARD_FACE_INDEX
        return [(fi[card], share) for card in iter_bits(cards)]
    counts: dict[int, int] = {}
    for card in iter_bits(cards):
        index = CARD_FACE_INDEX[card]
        counts[index] = counts.get(index, 0) + 1
    total = cards.bit_count()
    return [(index, counts[index] / total) for index in sorted(counts)]


class Setup:
    """What every state of one game shares: the rules, the actions, the pack."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.space = action_space(rules, players)
        self.pack = tuple(make_pack(rules.deck_count(players), rules.jokers_in_each_deck))
        self.pack_bits = Cards(self.pack).bits
        self.to_deal = cards_to_deal(rules, players)


@lru_cache(maxsize=32)
def game_setup(rules: Rules, players: int) -> Setup:
    return Setup(rules, players)


def _replay(rules: Rules, players: int, history: list[int]) -> Core:
    core = Core(game_setup(rules, players))
    for action in history:
        core.apply(action)
    return core
