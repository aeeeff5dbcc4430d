"""The table session under ``rummy500 play`` (front-end neutral): set-up, moves and refusals,
computer players' turns, undo, hints, the seat's state and the log, saving and resuming."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummy500.bots import BOT_NAMES
from rummy500.cards import face_of, face_str
from rummy500.moves import DISCARD, DRAW, LAYOFF, MELD, TAKE, Move
from rummy500.narrate import verb
from rummy500.record import RecordFormatError, ReplayError, game_record, replay
from rummy500.session.saves import DATA_ENV, SaveStore, data_dir
from rummy500.session.seat_state import SeatState
from rummy500.session.session import Made, SessionError, TableSession
from rummy500.session.settings import (
    BOT_PREFERENCE,
    PERSON,
    SettingsError,
    TableSettings,
    default_bot,
    default_settings,
    parse_options,
    parse_seats,
)
from rummy500.session.sheets import deal_sheet
from rummy500.session.state import build_state
from rummy500.session.table_words import TableWords
from rummy500.session.undo_rule import SHOWN_KINDS
from rummy500.view import PlayerView

ONE_DEAL = {"max_deals": 1}


def quick(preset: str = "classic", **kwargs: Any) -> TableSettings:
    """A set-up whose game ends after one deal, against random players."""
    options = {**ONE_DEAL, **kwargs.pop("options", {})}
    return default_settings(preset, options, bot=kwargs.pop("bot", "random"),
                            seed=kwargs.pop("seed", 5), budget=0.05, **kwargs)


def person_move(view: PlayerView, rng: random.Random) -> Move:
    """A person who melds and lays off what they can and otherwise draws and discards."""
    moves = view.legal_moves()
    table = [m for m in moves if m.kind in (MELD, LAYOFF)]
    if table and rng.random() < 0.8:
        return rng.choice(table)
    takes = [m for m in moves if m.kind == TAKE]
    if takes and rng.random() < 0.2:
        return rng.choice(takes)
    for kind in (DRAW, DISCARD):
        chosen = [m for m in moves if m.kind == kind]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(moves)


def play_until(session: TableSession, rng: random.Random, *, moves: int | None = None) -> None:
    """Play people's moves (from :func:`person_move`) and computer players' moves."""
    made = 0
    while not session.finished and (moves is None or made < moves):
        seat = session.to_move
        assert seat is not None
        if session.is_person(seat):
            reason = session.play(seat, person_move(session.view(seat), rng))
            assert reason is None
        else:
            turn = session.bot_turn()
            assert turn is not None
            session.apply_bot(turn, turn.decide())
        made += 1


# -- set-up ---------------------------------------------------------------------------------------


def test_play_alone_is_you_against_the_strongest_computer_player() -> None:
    settings = default_settings()
    strongest = next(name for name in BOT_PREFERENCE if name in BOT_NAMES)
    assert default_bot() == strongest
    assert settings.seats == (PERSON, strongest)
    assert settings.preset == "classic"
    assert settings.seat_names() == ["You", strongest.capitalize()]


def test_seat_names_for_several_people_and_several_computer_players() -> None:
    settings = default_settings(players=4, people=2, bot="random")
    assert settings.seats == (PERSON, PERSON, "random", "random")
    assert settings.seat_names() == ["Player 1", "Player 2", "Random 1", "Random 2"]
    named = TableSettings(seats=(PERSON, "random"), names=("Ann",))
    assert named.seat_names() == ["Ann", "Random"]


def test_two_people_in_a_partnership_sit_opposite() -> None:
    settings = default_settings("partnership", people=2, bot="random")
    assert settings.seats == (PERSON, "random", PERSON, "random")
    assert settings.rules().sides(4) == 2


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        (TableSettings(seats=(PERSON, "nobody")), "unknown computer player 'nobody'"),
        (TableSettings(preset="partnership", seats=(PERSON, "random", "random")),
         "exactly four players"),
        (TableSettings(options={"min_run": 1}), "min_run"),
        (TableSettings(seats=(PERSON, "random"), names=("Ann", "Ann")), "same name"),
        (TableSettings(seats=(PERSON,)), "2 to 8 players"),
    ],
)
def test_a_set_up_that_cannot_be_played_is_refused_with_the_reason(
    settings: TableSettings, words: str
) -> None:
    with pytest.raises(SettingsError, match=words):
        settings.check()


def test_seats_and_options_from_the_command_line() -> None:
    assert parse_seats("me, Expert ,person,simple") == (PERSON, "expert", PERSON, "simple")
    assert parse_options(["target_score=300", "rummy_calls=true,min_run=4"]) == {
        "target_score": 300, "rummy_calls": True, "min_run": 4}
    with pytest.raises(SettingsError, match="NAME=VALUE"):
        parse_options(["target_score"])


def test_save_folder_choice(tmp_path: Path) -> None:
    assert data_dir(tmp_path / "x", {DATA_ENV: "/elsewhere"}) == tmp_path / "x"
    assert data_dir(None, {DATA_ENV: "/elsewhere"}) == Path("/elsewhere")
    assert data_dir(None, {"XDG_DATA_HOME": "/xdg"}) == Path("/xdg/rummy500")
    assert data_dir(None, {}).parts[-3:] == (".local", "share", "rummy500")


# -- moves ----------------------------------------------------------------------------------------


def test_a_refused_move_gives_the_engines_reason_and_changes_nothing(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    session = TableSession.new(quick(seed=11), store)
    play_until(session, random.Random(1), moves=0)
    while not session.person_to_move:
        turn = session.bot_turn()
        assert turn is not None
        session.apply_bot(turn, turn.decide())
    seat = session.people[0]
    record, log, saved = game_record(session.game), session.log(seat), store.current.read_text()
    hand = next(iter(session.view(seat).hand_cards))
    move = f"discard {face_str(face_of(hand))}"
    expected = session.view(seat).why_illegal(move)
    assert expected is not None and expected.startswith("draw first")
    assert session.play(seat, move) == expected
    assert session.play(seat, "meld 7x") is not None  # not a move at all
    assert session.play(1 - seat, "draw") is not None  # a computer player's seat
    assert game_record(session.game) == record
    assert session.log(seat) == log
    assert store.current.read_text() == saved


def test_computer_players_play_a_whole_game_and_the_save_becomes_the_last_game(
    tmp_path: Path,
) -> None:
    store = SaveStore(tmp_path)
    settings = default_settings("classic", ONE_DEAL, seats=("random", "random"), seed=3)
    session = TableSession.new(settings, store)
    assert store.exists()
    play_until(session, random.Random(0))
    assert session.finished
    assert not store.exists() and store.last.is_file()
    assert replay(json.loads(store.last.read_text())).finished
    log = session.log(None)
    assert log[0].startswith("Deal 1:")
    assert any(line.startswith("Deal 1 is over") for line in log)
    assert log[-1] == deal_sheet(session.game, session.names, 0, None).standing
    assert "wins the game" in log[-1] or "draw" in log[-1]


def test_the_same_seed_deals_and_plays_the_same_game() -> None:
    first = TableSession.new(quick(seed=21))
    second = TableSession.new(quick(seed=21))
    play_until(first, random.Random(4))
    play_until(second, random.Random(4))
    assert game_record(first.game) == game_record(second.game)


# -- undo and hints -------------------------------------------------------------------------------


def reach_a_discard(session: TableSession, rng: random.Random) -> Move | None:
    """Play on to the person's next chance to discard; a discard they may make (None: the
    game ended first)."""
    seat = session.people[0]
    discards: list[Move] = []
    while not discards:
        if session.finished:
            return None
        play_until(session, rng, moves=1)
        if session.person_to_move and session.game.deal.phase == "play":
            discards = [m for m in session.view(seat).legal_moves() if m.kind == DISCARD]
    return discards[0]


def discard_and_wait(session: TableSession, discard: Move,
                     rng: random.Random) -> list[Made]:
    """Make the person's discard; the computer players' moves up to the person's next turn."""
    assert session.play(session.people[0], discard) is None
    mark = len(session.made)
    while not session.person_to_move and not session.game.finished:
        play_until(session, rng, moves=1)
    return session.made[mark:]


