"""500 Rum as an OpenSpiel game: ``import rummy500.rl.openspiel`` registers ``python_rummy500``.

Parameters: ``players`` (2), ``preset`` ("classic"), ``max_deals`` (0: as the
rule set says, or 100 when it sets no limit, so that every game is finite) and
``options`` (more rule options, ``"name:value;name:value"``).
Player actions are the :class:`~rummy500.rl.actions.ActionSpace` numbers.
Chance is explicit: the first dealer (outcome = seat), every card dealt (one
card at a time, as the rules deal, then the up-card) and every stock draw,
reshuffled stock included (outcome = the face index of the card, each face
weighted by how many of its cards are left). Returns come at the end of the
game: 1 to the winning side's seats, ``-1 / (sides - 1)`` to the others, 0 in
a drawn game. Information-state strings have perfect recall; the observation
tensor is the :class:`~rummy500.rl.observation.ObservationEncoder` vector.

>>> import pyspiel, rummy500.rl.openspiel
>>> game = pyspiel.load_game("python_rummy500", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 2)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..commands.extras import require

require("rl", "pyspiel", feature="rummy500.rl.openspiel")

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from .. import rules
from ..cards import NATURAL_MASK, card_for_face, face_of, face_str, iter_bits, make_pack
from ..errors import DeckError, NotNowError, SettingsError
from ..game import Game
from ..moves import DRAW, Move
from ..rules import Rules, make_rules
from ..view import PlayerView
from .actions import CARD_FACE_INDEX, action_space, index_face
from .observation import observation_encoder
from .rewards import game_rewards

SHORT_NAME = "python_rummy500"
MAX_PLAYERS = 8
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
DEAL_LIMIT = 100
"""The deal limit of a game whose rules set none (a deal can score below zero, so a game
to a target score alone could last for ever); the highest total then wins."""

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python 500 Rum",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "preset": "classic", "max_deals": 0, "options": ""},
)


def parse_options(text: str) -> dict[str, Any]:
    """Rule options from ``"name:value;name:value"`` (values as on the command line)."""
    return rules.parse_options([text], assign=":")


def max_actions_per_deal(rules: Rules, players: int) -> int:
    """A bound on the player actions of one deal.

    Stock draws (at most two packs' worth, with one reshuffle) and cards put on
    the table (at most a pack) are the only progress, and a deal ends after
    ``10 * players`` turns without any; a turn is a draw, a discard and up to
    ``players - 1`` rummy passes, plus its melds, lay-offs and claims, each of
    which puts a card or more on the table.
    """
    pack = rules.pack_size(players)
    turns = (3 * pack + 1) * 10 * players
    return turns * (players + 1) + 2 * pack


class Rummy500Game(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game object (made by ``pyspiel.load_game("python_rummy500", ...)``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        preset = str(params.get("preset", "classic"))
        max_deals = int(params.get("max_deals", 0))
        options = parse_options(str(params.get("options", "")))
        if max_deals > 0:
            options["max_deals"] = max_deals
        rules = make_rules(preset, **options)
        if rules.max_deals is None:
            options["max_deals"] = DEAL_LIMIT
            rules = make_rules(preset, **options)
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.setup = _setup(rules, players)
        self.space = self.setup.space
        assert rules.max_deals is not None
        deals = rules.max_deals
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=self.space.faces,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_actions_per_deal(rules, players) * deals,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> Rummy500State:
        return Rummy500State(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Rummy500Observer:
        if params:
            raise SettingsError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        private = iig_obs_type is None or (
            iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)
        if iig_obs_type is not None and (
                iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS):
            raise SettingsError("500 Rum has no observation of every player's private cards")
        return Rummy500Observer(self, perfect_recall, private)


class _Core:
    """The state's data: the engine's game, the action history and what each seat saw.

    Kept in one attribute so that OpenSpiel's clone (a deepcopy of each
    attribute) is a cheap structural copy, and serialization is the history.
    """

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.players = setup.players
        self.space = setup.space
        self.pack = setup.pack
        self.pack_bits = setup.pack_bits
        self.to_deal = setup.to_deal
        self.game: Game | None = None
        self.dealing: list[int] | None = None
        """Cards dealt so far while a deal is being dealt (None otherwise)."""
        self.undealt = self.pack_bits
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

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        twin = object.__new__(_Core)
        twin.__dict__.update(self.__dict__)
        twin.history = list(self.history)
        twin.log = list(self.log)
        twin.events = list(self.events)
        twin.departed = dict(self.departed)
        twin.holding = dict(self.holding)
        twin.dealing = None if self.dealing is None else list(self.dealing)
        twin.game = None if self.game is None else _copy_game(self.game)
        twin.views = {}
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, (self.rules, self.players, list(self.history)))

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
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        if self.dealing is not None:
            return _face_weights(self.undealt)
        cards = 0
        for card in game.deal.stock:
            cards |= 1 << card
        return _face_weights(cards)

    def legal_actions(self) -> list[int]:
        if self.legal is None:
            game = self.game
            assert game is not None
            view = self.view(game.deal.turn)
            assert view is not None
            self.legal = self.space.actions(view.legal_moves())
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
            self.game = Game(self.rules, self.players, seed=0, dealer=action, auto_deal=False)
            self._begin_dealing()
        elif self.dealing is not None:
            self._deal_card(index, action)
        elif self.pending_draw:
            self._draw(index, action)
        else:
            self._play(index, game, self.space.decode(action))
        self.player = self._find_player()

    def _begin_dealing(self) -> None:
        game = self.game
        assert game is not None
        self.dealing = []
        self.undealt = self.pack_bits
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
        if len(dealing) == self.to_deal:
            self.log.append((-1, f"up {text}"))
            rest = [c for c in self.pack if self.undealt >> c & 1]
            self.dealing = None
            game.start_deal(dealing + rest)
            return
        seat = (game.next_dealer() + 1 + len(dealing) - 1) % self.players
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


class _Setup:
    """What every state of one game shares: the rules, the actions, the pack."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.space = action_space(rules, players)
        self.pack = tuple(make_pack(rules.deck_count(players), rules.jokers_in_each_deck))
        bits = 0
        for card in self.pack:
            bits |= 1 << card
        self.pack_bits = bits
        self.to_deal = rules.cards_dealt(players) * players + 1


