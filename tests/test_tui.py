"""The terminal game (``rummy500 play``) driven through Textual's pilot: whole games played
with keys and clicks against computer players, every action, a refusal, undo, hints, the
hot-seat cover, the set-up screen, the rules, saving on quit and resuming."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.widgets._footer import FooterKey

from joinkit import until
from rummy500.cards import face_of, iter_bits, parse_face
from rummy500.commands.play import prepare
from rummy500.kinds import MoveKind
from rummy500.moves import (
    Move,
    parse_move,
)
from rummy500.record import game_record
from rummy500.session.saves import SaveStore
from rummy500.session.seat_state import signed
from rummy500.session.settings import PERSON, TableSettings, default_settings
from rummy500.tui.app import PlayApp
from rummy500.tui.screens import ChoiceScreen, CoverScreen, RulesScreen, SheetScreen
from rummy500.tui.setup import SetupScreen
from rummy500.tui.table import TableScreen, describe_claim, piece_shows, piece_words
from tuikit import (
    BIG,
    app_at,
    app_for,
    args_for,
    message,
    played_from,
    quick,
    saving_game,
    settle,
    shown_text,
    table_of,
)


def face_of_text(text: str) -> int:
    return parse_face(text)


def move_of(text: str) -> Move:
    return parse_move(text)


async def pick_cards(pilot: Pilot[Any], table: TableScreen, pieces: tuple[int, ...]) -> None:
    """Click the hand's cards for ``pieces`` (a joker for a declared piece)."""
    items = table.hand.items
    used: set[int] = set()
    for piece in pieces:
        shows = piece_shows(piece)
        index = next(i for i, item in enumerate(items)
                     if i not in used and item.face == shows)
        used.add(index)
        await pilot.click("#hand", offset=table.hand.offset_of(index))
    assert len(table.selected) == len(pieces)


async def choose(pilot: Pilot[Any], wanted: str) -> None:
    """Pick the option ``wanted`` on the choice screen."""
    screen = pilot.app.screen
    assert isinstance(screen, ChoiceScreen), screen
    index = screen.choices.index(wanted)
    screen.query_one(OptionList).highlighted = index
    await pilot.press("enter")


async def perform(pilot: Pilot[Any], move: Move) -> None:
    """Make ``move`` the way a person does: keys and clicks only."""
    app = pilot.app
    table = table_of(app)
    view = table.session.view(table.viewer if table.viewer is not None else 0)
    kind = move.kind
    if kind == MoveKind.DRAW:
        await pilot.press("d")
    elif kind == MoveKind.END:
        await pilot.press("e")
    elif kind == MoveKind.TAKE:
        face = move.pieces[0]
        copies = [i for i, card in enumerate(view.pile) if face_of(card) == face]
        index = copies[-2] if move.meld else copies[-1]  # take 7h/2: the lower copy
        await pilot.click("#pile", offset=table.pile.offset_of(index))
    elif kind == MoveKind.MELD:
        await pick_cards(pilot, table, move.pieces)
        await pilot.press("m")
        if isinstance(app.screen, ChoiceScreen):
            await choose(pilot, "meld " + " ".join(piece_words(p) for p in move.pieces))
    elif kind == MoveKind.LAYOFF:
        await pick_cards(pilot, table, move.pieces)
        await pilot.click("#melds", offset=table.melds.offset_of(move.meld))
        if isinstance(app.screen, ChoiceScreen):
            melds = {meld.number: meld for meld in view.melds}
            piece = move.pieces[0]
            await choose(pilot, f"on m{move.meld} ({melds[move.meld].describe()}) as "
                         f"{piece_words(piece).removeprefix('joker as ')}")
    elif kind == MoveKind.DISCARD:
        await pick_cards(pilot, table, move.pieces)
        await pilot.press("x")
    elif kind in (MoveKind.RUMMY_MELD, MoveKind.RUMMY_LAYOFF, MoveKind.PASS):
        if not isinstance(app.screen, ChoiceScreen):
            await pilot.press("r")
        await choose(pilot, "pass (no claim)" if kind == MoveKind.PASS else describe_claim(move))
    else:  # pragma: no cover - every kind is made above
        raise AssertionError(move)
    await pilot.pause()