def test_undo_takes_back_the_persons_meld_in_their_own_turn() -> None:
    """In the person's turn, a meld (a lay-off, a take) is taken back alone: nothing was
    seen since. Their discard is not, once the computer player has replied (below)."""
    for seed in range(40):
        session = TableSession.new(quick(seed=seed))
        rng = random.Random(seed)
        seat = session.people[0]
        while not session.game.finished and len(session.game.deals) == 1:
            if not session.person_to_move:
                play_until(session, rng, moves=1)
                continue
            melds = [m for m in session.view(seat).legal_moves() if m.kind == MELD]
            if not melds:
                play_until(session, rng, moves=1)
                continue
            before = game_record(session.game)
            fen, log, state = session.game.deal.fen(), session.log(seat), session.state(seat)
            assert session.play(seat, melds[0]) is None
            assert session.undo_refusal() is None
            taken = session.undo()
            assert [(made.seat, made.move) for made in taken] == [(seat, melds[0])]
            assert game_record(session.game) == before
            assert session.game.deal.fen() == fen
            assert session.log(seat) == log
            assert session.state(seat) == state  # the history told again, word for word
            return
    pytest.fail("no position where the person could meld")


def test_undo_stops_where_a_computer_player_showed_cards() -> None:
    """A take from the pile, a meld, a lay-off and a discard show cards of its hand: the
    person's move before them stands (issue 30: a discard taken back came again)."""
    for seed in range(40):
        session = TableSession.new(quick(seed=seed))
        rng = random.Random(seed)
        while not session.game.finished:
            discard = reach_a_discard(session, rng)
            if discard is None:
                break
            replies = discard_and_wait(session, discard, rng)
            shown = [r for r in replies if r.move.kind in SHOWN_KINDS]
            if session.game.finished or len(session.game.deals) > 1 or not shown:
                continue
            record = game_record(session.game)
            name = session.names[shown[0].seat]
            assert session.undo_refusal() == (
                f"{name} has since shown cards ({shown[0].move}), so your discard cannot be "
                "taken back: you have seen them")
            with pytest.raises(SessionError):
                session.undo()
            assert game_record(session.game) == record
            return
    pytest.fail("no position where the computer player took from the pile or melded")


