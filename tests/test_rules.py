"""Rules: presets, overrides, refusals with clear messages, and the record round trip."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fuzzkit import read_or_refused
from rummy500 import Game
from rummy500.rules import (
    OPTION_DOCS,
    OPTION_NAMES,
    OPTION_TYPES,
    PRESET_DOCS,
    PRESETS,
    Rules,
    RulesError,
    find_preset,
    make_rules,
    parse_option_value,
    rules_from_record,
)

# -- presets -------------------------------------------------------------------------------


def test_every_option_is_a_documented_field() -> None:
    fields = {f.name for f in dataclasses.fields(Rules)} - {"preset"}
    assert set(OPTION_TYPES) == fields == set(OPTION_DOCS) == set(OPTION_NAMES)
    for name, (meaning, books, values) in OPTION_DOCS.items():
        assert meaning and books and values, name


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_builds_and_plays(name: str) -> None:
    rules = make_rules(name)
    assert rules == PRESETS[name] == find_preset(name)
    assert rules.preset == name
    assert rules.to_record() == {"preset": name}
    assert rules.overrides() == {}
    assert name in PRESET_DOCS
    players = 4 if rules.partnership else 2
    game = Game(rules, players, seed=1)
    assert game.legal_moves()


def test_presets_say_what_the_spec_says() -> None:
    wild, simplified, persian = PRESETS["wild"], PRESETS["simplified"], PRESETS["persian"]
    assert (wild.jokers, wild.jokers_in_each_deck, wild.joker_value) == ("wild", 2, 15)
    assert (wild.hand_size_two, wild.stock_exhausted, wild.rummy_calls) == (10, "end", True)
    assert (simplified.card_points, simplified.low_ace_points) == ("simplified", 5)
    assert simplified.top_discard_must_be_used and simplified.max_players == 6
    assert PRESETS["boathouse"].discard_to_go_out
    assert PRESETS["partnership"].partnership and PRESETS["partnership"].sides(4) == 2
    assert (persian.jokers_in_each_deck, persian.joker_value, persian.going_out_bonus) == (
        4, 20, 25)
    assert (persian.max_deals, persian.target_score, persian.final_bonus) == (2, None, 50)
    assert persian.four_of_a_kind_doubles and persian.pack_size(4) == 56
    classic = PRESETS["classic"]
    assert classic.deck_count(4) == 1 and classic.deck_count(5) == 2
    assert classic.cards_dealt(2) == 13 and classic.cards_dealt(3) == 7
    assert [classic.side_of(s) for s in range(3)] == [0, 1, 2]
    assert [PRESETS["partnership"].side_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_overrides_are_set_over_the_preset() -> None:
    rules = make_rules("wild", min_run=4, rummy_calls=False)
    assert rules.preset == "wild" and rules.min_run == 4 and not rules.rummy_calls
    assert rules.jokers == "wild"
    assert rules.overrides() == {"min_run": 4, "rummy_calls": False}
    assert rules.to_record() == {"preset": "wild", "min_run": 4, "rummy_calls": False}
    assert make_rules("classic", decks=2).deck_count(2) == 2


def test_point_divisor_scales_the_target_unless_it_is_set() -> None:
    five = {"point_divisor": 5, "card_points": "simplified", "low_ace_points": 5}
    assert make_rules("classic", **five).target_score == 100
    assert make_rules("classic", **five, target_score=300).target_score == 300
    assert make_rules("persian", **five, joker_points=20).target_score is None


# -- refusals --------------------------------------------------------------------------------

REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("classic", {"colour": "red"}, "unknown option 'colour'"),
    ("classic", {"min_run": "4"}, "min_run cannot be '4'"),
    ("classic", {"min_run": 3.0}, "min_run cannot be 3.0"),
    ("classic", {"rummy_calls": 1}, "rummy_calls cannot be 1"),
    ("classic", {"hand_size": True}, "hand_size cannot be True"),
    ("classic", {"decks": True}, "decks cannot be True"),
    ("classic", {"jokers": None}, "jokers cannot be None"),
    ("classic", {"decks": 3}, "decks must be 'auto', 1 or 2"),
    ("classic", {"decks": "two"}, "decks must be 'auto', 1 or 2"),
    ("classic", {"jokers": "mad"}, "jokers must be"),
    ("classic", {"jokers_per_deck": 2}, "jokers_per_deck needs jokers"),
    ("wild", {"jokers_per_deck": 5}, "between 0 and 4"),
    ("wild", {"jokers_per_deck": -1}, "between 0 and 4"),
    ("classic", {"card_points": "fancy"}, "card_points must be"),
    ("classic", {"stock_exhausted": "never"}, "stock_exhausted must be"),
    ("classic", {"min_run": 2}, "min_run must be between 3 and 13"),
    ("classic", {"min_run": 14}, "min_run must be between 3 and 13"),
    ("classic", {"hand_size": 0}, "at least one card"),
    ("classic", {"hand_size_two": -3}, "at least one card"),
    ("classic", {"max_players": 9}, "max_players must be between 2 and 8"),
    ("classic", {"max_players": 1}, "max_players must be between 2 and 8"),
    ("classic", {"target_score": None}, "needs a target_score, a max_deals, or both"),
    ("classic", {"target_score": 0}, "target_score must be positive"),
    ("persian", {"max_deals": 0}, "max_deals must be at least 1"),
    ("classic", {"ace_points": -1}, "ace_points cannot be negative"),
    ("classic", {"final_bonus": -50}, "final_bonus cannot be negative"),
    ("wild", {"joker_points": -5}, "joker_points cannot be negative"),
    ("classic", {"point_divisor": 3}, "point_divisor must be 1 or 5"),
    ("classic", {"point_divisor": 5}, "low aces (1), 2 to 9 at face value (2) do not"),
    ("classic", {"point_divisor": 5, "low_ace_points": 5}, "2 to 9 at face value (2)"),
    ("classic", {"point_divisor": 0}, "point_divisor must be 1 or 5"),
    ("classic", {"point_divisor": None}, "point_divisor cannot be None"),
    ("classic", {"point_divisor": 5.0}, "point_divisor cannot be 5.0"),
    ("simplified", {"point_divisor": 5, "low_ace_points": 5, "ace_points": 12}, "aces (12)"),
    ("persian", {"point_divisor": 5, "card_points": "simplified", "low_ace_points": 5,
                 "joker_points": 22}, "jokers (22)"),
]


@pytest.mark.parametrize(("preset", "overrides", "words"), REFUSED)
def test_impossible_settings_are_refused_with_a_clear_message(
    preset: str, overrides: dict[str, Any], words: str
) -> None:
    with pytest.raises(RulesError) as caught:
        make_rules(preset, **overrides)
    assert words in str(caught.value)


def test_unknown_preset_names_the_presets() -> None:
    with pytest.raises(RulesError, match="unknown preset 'chess'; the presets are: classic"):
        make_rules("chess")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("classic", "rules must be an object"),
        (["classic"], "rules must be an object"),
        ({"preset": 5}, "the preset must be a name"),
        ({"preset": "chess"}, "unknown preset"),
        ({"preset": "wild", "min_run": [4]}, "min_run cannot be [4]"),
        ({"jokers": "wild", "jokers_per_deck": "2"}, "jokers_per_deck cannot be '2'"),
    ],
)
def test_bad_rules_in_a_record_are_refused(data: Any, words: str) -> None:
    with pytest.raises(RulesError) as caught:
        rules_from_record(data)
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("preset", "overrides", "players", "words"),
    [
        ("classic", {}, 9, "2 to 8 players, not 9"),
        ("classic", {}, 1, "2 to 8 players, not 1"),
        ("classic", {}, True, "whole number"),
        ("classic", {}, "2", "whole number"),
        ("classic", {}, 2.0, "whole number"),
        ("simplified", {}, 7, "2 to 6 players, not 7"),
        ("partnership", {}, 3, "exactly four players"),
        ("persian", {}, 6, "exactly four players"),
        ("classic", {"hand_size": 13}, 4, "must leave a stock"),
        ("classic", {"hand_size": 20, "decks": 2}, 8, "must leave a stock"),
        ("classic", {"hand_size_two": 26}, 2, "must leave a stock"),
    ],
)
def test_player_counts_that_cannot_be_played(
    preset: str, overrides: dict[str, Any], players: Any, words: str
) -> None:
    rules = make_rules(preset, **overrides)
    with pytest.raises(RulesError) as caught:
        rules.check_players(players)
    assert words in str(caught.value)
    with pytest.raises(RulesError):
        Game(rules, players)


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("decks", "2", 2),
        ("decks", "auto", "auto"),
        ("jokers", "Wild", "Wild"),
        ("jokers_per_deck", "none", None),
        ("jokers_per_deck", "", None),
        ("jokers", "none", "none"),
        ("rummy_calls", "yes", True),
        ("rummy_calls", "OFF", False),
        ("min_run", " 4 ", 4),
        ("target_score", "null", None),
    ],
)
def test_option_values_from_the_command_line(name: str, text: str, value: Any) -> None:
    assert parse_option_value(name, text) == value


def test_unknown_option_from_the_command_line() -> None:
    with pytest.raises(RulesError, match="unknown option 'colour'"):
        parse_option_value("colour", "red")


# -- random option mixes ------------------------------------------------------------------------

OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "decks": st.sampled_from(["auto", 1, 2]),
    "jokers": st.sampled_from(["none", "wild", "persian"]),
    "jokers_per_deck": st.none() | st.integers(0, 4),
    "hand_size_two": st.integers(1, 15),
    "hand_size": st.integers(1, 10),
    "max_players": st.integers(2, 8),
    "top_discard_must_be_used": st.booleans(),
    "min_run": st.integers(3, 6),
    "set_suits": st.sampled_from(["distinct", "any"]),
    "card_points": st.sampled_from(["traditional", "simplified"]),
    "ace_points": st.sampled_from([15, 25, 10, 0, 7]),
    "low_ace_points": st.sampled_from([1, 5, 15]),
    "joker_points": st.none() | st.sampled_from([15, 20, 25, 0, 3]),
    "point_divisor": st.sampled_from([1, 1, 1, 5]),
    "target_score": st.none() | st.sampled_from([500, 100, 250, 1000, 7]),
    "max_deals": st.none() | st.integers(1, 4),
    "discard_to_go_out": st.booleans(),
    "stock_exhausted": st.sampled_from(["end", "discard_pile", "reshuffle"]),
    "add_hand_to_winner": st.booleans(),
    "going_out_bonus": st.sampled_from([0, 25, 10, 3]),
    "final_bonus": st.sampled_from([0, 50, 100, 2]),
    "rummy_calls": st.booleans(),
    "partnership": st.booleans(),
    "four_of_a_kind_doubles": st.booleans(),
    "high_ace_only": st.booleans(),
    "discard_taken_card": st.booleans(),
    "four_card_runs_double": st.booleans(),
}
assert set(OPTION_VALUES) == set(OPTION_TYPES)


@st.composite
def option_mixes(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    preset = draw(st.sampled_from(list(PRESETS)))
    names = draw(st.lists(st.sampled_from(list(OPTION_VALUES)), unique=True, max_size=8))
    return preset, {name: draw(OPTION_VALUES[name]) for name in names}


def _build(mix: tuple[str, dict[str, Any]]) -> Rules:
    preset, overrides = mix
    try:
        return make_rules(preset, **overrides)
    except RulesError as error:
        assert str(error)
        assume(False)
        raise


@given(option_mixes())
def test_overrides_are_applied_or_refused(mix: tuple[str, dict[str, Any]]) -> None:
    preset, overrides = mix
    try:
        rules = make_rules(preset, **overrides)
    except RulesError as error:
        assert str(error)
        return
    assert rules.preset == preset
    for name, value in overrides.items():
        assert getattr(rules, name) == value
    base = PRESETS[preset]
    for name in OPTION_NAMES:
        if name not in overrides and name != "target_score":
            assert getattr(rules, name) == getattr(base, name)


@given(option_mixes())
def test_rules_record_round_trip(mix: tuple[str, dict[str, Any]]) -> None:
    rules = _build(mix)
    record = json.loads(json.dumps(rules.to_record()))
    again = rules_from_record(record)
    assert again == rules
    assert again.preset == rules.preset
    assert again.to_record() == rules.to_record()
    assert make_rules(rules.preset, **rules.overrides()) == rules


@given(option_mixes())
def test_command_line_values_round_trip(mix: tuple[str, dict[str, Any]]) -> None:
    _preset, overrides = mix
    for name, value in overrides.items():
        text = "none" if value is None else json.dumps(value).strip('"')
        assert parse_option_value(name, text) == value


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 600) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6,
)


@given(
    st.one_of(
        json_values,
        st.dictionaries(
            st.sampled_from([*OPTION_NAMES, "preset", "colour"]),
            st.one_of(json_values, *OPTION_VALUES.values(), st.sampled_from(list(PRESETS))),
            max_size=6,
        ),
    )
)
def test_fuzzed_rules_records_are_read_or_refused(data: Any) -> None:
    rules = read_or_refused(rules_from_record, data, RulesError)
    if rules is None:
        return
    assert isinstance(rules, Rules)
    assert rules_from_record(rules.to_record()) == rules


@given(st.sampled_from(OPTION_NAMES), st.text(max_size=10) | st.sampled_from(
    ["true", "no", "none", "2", "auto", "wild", "5", "-1", "1e3", "[1]", '"x"', "{}", "3.5"]))
def test_fuzzed_command_line_options_are_read_or_refused(name: str, text: str) -> None:
    value = parse_option_value(name, text)
    try:
        rules = make_rules("classic", **{name: value})
    except RulesError as error:
        assert str(error)
        return
    assert getattr(rules, name) == value
