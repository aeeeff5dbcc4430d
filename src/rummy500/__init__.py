"""rummy500: 500 Rum (500 Rummy, Pinochle Rummy), Partnership 500 Rum and Persian Rummy.

>>> from rummy500 import Game, make_rules
>>> game = Game(make_rules("classic"), players=2, seed=7)
>>> str(game.legal_moves()[0])
'draw'
"""

from .cards import CardError, Cards, face_pretty, face_str, parse_face
from .deal import Deal, DealResult, IllegalMoveError, RecordError
from .errors import ERROR_CODES, Rummy500Error, error_code
from .game import Game
from .legal import DRAW_PHASE, OVER, PLAY_PHASE, RUMMY_PHASE
from .melds import Meld, MeldError
from .moves import InvalidMoveError, Move, parse_move
from .record import RecordFormatError, ReplayError, game_record, replay, replay_summary
from .rules import PRESETS, Rules, RulesError, find_preset, make_rules
from .view import PlayerView, view_of

__version__ = "0.1.0"
"""The version, in this one place (pyproject.toml reads it from here)."""

__all__ = [
    "DRAW_PHASE",
    "ERROR_CODES",
    "OVER",
    "PLAY_PHASE",
    "PRESETS",
    "RUMMY_PHASE",
    "CardError",
    "Cards",
    "Deal",
    "DealResult",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Meld",
    "MeldError",
    "Move",
    "PlayerView",
    "RecordError",
    "RecordFormatError",
    "ReplayError",
    "Rules",
    "RulesError",
    "Rummy500Error",
    "error_code",
    "face_pretty",
    "face_str",
    "find_preset",
    "game_record",
    "make_rules",
    "parse_face",
    "parse_move",
    "replay",
    "replay_summary",
    "view_of",
]