def test_a_stock_draw_cannot_be_taken_back_once_the_card_is_seen() -> None:
    session = TableSession.new(quick(seed=8))
    rng = random.Random(2)
    seat = session.people[0]
    while not (session.person_to_move and session.game.deal.phase == "draw"
               and session.game.deal.stock):
        play_until(session, rng, moves=1)
    record = game_record(session.game)
    assert session.play(seat, "draw") is None
    assert session.undo_refusal() == (
        "a card drawn from the stock cannot be taken back: you have seen it")
    with pytest.raises(SessionError):
        session.undo()
    assert game_record(session.game)["rounds"][-1]["moves"] == (
        record["rounds"][-1]["moves"] + ["draw"])


def test_no_undo_between_people_nor_before_the_first_move() -> None:
    people = TableSession.new(default_settings(seats=(PERSON, PERSON), seed=1))
    assert people.undo_refusal() == "moves are taken back only in a game against computer players"
    with pytest.raises(SessionError):
        people.undo()
    alone = TableSession.new(quick(seed=1))
    while not alone.person_to_move:
        play_until(alone, random.Random(0), moves=1)
    assert alone.undo_refusal() == "there is no move of yours to take back in this deal"


def test_a_hint_is_a_legal_move_with_its_reason() -> None:
    session = TableSession.new(quick(seed=13))
    while not session.person_to_move:
        play_until(session, random.Random(0), moves=1)
    seat = session.people[0]
    decision = session.hint_turn(seat).decide()
    assert decision.move in session.view(seat).legal_moves()
    assert decision.reason
    assert session.hint_turn(seat).decide() == decision  # the same position, the same hint


def test_a_computer_players_stale_or_illegal_decision_is_refused() -> None:
    session = TableSession.new(default_settings(seats=("random", "random"), seed=2))
    turn = session.bot_turn()
    assert turn is not None
    decision = turn.decide()
    with pytest.raises(SessionError, match="illegal"):
        session.apply_bot(turn, decision._replace(move=Move(DISCARD, (1,))))
    session.apply_bot(turn, decision)
    with pytest.raises(SessionError, match="moved on"):
        session.apply_bot(turn, decision)


# -- saving and resuming --------------------------------------------------------------------------


def test_resume_continues_exactly_including_the_deals_still_to_come(tmp_path: Path) -> None:
    settings = quick(options={"max_deals": 3}, seed=17)
    store = SaveStore(tmp_path)
    session = TableSession.new(settings, store)
    rng = random.Random(9)
    while len(session.game.deals) < 2 or len(session.game.deal.moves) < 5:
        play_until(session, rng, moves=1)
    resumed = TableSession.resume(store)
    assert game_record(resumed.game) == game_record(session.game)
    assert resumed.game.deal.fen() == session.game.deal.fen()
    assert resumed.game.totals == session.game.totals
    assert resumed.settings == session.settings
    state = rng.getstate()
    play_until(session, rng)
    rng.setstate(state)
    play_until(resumed, rng)
    assert resumed.finished
    assert game_record(resumed.game) == game_record(session.game)


