"""Every refusal of the package: one base class, a typed subclass per kind, a stable code each.

Each error is a :class:`ValueError` (so ``except ValueError`` keeps working), its
message says what is wrong in a player's words, and its ``code`` names the kind of
refusal in a form that never changes (a server sends it; PROTOCOL.md's ``error``).

>>> from rummy500 import Game, make_rules
>>> game = Game(make_rules("classic"), players=2, seed=7)
>>> try:
...     game.play("discard Kc")
... except Rummy500Error as error:
...     print(error.code, "-", error)
illegal - draw first: the top card of the stock, or cards from the discard pile
>>> error_code(ValueError("anything else"))
'bad_input'
"""

from __future__ import annotations

from typing import Any, ClassVar

ERROR_CODES: dict[str, str] = {
    "bad_input": "input that cannot be read at all (not JSON, nested too deep, a huge number)",
    "too_large": "input larger than the package accepts",
    "bad_card": "text that is not a card",
    "bad_move": "text that is not a move",
    "illegal": "a move the rules do not allow now",
    "not_your_turn": "a move from a seat that is not the one to play",
    "stale": "a request made for a position the game has moved on from",
    "not_now": "something that cannot be done at this point of the game",
    "bad_deck": "a pack order or restock order that does not fit the game",
    "bad_meld": "cards that do not make the meld asked for",
    "bad_rules": "rules that cannot be played: an unknown preset or option, a bad value",
    "bad_position": "a position that cannot arise in a deal",
    "bad_record": "a game record that cannot be read",
    "bad_replay": "a game record with an illegal move",
    "bad_save": "a saved game that cannot be resumed",
    "bad_settings": "a table that cannot be set up as asked",
    "bad_options": "a run (simulation, tournament) that cannot be made as asked",
    "rate_limited": "requests sent faster than a connection may send them",
    "missing_extra": "a feature whose optional dependencies are not installed",
    "internal": "a fault of the program itself, not of what it was given",
}
"""Every refusal code, with what it means."""


class Rummy500Error(ValueError):
    """The base of every error the package raises on purpose; ``code`` names the kind.

    A subclass names its code in its bases (``class CardError(Rummy500Error,
    code="bad_card")``), one of :data:`ERROR_CODES`; without one it keeps its base's.
    """

    code: ClassVar[str] = "bad_input"

    def __init_subclass__(cls, code: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            if code not in ERROR_CODES:
                raise TypeError(f"{cls.__name__}: {code!r} is not one of ERROR_CODES")
            cls.code = code


class BadInputError(Rummy500Error, code="bad_input"):
    """Input that cannot be read at all: not JSON, nested too deep, a number too long."""


class NotJSONError(BadInputError):
    """Text that is not JSON at all."""


class TooLargeError(BadInputError, code="too_large"):
    """Input larger than the package accepts; refused before it is read whole."""


class CardError(Rummy500Error, code="bad_card"):
    """Text that is not a card."""


class InvalidMoveError(Rummy500Error, code="bad_move"):
    """Text that is not a move at all (whatever the position)."""


class IllegalMoveError(Rummy500Error, code="illegal"):
    """A well-formed move that the rules do not allow now; the message says why."""


class NotYourTurnError(IllegalMoveError, code="not_your_turn"):
    """A move sent for a seat that is not the one the game waits for."""


class NotNowError(Rummy500Error, code="not_now"):
    """Something that cannot be done at this point of the game (no deal yet, game over)."""


class StaleError(NotNowError, code="stale"):
    """A request made for a position the game has since moved on from."""


class DeckError(Rummy500Error, code="bad_deck"):
    """A pack order or restock order that does not fit the game."""


RecordError = DeckError
"""The older name of :class:`DeckError`."""


class MeldError(Rummy500Error, code="bad_meld"):
    """Cards that do not make the meld asked for; the message says why."""


class RulesError(Rummy500Error, code="bad_rules"):
    """Rules that cannot be played: an unknown preset or option, a value of the wrong type."""


class PositionError(Rummy500Error, code="bad_position"):
    """A position that cannot arise in a deal (a dealer who is not a seat, …)."""


class RecordFormatError(Rummy500Error, code="bad_record"):
    """A record that cannot be read at all (not JSON, a missing field, a wrong pack)."""


class PadError(RecordFormatError):
    """A score pad that cannot be right (a card more often than the packs hold, a meld that
    is not one, a lay-off that does not fit): which deal, which seat, which card."""


class SaveError(RecordFormatError, code="bad_save"):
    """A saved game that cannot be resumed."""


class SaveInUseError(NotNowError):
    """A folder of saved games that another program is keeping (the game is open there)."""


class ReplayError(Rummy500Error, code="bad_replay"):
    """A record whose move ``move`` of round ``round`` is illegal."""

    def __init__(self, round_index: int, move_index: int, reason: str) -> None:
        super().__init__(f"round {round_index}, move {move_index}: {reason}")
        self.round = round_index
        self.move = move_index
        self.reason = reason

    def __reduce__(self) -> tuple[type[ReplayError], tuple[int, int, str]]:
        return (type(self), (self.round, self.move, self.reason))


class SettingsError(Rummy500Error, code="bad_settings"):
    """A table that cannot be set up as asked; the message says why."""


class SessionError(NotNowError):
    """Something a session cannot do now (undo in a game between people, a bot's bad move)."""


class OptionsError(Rummy500Error, code="bad_options"):
    """A simulation or tournament that cannot be run as asked (a bad bot name, count, …)."""


class SimulationError(OptionsError):
    """A simulation that cannot be run as asked (bad bot name, bad option, a bot's bad move)."""


class TournamentError(OptionsError):
    """A tournament that cannot be run as asked, or a bot that broke the rules."""


class SprtError(OptionsError):
    """A stopping rule (``--sprt ELO0,ELO1``) that cannot be used as given."""


class MissingExtraError(Rummy500Error, ImportError, code="missing_extra"):
    """A feature needs an optional dependency (an extra) that is not installed.

    Also an :class:`ImportError`, since it stands for one.
    """

    def __init__(self, extra: str, module: str, feature: str | None = None) -> None:
        self.extra = extra
        self.module = module
        self.feature = feature
        who = feature if feature is not None else "this"
        super().__init__(f"{who} needs the [{extra}] extra ({module} is not installed): "
                         f"{install_hint(extra)}")

    def __reduce__(self) -> tuple[type[MissingExtraError], tuple[str, str, str | None]]:
        return (type(self), (self.extra, self.module, self.feature))


def install_hint(extra: str) -> str:
    return f"pip install 'rummy500[{extra}]'"


def error_code(error: BaseException) -> str:
    """The refusal code of ``error``: its own for the package's errors, else ``bad_input``
    for a :class:`ValueError` or :class:`TypeError` and ``internal`` for anything else."""
    if isinstance(error, Rummy500Error):
        return error.code
    if isinstance(error, ValueError | TypeError):
        return "bad_input"
    return "internal"


__all__ = [
    "ERROR_CODES",
    "BadInputError",
    "CardError",
    "DeckError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MeldError",
    "MissingExtraError",
    "NotJSONError",
    "NotNowError",
    "NotYourTurnError",
    "OptionsError",
    "PadError",
    "PositionError",
    "RecordError",
    "RecordFormatError",
    "ReplayError",
    "RulesError",
    "Rummy500Error",
    "SaveError",
    "SaveInUseError",
    "SessionError",
    "SettingsError",
    "SimulationError",
    "SprtError",
    "StaleError",
    "TooLargeError",
    "TournamentError",
    "error_code",
    "install_hint",
]