def person_choice(moves: list[Move], rng: random.Random, laid: bool) -> Move:
    """A person who puts something on the table once a turn when they can (``laid``: done
    this turn), and now and then takes from the pile."""
    table = [m for m in moves if m.kind in (MoveKind.MELD, MoveKind.LAYOFF,
                                            MoveKind.RUMMY_MELD, MoveKind.RUMMY_LAYOFF)]
    discards = [m for m in moves if m.kind == MoveKind.DISCARD]
    if table and (not laid or not discards):
        return rng.choice(table)
    takes = [m for m in moves if m.kind == MoveKind.TAKE]
    if takes and rng.random() < 0.1:
        return rng.choice(takes)
    for kind in (MoveKind.DRAW, MoveKind.DISCARD, MoveKind.PASS, MoveKind.END):
        chosen = [m for m in moves if m.kind == kind]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(moves)


async def play_game(pilot: Pilot[Any], seed: int) -> tuple[set[str], list[SheetScreen]]:
    """Play the person's seat to the end of the game; the kinds of move made, the sheets."""
    app = pilot.app
    rng = random.Random(seed)
    kinds: set[str] = set()
    sheets: list[SheetScreen] = []
    laid = False
    while True:
        await settle(pilot)
        screen = app.screen
        if isinstance(screen, SheetScreen):
            sheets.append(screen)
            if screen.sheet.last:
                return kinds, sheets
            await pilot.press("enter")
            continue
        if isinstance(screen, CoverScreen):
            await pilot.press("enter")
            continue
        table = table_of(app)
        session = table.session
        seat = table.viewer
        assert seat is not None and session.to_move == seat
        move = person_choice(session.view(seat).legal_moves(), rng, laid)
        laid = move.kind in (MoveKind.MELD, MoveKind.LAYOFF) or (
            laid and move.kind not in (MoveKind.DISCARD, MoveKind.PASS))
        count = len(session.made)
        await perform(pilot, move)
        assert len(session.made) > count, (str(move), message(app), app.screen)
        mine = session.made[count]
        assert (mine.seat, str(mine.move)) == (seat, str(move))
        kinds.add(move.kind)


# -- whole games ----------------------------------------------------------------------------------

SHORT = {"stock_exhausted": "end"}
"""Big hands and a short stock: whole games of one or two deals that end soon."""


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("settings", "seed"),
    [
        (quick("classic", options={**SHORT, "hand_size_two": 24}, bot="simple", seed=2), 1),
        (quick("wild", options={"hand_size_two": 24}, bot="simple", seed=3), 2),
        (quick("persian", options={**SHORT, "hand_size": 13, "max_deals": 2}, bot="simple",
               seed=4), 3),
    ],
    ids=["classic", "wild", "persian"],
)
async def test_a_whole_game_played_with_keys_and_clicks(settings: TableSettings,
                                                        seed: int) -> None:
    app = app_for(settings)
    async with app.run_test(size=BIG) as pilot:
        kinds, sheets = await play_game(pilot, seed)
        session = table_of(app).session
        assert session.finished
        assert {MoveKind.DRAW, MoveKind.DISCARD, MoveKind.MELD} <= kinds
        assert len(sheets) == len(session.game.results) == settings.rules().max_deals
        final = sheets[-1].sheet
        assert list(final.totals_after) == session.game.totals
        table = table_of(app)
        assert table.log_lines == session.log(table.viewer)  # the history and sheets, told
        assert table.log_lines[-2:] == [final.text, final.standing]
        shown = "\n".join(shown_text(words) for words in sheets[-1].query("Words"))
        for line in final.lines:  # the sheet, line by line, with the sheet's own figures
            assert re.search(rf"{re.escape(line.text)} +{re.escape(signed(line.points))}\b",
                             shown), shown
        for name, score, total in zip(final.sides, final.scores, final.totals_after,
                                      strict=True):
            total_text = str(total).replace("-", "\u2212")
            assert re.search(rf"{re.escape(name)}: this deal +{re.escape(signed(score))} +"
                             rf"{total_text}\b", shown), shown
        await pilot.press("a")  # play again: a new game with the same set-up
        await pilot.pause()
        again = table_of(app).session
        # A new shuffle: big hands of a short stock may let a computer player end the new
        # game's one deal before the person's first turn, so it may be over already.
        assert again is not session and len(again.game.deals) == 1
        assert again.settings.seats == settings.seats and again.settings.seed != settings.seed


# -- positions set up to reach every action -------------------------------------------------------


def made(app: PlayApp) -> list[str]:
    return [str(m.move) for m in table_of(app).session.made]


