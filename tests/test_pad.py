"""The score pad's file scored by the engine (PAD.md): the books' examples on hand-made pads,
every refusal with its where and why, and for many deals played by the engine under every
preset, the pad of each deal's final table scores exactly what the engine scored.

``RUMMY500_SOAK=N`` plays N games per configuration in the property test instead of 4
(about 300 deals in all).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from padkit import ace_place_unknown, deal, pad, pad_of_game
from rummy500 import Game, make_rules
from rummy500.bots import make_bot
from rummy500.errors import PadError
from rummy500.pad import MAX_PAD_BYTES, load_pad, pad_from_json
from rummy500.pad_score import score_pad
from rummy500.session.pad_sheets import pad_summary
from rummy500.session.sheets import deal_sheet

FOUR = ["Ann", "Bob", "Cy", "Di"]
TWO = ["Ann", "Bob"]


def summary(data: dict[str, Any]) -> dict[str, Any]:
    parsed = pad_from_json(data)
    return pad_summary(parsed, score_pad(parsed))


def lines_of(data: dict[str, Any], number: int = 1) -> list[tuple[int | None, str, int]]:
    """Deal ``number``'s lines as (seat, what, points)."""
    return [(line["seat"], line["what"], line["points"])
            for line in summary(data)["deals"][number - 1]["lines"]]


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(PadError) as caught:
        score_pad(pad_from_json(data))
    return str(caught.value)


# -- the books' examples ---------------------------------------------------------------------


def test_shown_87_and_90_in_hand_scores_minus_3() -> None:
    # 004: "If the cards he has shown total 87 points, and the cards left in his hand total
    # 90 points, 3 points are subtracted from his previous net score."
    shown = [(0, "Qh Kh Ah"), (0, "Jc Jd Js"), (0, "4d 5d 6d 7d")]  # 35 + 30 + 22
    data = pad("classic", TWO, [deal(0, ["As Ac Kc Kd Ks Qc Qd Qs", ""], [
        *shown, (1, "2c 3c 4c")], went_out=1)])
    result = summary(data)
    assert result["deals"][0]["scores"] == [-3, 9]
    assert lines_of(data)[:2] == [(0, "on_table", 87), (0, "in_hand", -90)]


def test_persian_four_jokers_at_once_160_three_then_one_80() -> None:
    # 001: "four Jokers laid down in one meld at one time score (4 x 20) x 2 = 160 points.
    # However, three Jokers melded together only score 3 x 20 = 60 points. The fourth
    # Joker, if later added, also scores another 20 points".
    at_once = pad("persian", FOUR, [deal(0, ["", "", "", ""], [(0, "* * * *")], went_out=0)])
    assert lines_of(at_once)[:2] == [(0, "on_table", 80), (0, "doubled", 80)]
    later = pad("persian", FOUR, [deal(0, ["", "", "", ""], [(0, "* * *")],
                                       [(2, "*", 1)], went_out=0)])
    assert [line for line in lines_of(later) if line[1] == "on_table"] == [
        (0, "on_table", 60), (1, "on_table", 0), (2, "on_table", 20), (3, "on_table", 0)]
    assert summary(later)["deals"][0]["scores"][0] == 80 + 25


def test_persian_four_sixes_48_and_simplified_four_twos_40() -> None:
    sixes = pad("persian", FOUR, [deal(0, ["", "", "", ""], [(1, "6c 6d 6h 6s")], went_out=1)])
    assert (1, "on_table", 24) in lines_of(sixes) and (1, "doubled", 24) in lines_of(sixes)
    twos = pad("persian", FOUR, [deal(0, ["", "", "", ""], [(1, "2c 2d 2h 2s")], went_out=1)],
               card_points="simplified")
    assert summary(twos)["deals"][0]["scores"] == [0, 40 + 25]
    # A run of four doubles only with four_card_runs_double (004) and not as laid bit by bit.
    run = [(1, "2c 3c 4c 5c")]
    assert summary(pad("persian", FOUR, [deal(0, ["", "", "", ""], run, went_out=1)]))[
        "deals"][0]["scores"] == [0, 14 + 25]
    assert summary(pad("persian", FOUR, [deal(0, ["", "", "", ""], run, went_out=1)],
                       four_card_runs_double=True))["deals"][0]["scores"] == [0, 28 + 25]
    split = pad("persian", FOUR, [deal(0, ["", "", "", ""], [(1, "6c 6d 6h")],
                                       [(1, "6s", 1)], went_out=1)])
    assert summary(split)["deals"][0]["scores"] == [0, 24 + 25]


