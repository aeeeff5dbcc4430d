"""One error family: every refusal is a Rummy500Error (and a ValueError) with a stable code."""

from __future__ import annotations

import inspect
import pickle
from pathlib import Path

import pytest

import rummy500
from rummy500 import cards, deal, errors, melds, moves, record, rules
from rummy500.bots import BOT_NAMES, make_bot
from rummy500.cards import parse_face
from rummy500.errors import ERROR_CODES, Rummy500Error, error_code
from rummy500.game import Game
from rummy500.melds import classify
from rummy500.moves import parse_move
from rummy500.record import game_record, load, replay
from rummy500.rules import make_rules
from rummy500.runners import simulation, tournament
from rummy500.session import session, settings
from rummy500.session.saves import SaveStore
from rummy500.session.session import TableSession
from rummy500.session.settings import TableSettings

CLASSIC = make_rules("classic")


def package_errors() -> list[type[Rummy500Error]]:
    return [value for value in vars(errors).values()
            if inspect.isclass(value) and issubclass(value, Rummy500Error)]


def test_every_error_is_a_value_error_with_a_known_code() -> None:
    found = package_errors()
    assert len(found) >= 20
    for kind in found:
        assert issubclass(kind, ValueError)
        assert kind.code in ERROR_CODES, kind
        assert kind.__doc__


def test_every_code_but_the_servers_own_names_a_kind_of_error() -> None:
    codes = {kind.code for kind in package_errors()}
    assert set(ERROR_CODES) - codes == {"rate_limited", "internal"}


def test_the_old_homes_of_the_errors_give_the_same_classes() -> None:
    homes = [(cards, "CardError"), (moves, "InvalidMoveError"), (deal, "IllegalMoveError"),
             (melds, "MeldError"), (rules, "RulesError"), (record, "RecordFormatError"),
             (record, "ReplayError"), (simulation, "SimulationError"),
             (tournament, "TournamentError"), (settings, "SettingsError"),
             (session, "SessionError"), (rummy500, "IllegalMoveError")]
    for home, name in homes:
        assert getattr(home, name) is getattr(errors, name), (home.__name__, name)
    assert deal.RecordError is errors.DeckError


def code_of(action: object) -> str:
    assert callable(action)
    with pytest.raises(Rummy500Error) as caught:
        action()
    return caught.value.code


def a_game() -> Game:
    return Game(CLASSIC, 2, seed=7)


def test_each_refusal_has_its_code() -> None:
    assert code_of(lambda: parse_face("Zz")) == "bad_card"
    assert code_of(lambda: parse_move("frobnicate")) == "bad_move"
    assert code_of(lambda: a_game().play("discard Kc")) == "illegal"
    assert code_of(lambda: classify((1, 2, 40), CLASSIC)) == "bad_meld"
    assert code_of(lambda: make_rules("no-such-preset")) == "bad_rules"
    assert code_of(lambda: load("not json")) == "bad_record"
    assert code_of(lambda: TableSettings(budget=-1).check()) == "bad_settings"


def test_the_games_own_refusals_are_typed() -> None:
    assert code_of(lambda: Game(CLASSIC, 2, dealer=5)) == "bad_position"
    assert code_of(lambda: Game(CLASSIC, 2, auto_deal=False).deal) == "not_now"
    game = a_game()
    assert code_of(game.start_deal) == "not_now"
    assert code_of(lambda: Game(CLASSIC, 2, auto_deal=False).start_deal([1, 2, 3])) == "bad_deck"


def test_a_record_with_an_illegal_move_is_bad_replay() -> None:
    data = game_record(a_game())
    data["rounds"][0]["moves"] = ["discard Kc"]
    with pytest.raises(errors.ReplayError) as caught:
        replay(data)
    assert caught.value.code == "bad_replay"
    assert (caught.value.round, caught.value.move) == (0, 0)


def test_a_record_that_is_no_saved_game_is_bad_save(tmp_path: Path) -> None:
    data = game_record(a_game())
    with pytest.raises(errors.SaveError, match="not a saved game") as caught:
        TableSession.from_data(data)
    assert caught.value.code == "bad_save"
    with pytest.raises(record.RecordFormatError, match="no game in progress"):
        SaveStore(tmp_path).read()


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_bot_asked_out_of_turn_says_so(name: str) -> None:
    game = a_game()
    view = game.view(1 - game.turn)
    with pytest.raises(errors.NotYourTurnError):
        make_bot(name, 1, 0.05).decide(view)


def test_an_unknown_bot_is_bad_options() -> None:
    assert code_of(lambda: make_bot("grandmaster")) == "bad_options"
    assert code_of(lambda: make_bot("mcts", worlds=0)) == "bad_options"


def test_error_code_of_anything() -> None:
    assert error_code(errors.StaleError("the table moved on")) == "stale"
    assert error_code(errors.NotYourTurnError("wait for your turn")) == "not_your_turn"
    assert error_code(ValueError("x")) == "bad_input"
    assert error_code(KeyError("x")) == "internal"


def test_errors_cross_process_boundaries() -> None:
    replayed = pickle.loads(pickle.dumps(errors.ReplayError(1, 2, "no such card")))
    assert (replayed.round, replayed.move, replayed.reason) == (1, 2, "no such card")
    assert str(replayed) == "round 1, move 2: no such card"
    missing = pickle.loads(pickle.dumps(errors.MissingExtraError("tui", "textual", "play")))
    assert (missing.extra, missing.module, str(missing)) == (
        "tui", "textual", "play needs the [tui] extra (textual is not installed): "
        "pip install 'rummy500[tui]'")


def test_a_missing_extra_is_also_an_import_error() -> None:
    with pytest.raises(ImportError):
        raise errors.MissingExtraError("rl", "gymnasium")


# -- Game.is_legal and Game.copy ----------------------------------------------------------------


def test_is_legal_agrees_with_why_illegal() -> None:
    game = a_game()
    for text in ("draw", "take 8d", "discard Kc", "meld 7h 7d 7s", "nonsense"):
        assert game.is_legal(text) == (game.why_illegal(text) is None)
    assert [game.is_legal(move) for move in game.legal_moves()] == [True, True]


def test_a_copy_goes_its_own_way() -> None:
    game = a_game()
    game.play("draw")
    twin = game.copy()
    assert twin.deal is not game.deal and twin.rules is game.rules
    assert str(twin.view(twin.turn)) == str(game.view(game.turn))
    move = twin.legal_moves()[-1]
    twin.play(move)
    assert len(twin.deal.moves) == len(game.deal.moves) + 1
    game.play(move)
    assert twin.deal.fen() == game.deal.fen()
    assert twin.rng.getstate() == game.rng.getstate()
    assert twin.rng is not game.rng and twin.deal.rng is twin.rng
