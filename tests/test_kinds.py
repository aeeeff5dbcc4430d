"""The one vocabulary (rummy500.kinds): enums that are their notation text, and Move's check."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest

import rummy500
from rummy500 import Game, make_rules
from rummy500.errors import InvalidMoveError, Rummy500Error
from rummy500.kinds import DealEnd, MeldKind, MoveKind, Phase
from rummy500.legal import DRAW_PHASE, OVER, PLAY_PHASE, RUMMY_PHASE
from rummy500.melds import JOKER_SET, RUN, SET
from rummy500.moves import KINDS, Move, parse_move


def text(value: str) -> str:
    """A plain str (mypy sees an enum and a literal as never equal)."""
    return value


def test_move_kinds_are_their_notation_text() -> None:
    assert [str(kind) for kind in MoveKind] == [
        "draw", "take", "meld", "layoff", "discard", "end", "rummy meld", "rummy layoff", "pass",
    ]
    assert tuple(MoveKind) == KINDS
    assert text("rummy layoff") == MoveKind.RUMMY_LAYOFF
    assert json.dumps({"kind": MoveKind.TAKE}) == '{"kind": "take"}'
    assert {"draw": 1}[MoveKind.DRAW] == 1


def test_phases_endings_and_meld_kinds() -> None:
    assert tuple(Phase) == (DRAW_PHASE, PLAY_PHASE, RUMMY_PHASE, OVER)
    assert [str(p) for p in Phase] == ["draw", "play", "rummy", "over"]
    assert [str(e) for e in DealEnd] == ["went out", "stock", "declined", "idle"]
    assert (RUN, SET, JOKER_SET) == (0, 1, 2) == tuple(MeldKind)
    assert json.dumps([MeldKind.JOKER_SET, DealEnd.WENT_OUT]) == '[2, "went out"]'


def test_a_move_keeps_the_enum_whether_built_from_text_or_enum() -> None:
    assert Move("draw").kind is MoveKind.DRAW
    assert Move(MoveKind.DISCARD, (5,)).kind is MoveKind.DISCARD
    assert Move("discard", (5,)) == Move(MoveKind.DISCARD, (5,))
    assert parse_move("rummy meld 3c 4c 5c").kind is MoveKind.RUMMY_MELD
    move = parse_move("layoff 8h m2")
    assert repr(move) == "Move(kind='layoff', pieces=(40,), meld=2)"
    assert pickle.loads(pickle.dumps(move)) == move
    assert move._replace(meld=3) == Move("layoff", (40,), 3)


@pytest.mark.parametrize("kind", ["drew", "DRAW", "rummy", "", "rummy  meld", 3, None])
def test_a_move_of_an_unknown_kind_is_refused_at_construction(kind: object) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        Move(kind)  # type: ignore[arg-type]
    assert isinstance(caught.value, Rummy500Error)
    assert caught.value.code == "bad_move"
    assert "is not a move" in str(caught.value)


def test_replace_cannot_sneak_in_an_unknown_kind() -> None:
    with pytest.raises(InvalidMoveError):
        Move("draw")._replace(kind="drew")  # type: ignore[arg-type]


def test_a_game_reports_enums_that_equal_the_notation() -> None:
    game = Game(make_rules("classic"), players=2, seed=3)
    assert game.deal.phase is Phase.DRAW and game.deal.phase == text("draw")
    assert game.view(game.turn).phase is Phase.DRAW
    while not game.finished:
        game.play(game.legal_moves()[0])
    for result in game.results:
        assert isinstance(result.ended_by, DealEnd)
    for deal in game.deals:
        assert all(isinstance(move.kind, MoveKind) for move in deal.moves)
        assert all(isinstance(meld.kind, MeldKind) for meld in deal.melds)


ALLOWED = {"errors.py"}
"""The errors themselves: a class declared with an unknown code is a TypeError."""


def test_the_package_raises_its_own_typed_errors() -> None:
    root = Path(rummy500.__file__).parent
    bare = sorted(
        str(path.relative_to(root)) for path in root.rglob("*.py")
        if re.search(r"raise (ValueError|TypeError)\(", path.read_text(encoding="utf-8"))
    )
    assert set(bare) <= ALLOWED, bare


def test_an_error_class_names_its_code_once_and_only_a_known_one() -> None:
    from rummy500.errors import ERROR_CODES, CardError, NotNowError, SessionError

    assert CardError.code == "bad_card" and SessionError.code == NotNowError.code == "not_now"

    class Late(NotNowError, code="stale"):
        pass

    assert Late.code == "stale" and Late("x").code in ERROR_CODES
    with pytest.raises(TypeError, match="'made_up' is not one of ERROR_CODES"):
        class Bad(NotNowError, code="made_up"):
            pass