@pytest.mark.parametrize(("preset", "options", "low", "high"), [
    ("classic", {}, 1, 15), ("simplified", {}, 5, 15),
    ("classic", {"card_points": "simplified", "low_ace_points": 15}, 15, 15),
    ("classic", {"ace_points": 25}, 1, 25)])
def test_an_ace_scores_by_where_it_lies(preset: str, options: dict[str, Any], low: int,
                                        high: int) -> None:
    twos = 2 if preset == "classic" and options.get("card_points") != "simplified" else 5
    threes = 3 if twos == 2 else 5
    data = pad(preset, TWO, [deal(0, ["", "Kc"], [(0, "Ah 2h 3h"), (0, "Qs Ks As")],
                                  [(1, "4h", 1)], went_out=0)], **options)
    assert lines_of(data)[0] == (0, "on_table", low + twos + threes + 10 + 10 + high)


def test_an_ace_laid_off_goes_where_the_run_has_room() -> None:
    data = pad("classic", TWO, [deal(0, ["", ""], [(0, "Jh Qh Kh"), (0, "2c 3c 4c")],
                                     [(1, "Ah", 1), (1, "Ac", 2)], went_out=0)])
    assert lines_of(data)[2] == (1, "on_table", 15 + 1)


def test_high_ace_only_scores_an_ace_low_but_high_in_a_run() -> None:
    data = pad("simplified", TWO, [deal(0, ["Ad", ""], [(1, "Ah As Ac"), (1, "Qs Ks As")],
                                        went_out=1)], high_ace_only=True)
    # Two packs are not in play: the second As is refused, so use another suit's run.
    assert "As appears 2 times" in refusal(data)
    data["deals"][0]["melds"][1]["cards"] = "Qd Kd Ad"
    data["deals"][0]["hands"] = ["", ""]
    assert lines_of(data)[2] == (1, "on_table", 3 * 5 + 10 + 10 + 15)


def test_a_wild_joker_scores_15_where_it_stands() -> None:
    data = pad("wild", TWO, [deal(0, ["Kd", ""], [(1, "5h *=6h 7h")], [(1, "*=8h", 1)],
                                  went_out=1)])
    assert lines_of(data)[:3] == [(0, "on_table", 0), (0, "in_hand", -10),
                                  (1, "on_table", 5 + 15 + 7 + 15)]


def test_partners_score_as_one_side_and_add_opponents_hand() -> None:
    hands = ["", "Kd", "5d", "9s"]
    melds = [(0, "7h 7d 7s"), (1, "2s 3s 4s"), (2, "Jc Qc Kc"), (3, "8d 9d Td")]
    data = pad("partnership", FOUR, [deal(3, hands, melds, went_out=0)])
    assert summary(data)["deals"][0]["scores"] == [21 + 30 - 5, 9 + 27 - 10 - 9]
    added = pad("partnership", FOUR, [deal(3, hands, melds, went_out=0)],
                add_hand_to_winner=True)
    assert summary(added)["deals"][0]["scores"] == [21 + 30 + 10 + 9, 9 + 27]
    assert (1, "hands_won", 10) in lines_of(added) and (2, "hands_won", 5) not in lines_of(
        added)


def test_points_divided_by_five() -> None:
    data = pad("simplified", TWO, [deal(0, ["Kd", ""], [(1, "2c 3c 4c"), (1, "Qh Kh Ah")],
                                        went_out=1)], point_divisor=5)
    assert summary(data)["deals"][0]["scores"] == [-2, 3 + 7]