@lru_cache(maxsize=32)
def _setup(rules: Rules, players: int) -> _Setup:
    return _Setup(rules, players)


def _copy_game(game: Game) -> Game:
    """An independent copy of a game (finished deals are shared: they never change)."""
    twin = object.__new__(Game)
    twin.__dict__.update(game.__dict__)
    for name, value in game.__dict__.items():
        if isinstance(value, list):
            twin.__dict__[name] = list(value)
    twin._stack = []
    if twin.deals and not twin.deals[-1].over:
        twin.deals[-1] = twin.deals[-1].copy()
    return twin


def _replay(rules: Rules, players: int, history: list[int]) -> _Core:
    core = _Core(_setup(rules, players))
    for action in history:
        core.apply(action)
    return core


class Rummy500State(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_rummy500``."""

    def __init__(self, game: Rummy500Game) -> None:
        super().__init__(game)
        self._core = _Core(game.setup)

    def current_player(self) -> int:
        return self._core.player

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE:
            if core.game is None:
                return f"first dealer {action}"
            what = "deal" if core.dealing is not None else "draw"
            return f"{what} {face_str(index_face(action))}"
        return core.space.to_text(action)

    def is_terminal(self) -> bool:
        game = self._core.game
        return game is not None and game.finished

    def returns(self) -> list[float]:
        core = self._core
        game = core.game
        if game is None or not game.finished:
            return [0.0] * core.players
        return game_rewards(core.rules, core.players, game.winner)

    @property
    def engine(self) -> Game | None:
        """The engine's game (None until the first dealer is drawn); do not change it."""
        return self._core.game

    def view(self, seat: int) -> PlayerView:
        """The engine's view of ``seat`` (for rummy500's own bots)."""
        view = self._core.view(seat)
        if view is None:
            raise NotNowError("no deal has been dealt yet")
        return view

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state with the same information state for ``player_id``, hidden cards redrawn."""
        history = self._core.resampled_history(player_id, probability_sampler)
        state = self.get_game().new_initial_state()
        for action in history:
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        return str(self._core)


class Rummy500Observer:
    """OpenSpiel observer: the observation vector and text, or the perfect-recall text."""

    def __init__(self, game: Rummy500Game, perfect_recall: bool, private: bool) -> None:
        self.perfect_recall = perfect_recall
        self.private = private
        self.encoder = observation_encoder(game.rules, game.players)
        self.tensor: np.ndarray[Any, Any] | None
        self.dict: dict[str, np.ndarray[Any, Any]]
        if perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(self.encoder.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: Rummy500State, player: int) -> None:
        if self.tensor is None:
            return
        view = state._core.view(player)
        if view is None:
            self.tensor.fill(0.0)
            return
        if not self.private:
            view = _without_hand(view)
        self.tensor[:] = self.encoder.encode(view)

    def string_from(self, state: Rummy500State, player: int) -> str:
        core = state._core
        if self.perfect_recall:
            if not self.private:
                return " ".join(text for who, text in core.log if who < 0)
            return core.information_state(player)
        view = core.view(player)
        if view is None:
            return f"p{player}"
        return _view_text(view if self.private else _without_hand(view))


def _without_hand(view: PlayerView) -> PlayerView:
    return dataclasses.replace(view, hand=0)


def _view_text(view: PlayerView) -> str:
    def cards(bits: int) -> str:
        return " ".join(face_str(face_of(c)) for c in iter_bits(bits)) or "-"

    pile = " ".join(face_str(face_of(c)) for c in view.pile) or "-"
    melds = " ".join(f"{m.name}[{m.describe()}]" for m in view.melds) or "-"
    known = "/".join(cards(k) for k in view.known)
    return (f"p{view.seat} {view.phase} turn {view.turn} | hand {cards(view.hand)} | "
            f"pile {pile} | table {melds} | known {known} | sizes {list(view.hand_sizes)} | "
            f"stock {view.stock_count} | totals {list(view.totals)}")


pyspiel.register_game(_GAME_TYPE, Rummy500Game)
