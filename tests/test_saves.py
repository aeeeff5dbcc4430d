"""The saved game of ``rummy500 play`` (issue 9, items 2, 4 and 9): the deck is out of plain
sight, a save that fails its integrity check is refused and kept aside (never written
over), a game saved after a reshuffle resumes, writes reach the disk, one program at a
time keeps a folder, and a folder that cannot be written does not stop the game."""

from __future__ import annotations

import argparse
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from rummy500.commands.play import add_arguments, prepare
from rummy500.errors import SaveError, SaveInUseError
from rummy500.record import game_record
from rummy500.session.saves import CURRENT, SaveStore, seal, unseal
from rummy500.session.session import TableSession
from rummy500.session.settings import PERSON, TableSettings, default_settings


def hot_seat(preset: str = "classic", seed: int = 1, **options: Any) -> TableSettings:
    return default_settings(preset, options, seats=(PERSON, PERSON), seed=seed,
                            names=("Ann", "Bob"))


def play_moves(session: TableSession, rng: random.Random, count: int) -> None:
    for _ in range(count):
        seat = session.to_move
        if seat is None:
            return
        move = rng.choice(session.view(seat).legal_moves())
        assert session.play(seat, move) is None


def args_for(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


def saved_game(folder: Path, moves: int = 6) -> dict[str, Any]:
    """Start a hot-seat game saved in ``folder``, make a few moves; its record."""
    store = SaveStore(folder)
    session = TableSession.new(hot_seat(), store)
    play_moves(session, random.Random(3), moves)
    record = game_record(session.game)
    store.close()
    return record


def test_the_save_does_not_show_the_deck(tmp_path: Path) -> None:
    record = saved_game(tmp_path)
    text = (tmp_path / CURRENT).read_text(encoding="utf-8")
    deck = record["rounds"][-1]["deck"]
    assert '"rounds"' not in text and '"deck"' not in text
    assert " ".join(deck[:5]) not in text and '", "'.join(deck[:5]) not in text
    save = json.loads(text)
    assert set(save) == {"format", "version", "note", "sealed", "mac"}
    store = SaveStore(tmp_path)
    data = store.read()
    store.close()
    assert data["rounds"] == record["rounds"]


def test_unseal_refuses_a_changed_seal_or_another_key() -> None:
    key = b"k" * 32
    save = seal({"rounds": []}, key)
    assert unseal(save, key) == {"rounds": []}
    with pytest.raises(SaveError, match="integrity check"):
        unseal(save, b"o" * 32)
    changed = dict(save, sealed=save["sealed"][:-4] + ("AAAA" if save["sealed"][-4:] != "AAAA"
                                                       else "BBBB"))
    with pytest.raises(SaveError, match="integrity check"):
        unseal(changed, key)
    with pytest.raises(SaveError, match="plain record"):
        unseal({"rounds": []}, key)


@pytest.mark.parametrize("damage", ["edit", "garbage"])
def test_a_save_that_fails_its_check_is_refused_and_kept_aside(tmp_path: Path,
                                                                damage: str) -> None:
    saved_game(tmp_path)
    current = tmp_path / CURRENT
    if damage == "edit":
        save = json.loads(current.read_text(encoding="utf-8"))
        sealed = save["sealed"]
        save["sealed"] = sealed[:10] + ("A" if sealed[10] != "A" else "B") + sealed[11:]
        current.write_text(json.dumps(save), encoding="utf-8")
    else:
        current.write_bytes(b"{not json at all")
    before = current.read_bytes()
    answer = prepare(args_for("--save-dir", str(tmp_path), "--resume", "--delay", "0"))
    assert isinstance(answer, str), answer
    assert answer.startswith("the saved game cannot be resumed")
    aside = [path for path in tmp_path.iterdir() if path.name.startswith("game-unreadable-")]
    assert len(aside) == 1 and str(aside[0]) in answer
    assert aside[0].read_bytes() == before  # kept as it was, never written over
    assert not current.exists()


def test_an_unreadable_save_is_kept_aside_when_a_new_game_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / CURRENT).write_bytes(b"\x00\x01 damaged")
    app = prepare(args_for("--save-dir", str(tmp_path), "--bot", "random", "--seed", "2",
                           "--delay", "0"))
    assert not isinstance(app, str), app
    assert app.store is not None
    app.store.close()
    err = capsys.readouterr().err
    aside = [path for path in tmp_path.iterdir() if path.name.startswith("game-unreadable-")]
    assert len(aside) == 1 and aside[0].read_bytes() == b"\x00\x01 damaged"
    assert f"it is kept as {aside[0]}" in err and "A new game starts" in err


def test_a_game_saved_after_a_reshuffle_resumes(tmp_path: Path) -> None:
    settings = hot_seat(seed=4, stock_exhausted="reshuffle", hand_size_two=7)
    store = SaveStore(tmp_path)
    session = TableSession.new(settings, store)
    rng = random.Random(8)
    deal = session.game.deal
    draws = 0
    while deal.restocks == 0:  # draw and discard only, so that the stock runs out
        seat = session.to_move
        assert seat is not None and not deal.over
        moves = session.view(seat).legal_moves()
        plain = [m for m in moves if m.kind in ("draw", "discard")] or moves
        assert session.play(seat, rng.choice(plain)) is None
        draws += 1
    play_moves(session, rng, 2)
    assert session.game.deal is deal and not deal.over and deal.restocks == 1
    record = game_record(session.game)
    store.close()

    again = SaveStore(tmp_path)
    resumed = TableSession.resume(again)
    assert game_record(resumed.game) == record
    assert resumed.game.deal.restocks == 1
    # the rest of the game is the same whether it was saved and resumed or not
    twin_rng, rng_copy = random.Random(11), random.Random(11)
    play_moves(resumed, twin_rng, 40)
    play_moves(session, rng_copy, 40)
    assert game_record(resumed.game) == game_record(session.game)
    again.close()


def test_saves_are_flushed_to_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append(descriptor)
        real(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    store = SaveStore(tmp_path)
    store.open()
    synced.clear()
    store.write({"rounds": []})
    assert len(synced) >= 2  # the new file before its rename, then the folder
    store.close()


def test_one_program_at_a_time_keeps_a_folder(tmp_path: Path) -> None:
    first = SaveStore(tmp_path)
    first.open()
    second = SaveStore(tmp_path)
    with pytest.raises(SaveInUseError, match="open in another rummy500 play"):
        second.open()
    answer = prepare(args_for("--save-dir", str(tmp_path), "--delay", "0"))
    assert isinstance(answer, str) and "open in another rummy500 play" in answer
    first.close()
    second.open()
    second.close()


def test_a_folder_that_cannot_be_written_does_not_stop_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SaveStore(tmp_path)
    session = TableSession.new(hot_seat(), store)
    assert session.save_problem is None

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(store, "_write", refuse)
    seat = session.to_move
    assert seat is not None
    assert session.play(seat, "draw") is None  # the move is made, unsaved
    assert session.save_problem is not None
    assert "cannot be saved" in session.save_problem and "Permission denied" in (
        session.save_problem)
    monkeypatch.undo()
    play_moves(session, random.Random(1), 1)
    assert session.save_problem is None
    store.close()