def test_a_persian_game_ends_after_two_deals_with_the_bonus_to_the_better_side() -> None:
    first = deal(0, ["Kd", "", "5c", "9s"], [(1, "7h 7d 7s")], went_out=1)
    second = deal(1, ["", "Qc", "", ""], [(2, "8h 8d 8s")], [(0, "8c", 1)], went_out=0)
    result = summary(pad("persian", FOUR, [first, second]))
    assert result["deals"][0]["scores"] == [-15, 21 - 9 + 25]
    # The game's bonus is a line of the last deal's sheet, to the side ahead (42 to 27).
    assert result["deals"][1]["scores"] == [8 + 24 + 25 + 50, -10]
    assert result["over"] and result["winner"] == 0
    assert result["totals"] == [42 + 50, 27]
    assert result["deals"][1]["lines"][-1] == {
        "seat": None, "side": 0, "what": "game_bonus", "points": 50,
        "text": "Ann & Cy: winning the game"}
    assert result["deals"][1]["totals_after"] == result["totals"]


def test_the_game_ends_at_the_target_and_a_later_deal_is_refused() -> None:
    big = deal(0, ["", ""], [(0, "Qh Kh Ah"), (0, "Qs Ks As"), (0, "Qc Kc Ac"),
                             (0, "Qd Kd Ad"), (0, "Jc Jd Js"), (0, "Th Tc Td")], went_out=0)
    result = summary(pad("classic", TWO, [big], target_score=200))
    assert result["over"] and result["winner"] == 0 and result["totals"] == [200, 0]
    assert "deal 2: the game was over after deal 1" in refusal(
        pad("classic", TWO, [big, deal(1, ["", ""])], target_score=200))


def test_a_seat_given_as_points_gets_them() -> None:
    data = pad("classic", ["Ann", "Bob", "Cy"], [
        deal(0, ["", "Kd", ""], [(0, "7h 7d 7s")], went_out=0, points=[None, None, 42])])
    assert summary(data)["deals"][0]["scores"] == [21, -10, 42]
    assert (2, "on_table", 42) in lines_of(data)


def test_running_totals_and_the_deal_passing_to_the_left() -> None:
    deals = [deal(dealer, ["Kd", ""], [(1, "7h 7d 7s")], went_out=1) for dealer in (1, 0, 1)]
    result = summary(pad("classic", TWO, deals))
    assert [d["totals_after"] for d in result["deals"]] == [[-10, 21], [-20, 42], [-30, 63]]
    assert not result["over"] and result["winner"] is None
    deals[1]["dealer"] = 1
    assert refusal(pad("classic", TWO, deals)) == (
        "deal 2: the deal passes to the left, so Ann (seat 0) deals it, not Bob (seat 1)")


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("entry", "words"), [
    (deal(0, ["7h", ""], [(1, "7h 7d 7s")], went_out=1),
     "deal 1: 7h appears 2 times (Ann (seat 0)'s hand; meld 1 by Bob (seat 1) (7h 7d 7s)), "
     "and the pack holds it once"),
    (deal(0, ["", ""], [(1, "7h 7d 8s")], went_out=1),
     "deal 1, meld 1 by Bob (seat 1) (7h 7d 8s): 7♥ 7♦ 8♠ is not a meld"),
    (deal(0, ["", ""], [(1, "7h 8h 9h")], [(0, "Jh", 1)], went_out=1),
     "deal 1, lay-off by Ann (seat 0) on meld 1: Jh does not fit meld 1 (7♥ 8♥ 9♥)"),
    (deal(0, ["", ""], [(1, "7h 8h 9h")], [(0, "Th", 2)], went_out=1),
     "deal 1, lay-off 1 by Ann (seat 0): there is no meld 2 to lay off onto (the deal has 1 "
     "meld"),
    (deal(0, ["", ""], [(5, "7h 8h 9h")], went_out=1),
     "deal 1, meld 1, seat: 5 is not a seat (the seats are 0 to 1)"),
    (deal(0, ["", "", ""], went_out=1),
     "deal 1: hands are per seat, 2 of them"),
    (deal(2, ["", ""]), "deal 1, dealer: 2 is not a seat"),
    (deal(0, ["", "Kd"], went_out=1), "deal 1: Bob (seat 1) went out, so holds no cards"),
    (deal(0, ["", ""], [(1, "7h * 9h")]), "there are no jokers in this game"),
    (deal(0, ["Zz", ""]), "deal 1, Ann (seat 0)'s hand: 'Zz' is not a card"),
    (deal(0, ["", ""], [(0, "7h 7d 7s")], points=[3, None]),
     "deal 1: Ann (seat 0) is given as 3 points, so has no cards on the table"),
    (deal(0, ["Kd", ""], points=[3, None]), "deal 1: Ann (seat 0) is given as 3 points, so "
     "has no hand"),
    (deal(0, ["", ""], points=[True, None]), "Ann (seat 0)'s points must be a whole number"),
    ({"dealer": 0, "hands": ["", ""], "layoff": []}, "deal 1: unknown field 'layoff'"),
])
def test_a_classic_pad_that_cannot_be_right(entry: dict[str, Any], words: str) -> None:
    assert words in refusal(pad("classic", TWO, [entry]))


