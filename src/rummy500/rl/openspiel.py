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
from typing import Any

from ..extras import require

require("rl", "pyspiel", feature="rummy500.rl.openspiel")

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from .. import rules
from ..cards import face_of, face_str, iter_bits
from ..errors import NotNowError, SettingsError
from ..game import Game
from ..rules import Rules, make_rules
from ..view import PlayerView
from .actions import index_face
from .observation import observation_encoder
from .openspiel_core import CHANCE as CHANCE
from .openspiel_core import TERMINAL as TERMINAL
from .openspiel_core import Core, game_setup
from .rewards import game_rewards

SHORT_NAME = "python_rummy500"
MAX_PLAYERS = 8
DEAL_LIMIT = rules.DEAL_LIMIT
"""The deal limit of a game whose rules set none: the engine's (a deal can score below
zero, so a game to a target score alone could last for ever); the highest total then
wins. Set as ``max_deals``, so that OpenSpiel knows the longest game."""

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
        self.setup = game_setup(rules, players)
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


class Rummy500State(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_rummy500``."""

    def __init__(self, game: Rummy500Game) -> None:
        super().__init__(game)
        self._core = Core(game.setup)

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
        return core.setup.space.to_text(action)

    def is_terminal(self) -> bool:
        game = self._core.game
        return game is not None and game.finished

    def returns(self) -> list[float]:
        core = self._core
        game = core.game
        if game is None or not game.finished:
            return [0.0] * core.setup.players
        return game_rewards(core.setup.rules, core.setup.players, game.winner)

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