def test_undo_works_after_resuming(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    session = TableSession.new(quick(seed=31), store)
    rng = random.Random(3)
    while not (session.person_to_move and session.undo_refusal() is None):
        play_until(session, rng, moves=1)
    resumed = TableSession.resume(store)
    assert resumed.undo_refusal() is None
    resumed.undo()
    session.undo()
    assert game_record(resumed.game) == game_record(session.game)


def test_a_bad_save_is_refused_with_the_reason(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    with pytest.raises(RecordFormatError, match="no game in progress"):
        store.read()
    session = TableSession.new(quick(seed=4), store)
    data = session.to_data()
    del data["table"]
    with pytest.raises(RecordFormatError, match="not a saved game"):
        TableSession.from_data(data)
    data = session.to_data()
    data["rounds"][-1]["moves"].append("discard Kc")
    with pytest.raises(ReplayError):
        TableSession.from_data(data)
    data = session.to_data()
    data["table"]["seats"] = ["random", "nobody"]
    with pytest.raises(SettingsError, match="nobody"):
        TableSession.from_data(data)


# -- words ----------------------------------------------------------------------------------------


def test_moves_are_told_to_you_in_the_second_person() -> None:
    assert verb("You", "draws") == "draw"
    assert verb("You", "lays off") == "lay off"
    assert verb("Expert", "lays off") == "lays off"


def test_the_deal_sheet_adds_up() -> None:
    session = TableSession.new(quick("partnership", options={"max_deals": 2}, seed=6))
    play_until(session, random.Random(6))
    game = session.game
    sheets = session.state(0).deals
    assert len(sheets) == len(game.results) == 2
    for index, sheet in enumerate(sheets):
        assert sheet == deal_sheet(game, session.names, index, 0)
        assert [sum(line.points for line in sheet.side_lines(side)) for side in (0, 1)] == list(
            sheet.scores)
        assert sheet.sides[0] == "You & Random 2"
        if index == 0:  # who leads, not who won: the game goes on
            assert not sheet.last and "the game" not in sheet.standing
    last = sheets[-1]
    assert list(last.totals_after) == game.totals
    assert last.last and ("win" in last.standing or "draw" in last.standing)


# -- the seat's state and the log -----------------------------------------------------------------


def test_the_sessions_state_is_the_one_the_server_builds_for_that_seat() -> None:
    session = TableSession.new(quick(options={"max_deals": 2}, seed=12))
    rng = random.Random(12)
    while len(session.game.deals) < 2 or len(session.game.deal.moves) < 6:
        play_until(session, rng, moves=1)
    for reader in (0, 1, None):
        mine = session.state(reader)
        told = TableWords.of_game(session.game, session.names)
        assert mine == build_state(session.game, reader, session.seat_infos(), told)
        assert SeatState.from_json(json.loads(json.dumps(mine.to_json()))) == mine
    assert [info.kind for info in session.state(0).seats] == ["person", "bot"]
    drawn = [entry for entry in session.state(0).history if entry.drawn is not None]
    assert all(entry.seat == 0 for entry in drawn)
    assert not any(entry.drawn for entry in session.state(1).history if entry.seat == 0)


def test_the_log_keeps_the_move_that_ended_a_deal_before_its_sheet() -> None:
    session = TableSession.new(quick(options={"max_deals": 2}, seed=14))
    play_until(session, random.Random(14))
    game = session.game
    for reader in (0, None):
        log = session.log(reader)
        told = session.histories(reader)[1]
        assert told[0].text == log[0] and told[0].deal == 1
        assert told[-1].move == str(game.deals[0].moves[-1])
        sheet = session.state(reader).deals[0]
        at = len(told)
        assert log[:at + 2] == [*(entry.text for entry in told), sheet.text, sheet.standing]
        assert log[at + 2].startswith("Deal 2: ")
    mine = [line for line in session.log(0) if line.startswith("You draw ")]
    assert any(line != "You draw from the stock" for line in mine)  # your card, named to you
    assert not any(line.startswith("You draw ") for line in session.log(None))  # nor to all