def test_two_packs_hold_a_card_twice_not_three_times() -> None:
    twice = deal(0, ["7h", "", "", "", ""], [(1, "7h 8h 9h")], went_out=1)
    assert summary(pad("classic", ["A", "B", "C", "D", "E"], [twice]))["over"] is False
    thrice = deal(0, ["7h 7h", "", "", "", ""], [(1, "7h 8h 9h")], went_out=1)
    assert "7h appears 3 times" in refusal(pad("classic", ["A", "B", "C", "D", "E"], [thrice]))
    assert "the packs hold it 2 times" in refusal(
        pad("classic", ["A", "B", "C", "D", "E"], [thrice]))


def test_jokers_refused_where_they_cannot_be() -> None:
    no_card = deal(0, ["", ""], [(1, "7h * 9h")], went_out=1)
    assert "say which card each joker stands for, like *=6h" in refusal(
        pad("wild", TWO, [no_card]))
    laid_off = deal(0, ["", ""], [(1, "7h 8h 9h")], [(0, "*", 1)], went_out=1)
    assert "a wild joker says which card it stands for, like *=6h" in refusal(
        pad("wild", TWO, [laid_off]))
    assert "a joker appears 3 times" in refusal(pad("wild", TWO, [
        deal(0, ["*", ""], [(1, "7h *=8h *=9h")], went_out=1)]))
    persian = deal(0, ["", "", "", ""], [(1, "7h *=8h 9h")], went_out=1)
    assert "jokers are not wild in this game" in refusal(pad("persian", FOUR, [persian]))
    mixed = deal(0, ["", "", "", ""], [(1, "* * *")], [(0, "7h", 1)], went_out=1)
    assert "a set of jokers takes only jokers" in refusal(pad("persian", FOUR, [mixed]))
    declared_twice = deal(0, ["", ""], [(1, "7h 7d 7s")], [(0, "7c", 1), (0, "*=7c", 1)],
                          went_out=1)
    assert "does not fit meld 1" in refusal(pad("wild", TWO, [declared_twice]))


def test_a_meld_with_its_layoffs_must_be_one_meld_in_any_order() -> None:
    given = deal(0, ["", ""], [(1, "7h 8h 9h")], [(0, "Jh", 1), (1, "Th", 1), (0, "6h", 1)],
                 went_out=1)
    assert summary(pad("classic", TWO, [given]))["deals"][0]["scores"] == [10 + 6, 24 + 10]
    full_set = deal(0, ["", ""], [(1, "7h 7d 7s 7c")], [(0, "7c", 1)], went_out=1)
    assert "7c does not fit meld 1 (7♣ 7♦ 7♥ 7♠)" in refusal(pad("classic", TWO, [full_set]))


@pytest.mark.parametrize(("data", "words"), [
    ([], "a pad is a JSON object"),
    ({**pad("classic", TWO, []), "format": "rummy500-record"}, "the format must be"),
    ({**pad("classic", TWO, []), "version": 2}, "this is version 1 of the pad's file, not 2"),
    ({**pad("classic", TWO, []), "extra": 1}, "the pad: unknown field 'extra'"),
    (pad("nosuch", TWO, []), "rules: unknown preset 'nosuch'"),
    (pad("classic", TWO, [], min_run=99), "rules: min_run must be between"),
    (pad("partnership", TWO, []), "players: partnership is a partnership game for exactly four"),
    (pad("classic", ["Ann", ""], []), "players: seat 1's name must be 1 to 40 characters"),
    ({**pad("classic", TWO, []), "deals": {}}, "deals must be a list"),
    ({**pad("classic", TWO, []), "deals": [3]}, "deal 1: a deal is an object"),
])
def test_a_pad_that_cannot_be_read(data: Any, words: str) -> None:
    with pytest.raises(PadError, match=None) as caught:
        pad_from_json(data)
    assert words in str(caught.value)