@pytest.mark.asyncio
async def test_take_deep_in_the_pile_must_use_meld_lay_off_and_discard() -> None:
    settings = quick("classic", seed=1)
    app = app_at(settings, ["6c 6h Ks 2d 4d 9c 3h 8d Jh Qc Ad 7c 5h", "..."], up="Kd",
                 pile="2c 6d 5s", table=[(1, "Ts Js Qs")], stock="3d")
    async with app.run_test(size=BIG) as pilot:
        await settle(pilot)
        table = table_of(app)
        assert [item.marked for item in table.pile.items] == [False, False, True, True]
        await perform(pilot, Move(MoveKind.TAKE, (face_of_text("6d"),)))
        assert "Use 6♦ in a meld or lay-off" in message(app)
        await perform(pilot, move_of("discard 2d"))
        assert message(app) == "✗ You took 6♦ from the pile and must use it before you discard."
        assert table.selected  # a refused move keeps the picked card
        await pilot.press("escape")
        await perform(pilot, move_of("meld 6c 6d 6h"))
        await pick_cards(pilot, table, move_of("layoff Ks m1").pieces)
        assert table.melds.items[0].marked  # the picked king fits m1
        await pilot.click("#melds", offset=table.melds.offset_of(1))
        await perform(pilot, move_of("discard 2d"))
        await settle(pilot)
        assert made(app)[:4] == ["take 6d", "meld 6c 6d 6h", "layoff Ks m1", "discard 2d"]


@pytest.mark.asyncio
async def test_a_click_on_the_lower_of_two_copies_in_the_pile_takes_it() -> None:
    settings = quick("classic", seed=1, options={"decks": 2})
    app = app_at(settings, ["9h Kc Qd 3s 4s 2d 4d 9c 3h 8d Jh Qc Ad", "..."], up="2c",
                 pile="7h 8h 5d 7h Jc", stock="3d")
    async with app.run_test(size=BIG) as pilot:
        await settle(pilot)
        table = table_of(app)
        # the lower 7h can be used (with 8h, 9h); the upper one, which brings no 8h, cannot
        assert [item.marked for item in table.pile.items] == [False, True, True, False, False,
                                                               True]
        await pilot.click("#pile", offset=table.pile.offset_of(1))
        assert made(app) == ["take 7h/2"]
        assert len(table.pile.items) == 1
        await perform(pilot, move_of("meld 7h 8h 9h"))
        assert made(app) == ["take 7h/2", "meld 7h 8h 9h"]


@pytest.mark.asyncio
async def test_the_keyboard_alone_takes_at_a_chosen_card_sorts_picks_and_melds() -> None:
    settings = quick("classic", seed=1)
    app = app_at(settings, ["6c 6h Ks 2d 4d 9c 3h 8d Jh Qc Ad 7c 5h", "..."], up="Kd",
                 pile="2c 6d 5s", stock="3d")
    async with app.run_test(size=BIG) as pilot:
        await settle(pilot)
        table = table_of(app)
        for _ in range(6):
            if table.pile.has_focus:
                break
            await pilot.press("shift+tab")
        assert table.pile.has_focus and table.pile.cursor == 3  # the top card
        await pilot.press("left", "t")
        assert made(app) == ["take 6d"]
        while not table.hand.has_focus:
            await pilot.press("tab")
        await pilot.press("s")  # by rank: the three sixes side by side
        labels = [str(item.label) for item in table.hand.items]
        start = labels.index("6♣")
        assert labels[start:start + 3] == ["6♣", "6♦", "6♥"]
        await pilot.press("home", *["right"] * start, "space", "right", "space", "right",
                          "space", "m")
        assert made(app) == ["take 6d", "meld 6c 6d 6h"]


@pytest.mark.asyncio
async def test_a_wild_jokers_card_is_asked_for_when_there_is_a_choice() -> None:
    settings = quick("wild", seed=1)
    app = app_at(settings, ["5h 6h * 2c 9d Kc 4s 8c Jd 3c", "..."], up="Qd", stock="2s")
    async with app.run_test(size=BIG) as pilot:
        await settle(pilot)
        table = table_of(app)
        await pilot.press("d")
        await pick_cards(pilot, table, move_of("meld 5h 6h *=7h").pieces)
        await pilot.press("m")
        screen = app.screen
        assert isinstance(screen, ChoiceScreen)
        assert sorted(screen.choices) == ["meld 5♥ 6♥ joker as 7♥", "meld joker as 4♥ 5♥ 6♥"]
        await pilot.press("escape")  # changing one's mind makes no move
        assert made(app) == ["draw"] and isinstance(app.screen, TableScreen)
        await pilot.press("m")
        await choose(pilot, "meld 5♥ 6♥ joker as 7♥")
        assert made(app) == ["draw", "meld 5h 6h *=7h"]
        assert "m1 5♥ 6♥ *7♥ (You)" in str(table.melds.render())