def test_malformed_and_huge_json_are_refused() -> None:
    with pytest.raises(PadError, match="the pad is not JSON"):
        load_pad('{"format": ')
    with pytest.raises(PadError, match="too large"):
        load_pad(" " * (MAX_PAD_BYTES + 1))


# -- the property: a pad of the engine's own deals scores what the engine scored -------------

GAMES = int(os.environ.get("RUMMY500_SOAK", "4"))
"""Games played per configuration."""

CONFIGURATIONS: list[tuple[str, dict[str, Any], int]] = [
    ("classic", {}, 2), ("classic", {}, 3), ("classic", {}, 6),
    ("wild", {}, 2), ("wild", {"rummy_calls": True, "decks": 2}, 5),
    ("simplified", {}, 3), ("simplified", {"point_divisor": 5, "high_ace_only": True}, 2),
    ("boathouse", {}, 2), ("partnership", {}, 4),
    ("partnership", {"add_hand_to_winner": True}, 4),
    ("persian", {}, 4), ("persian", {"four_card_runs_double": True, "decks": 2}, 4),
    ("classic", {"add_hand_to_winner": True, "going_out_bonus": 25, "final_bonus": 50}, 3),
    ("wild", {"set_suits": "any", "decks": 2, "jokers_per_deck": 4, "ace_points": 25}, 3),
    ("classic", {"min_run": 4, "low_ace_points": 15, "target_score": 150}, 2),
]


def played(preset: str, options: dict[str, Any], players: int, seed: int) -> Game:
    game = Game(make_rules(preset, **options), players, seed=seed)
    bots = [make_bot("simple" if seat % 2 else "random", seed=seed * 10 + seat)
            for seat in range(players)]
    for _ in range(30_000):
        if game.finished:
            break
        game.play(bots[game.turn].decide(game.view(game.turn)).move, check=False)
    return game


@pytest.mark.parametrize(("preset", "options", "players"), CONFIGURATIONS,
                         ids=lambda value: str(value) if not isinstance(value, dict) else
                         ",".join(f"{k}={v}" for k, v in value.items()) or "-")
def test_a_pad_of_the_engines_deals_scores_what_the_engine_scored(
        preset: str, options: dict[str, Any], players: int) -> None:
    names = [f"P{seat}" for seat in range(players)]
    deals = 0
    for seed in range(GAMES):
        game = played(preset, options, players, seed)
        if ace_place_unknown(game):  # pragma: no cover - a run of all thirteen: very rare
            continue
        scored = score_pad(pad_from_json(pad_of_game(game, names)))
        # How a deal ended short of going out is no part of a pad: all else is.
        assert [result._replace(ended_by="") for result in scored.results] == [
            result._replace(ended_by="") for result in game.results]
        assert (scored.totals, scored.finished, scored.winner, scored.margin) == (
            game.totals, game.finished, game.winner, game.margin)
        for index in range(len(game.results)):
            mine, theirs = deal_sheet(scored, names, index, None), deal_sheet(
                game, names, index, None)
            assert (mine.lines, mine.scores, mine.totals_after, mine.standing) == (
                theirs.lines, theirs.scores, theirs.totals_after, theirs.standing)
        deals += len(game.results)
    assert deals >= GAMES


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.sampled_from(
        ["", "7h", "7h 7d 7s", "*", "*=6h", "Zz", "As Ks Qs", "10c"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["seat", "cards", "on", "dealer", "hands", "melds"]), inner,
        max_size=3),
    max_leaves=10)


@given(field=st.sampled_from(["dealer", "went_out", "melds", "layoffs", "hands", "points"]),
       value=JSON_VALUES, preset=st.sampled_from(["classic", "wild", "persian"]))
def test_any_value_in_a_deal_is_scored_or_refused_in_words(field: str, value: Any,
                                                           preset: str) -> None:
    names = FOUR if preset == "persian" else TWO
    entry = deal(0, [""] * len(names), [(1, "7h 8h 9h")], [(0, "Th", 1)], went_out=1)
    entry[field] = value
    try:
        score_pad(pad_from_json(pad(preset, names, [entry])))
    except PadError as error:
        assert str(error).startswith("deal 1")