@pytest.mark.asyncio
async def test_a_rummy_call_is_offered_to_the_next_person_who_can_claim() -> None:
    settings = default_settings("wild", {"max_deals": 1}, seats=(PERSON, PERSON), seed=1,
                                names=("Ann", "Bob"))
    app = app_at(settings, ["2c 4c Kh 8d Jd 3h Tc 5d 7c Ac", "9s Qc 2h Qh 4h 7d 9c Jc 3s Kc"],
                 up="Kd", stock="3c 4d", table=[(0, "6s 7s 8s")])
    async with app.run_test(size=BIG) as pilot:
        for move in ("draw", "discard 2c"):
            await settle(pilot)
            if isinstance(app.screen, CoverScreen):
                await pilot.press("enter")
            await perform(pilot, move_of(move))
        await pilot.press("enter")  # Bob is ready
        for move in ("draw", "discard 9s"):
            await perform(pilot, move_of(move))
        screen = app.screen
        assert isinstance(screen, CoverScreen) and screen.player == "Ann"
        assert "rummy" in screen.why
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the choice of claims")
        screen = app.screen
        assert isinstance(screen, ChoiceScreen)
        assert screen.choices == ["lay off 9♠ from the pile on m1", "pass (no claim)"]
        await choose(pilot, "lay off 9♠ from the pile on m1")
        await until(pilot, lambda: made(app)[-1] != "discard 9s", "the claim made")
        assert made(app)[-1] == "rummy layoff 9s m1"
        assert table_of(app).session.log(None)[-1] == (
            "Ann calls rummy and lays off 9♠ from the pile on m1 (9 points)")


# -- refusals, undo, hints ------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_refused_move_shows_the_engines_reason_and_changes_nothing() -> None:
    app = app_for(quick(seed=5))
    async with app.run_test() as pilot:
        await settle(pilot)
        table = table_of(app)
        session = table.session
        record = game_record(session.game)
        await pilot.click("#hand", offset=table.hand.offset_of(0))
        await pilot.press("x")  # discard before drawing
        assert message(app) == ("✗ Draw first: the top card of the stock, or cards from the "
                                "discard pile.")
        await pilot.press("colon")
        for key in "meld 2c 3c":
            await pilot.press(key if key != " " else "space")
        await pilot.press("enter")
        assert "three or more cards" in message(app)
        assert game_record(session.game) == record
        assert table.query_one("#command").has_focus


async def draw_and_discard_first_card(app: PlayApp, pilot: Pilot[Any]) -> dict[str, Any]:
    """Draw with the key bar, discard the first card of the hand; the record before the discard."""
    await settle(pilot)
    table = table_of(app)
    for _ in range(500):
        keys = [key for key in app.screen.query(FooterKey) if key.key == "d"]
        if keys:
            break
        await pilot.pause(0.01)
    before = len(made(app))
    await pilot.click(keys[0])
    for _ in range(500):  # the key's action runs after the click returns (later under load)
        if len(made(app)) > before:
            break
        await pilot.pause(0.01)
    assert made(app)[-1] == "draw"
    record = game_record(table.session.game)
    await pilot.click("#hand", offset=table.hand.offset_of(0))
    await pilot.press("x")
    await settle(pilot)
    assert game_record(table.session.game) != record
    return record


@pytest.mark.asyncio
async def test_undo_never_takes_back_a_discard_the_computer_player_answered() -> None:
    """Its discard showed a card of its hand, and taken back the same reply would come again
    (issue 30, issue 34): your discard stands."""
    app = app_for(quick(seed=1))  # the computer player draws and discards
    async with app.run_test() as pilot:
        await draw_and_discard_first_card(app, pilot)
        session = table_of(app).session
        after = game_record(session.game)
        assert after["rounds"][-1]["moves"][-2:][0] == "draw"
        shown = after["rounds"][-1]["moves"][-1]
        assert shown.startswith("discard ")
        await pilot.press("u")
        assert game_record(session.game) == after
        assert f"has since shown cards ({shown})" in message(app)


@pytest.mark.asyncio
async def test_undo_stops_where_the_computer_player_showed_you_cards() -> None:
    app = app_for(quick(seed=6))  # the computer player takes your discard
    async with app.run_test() as pilot:
        await draw_and_discard_first_card(app, pilot)
        session = table_of(app).session
        after = game_record(session.game)
        assert after["rounds"][-1]["moves"][-2].startswith("take ")
        await pilot.press("u")
        assert game_record(session.game) == after
        assert "has since shown cards" in message(app)


@pytest.mark.asyncio
async def test_the_hint_key_gives_the_experts_move_and_its_reason() -> None:
    app = app_for(quick(seed=7))
    async with app.run_test() as pilot:
        await settle(pilot)
        table = table_of(app)
        await pilot.press("h")
        for _ in range(500):
            await pilot.pause(0.01)
            if message(app).startswith("Hint:"):
                break
        text = message(app)
        assert text.startswith("Hint: ")
        move = text.removeprefix("Hint: ").split(" (")[0]
        view = table.session.view(table.viewer or 0)
        assert move in [str(m) for m in view.legal_moves()]
        assert " — " in text


# -- hot seat -------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_hot_seat_hides_each_hand_until_its_player_is_ready() -> None:
    settings = default_settings(seats=(PERSON, PERSON), options={"max_deals": 1}, seed=8,
                                names=("Ann", "Bob"))
    app = app_for(settings)
    async with app.run_test() as pilot:
        await pilot.pause()
        session = table_of(app).session
        first = session.game.turn
        screen = app.screen
        assert isinstance(screen, CoverScreen) and screen.player == session.names[first]
        table = table_of(app)
        assert table.hand.items == [] and table.viewer is None
        await pilot.press("enter")
        await pilot.pause()
        hand = sorted(item.face for item in table.hand.items)
        assert hand == sorted(map(face_of, iter_bits(session.view(first).hand)))
        await pilot.press("d")
        await pilot.click("#hand", offset=table.hand.offset_of(0))
        await pilot.press("x")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CoverScreen) and screen.player == session.names[1 - first]
        assert table.hand.items == [] and table.viewer is None
        await pilot.press("u")
        assert table.hand.items == []
        await pilot.press("enter")
        await pilot.pause()
        assert sorted(item.face for item in table.hand.items) == sorted(
            map(face_of, iter_bits(session.view(1 - first).hand)))
        assert table.active_bindings["u"].binding.action == "explain_undo"  # no undo here


# -- set-up, rules, saving ------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_set_up_screen_starts_the_game_it_shows(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    app = PlayApp(default_settings(seed=1), store, setup=True, delay=0)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#preset").value = "partnership"  # type: ignore[attr-defined]
        await pilot.pause()
        screen.query_one("#options").value = "bogus=1"  # type: ignore[attr-defined]
        await pilot.click("#start")
        assert "unknown option 'bogus'" in str(screen.query_one("#error", Static).render())
        screen.query_one("#options").value = "target_score=200"  # type: ignore[attr-defined]
        screen.query_one("#kind-1").value = "random"  # type: ignore[attr-defined]
        screen.query_one("#name-0").value = "Ann"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        session = table_of(app).session
        assert session.game.players == 4 and session.rules.partnership
        assert session.rules.target_score == 200
        assert session.names[0] == "Ann" and session.settings.seats[1] == "random"
        assert store.exists()


@pytest.mark.asyncio
async def test_the_rules_screen_shows_the_preset_in_play() -> None:
    app = app_for(quick("boathouse", seed=2))
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        assert screen.rules.preset == "boathouse" and screen.rules.discard_to_go_out
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


@pytest.mark.asyncio
async def test_quit_saves_and_resume_continues_exactly(tmp_path: Path) -> None:
    app = saving_game(tmp_path, "-o", "max_deals=1")
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("d")
        await pilot.pause()
        session = table_of(app).session
        record = game_record(session.game)
        await pilot.press("q")
        await pilot.press("y")  # a game in progress: asked first
    assert app.return_value is session
    store = SaveStore(tmp_path)
    assert store.exists()
    resumed = played_from("--save-dir", str(tmp_path), "--resume", "--delay", "0")
    async with resumed.run_test() as pilot:
        await settle(pilot)
        again = table_of(resumed).session
        assert game_record(again.game) == record
        assert again.game.deal.phase == "play"
        assert again.settings == session.settings
        assert again.undo_refusal() == (  # the last move was a stock draw: seen, kept
            "a card drawn from the stock cannot be taken back: you have seen it")
    asked = played_from("--save-dir", str(tmp_path), "--delay", "0")
    async with asked.run_test() as pilot:
        await pilot.pause()
        await pilot.press("r")
        await settle(pilot)
        assert game_record(table_of(asked).session.game) == record
    assert prepare(args_for("--save-dir", str(tmp_path / "none"), "--resume")) == (
        f"there is no game in progress to resume in {tmp_path / 'none'}")


@pytest.mark.asyncio
async def test_the_table_fits_80_by_24() -> None:
    app = app_for(quick(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = table_of(app)
        for selector in ("#status", "#players", "#pile", "#melds", "#log", "#hand", "#message",
                         "#command"):
            region = table.query_one(selector).region
            assert region.height >= 1 and region.right <= 80 and region.bottom <= 23, selector
        assert len(table.hand.items) == 13
        assert table.hand.per_row() >= 14
