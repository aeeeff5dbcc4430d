"""One home for each fact: the end-of-game check, the rule options table, NAME=VALUE."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rummy500 import Game, make_rules
from rummy500.bots.context import RACE, Context
from rummy500.cli import main
from rummy500.errors import RulesError, SettingsError
from rummy500.game import game_end, winner_after
from rummy500.rules import (
    OPTION_DOCS,
    OPTION_NAMES,
    OPTION_TABLE,
    OPTIONS,
    Rules,
    parse_options,
)
from rummy500.runners import simulation
from rummy500.session import settings


def test_winner_after_adds_the_deal_and_asks_game_end() -> None:
    rules = make_rules("classic")
    assert winner_after(rules, [480, 300], [30, 10], 3) == 0
    assert winner_after(rules, [480, 300], [10, 210], 3) == 1
    assert winner_after(rules, [480, 490], [30, 20], 3) is None  # 510 all: tied, game goes on
    assert winner_after(rules, [100, 100], [5, 5], 3) is None
    persian = make_rules("persian")  # two deals, no target
    assert winner_after(persian, [100, 90], [0, 5], 1) is None
    assert winner_after(persian, [100, 90], [0, 5], 2) == 0
    assert winner_after(persian, [100, 90], [0, 10], 2) is None  # drawn
    for totals, scores, deals in [([480, 300], [30, 10], 3), ([100, 90], [0, 10], 2)]:
        after = [t + s for t, s in zip(totals, scores, strict=True)]
        assert winner_after(persian, totals, scores, deals) == game_end(persian, after, deals)[1]


def test_the_bots_race_is_the_games_end_check() -> None:
    game = Game(make_rules("classic"), players=2, seed=11)
    game.totals = [490, 0]
    view = game.view(0)
    context = Context(view)
    assert context.race([20.0, 0.0]) == RACE
    assert context.race([0.0, 600.0]) == -RACE
    assert context.race([0.0, 0.0]) == 0.0


# -- the rule options: one table ---------------------------------------------------------


def test_the_option_table_is_rules_fields_in_order() -> None:
    names = [f.name for f in dataclasses.fields(Rules) if f.name != "preset"]
    assert [option.name for option in OPTIONS] == names == list(OPTION_DOCS) == list(OPTION_NAMES)
    assert OPTION_TABLE["decks"].types == (str, int)
    assert OPTION_TABLE["decks"].choices == ("auto", 1, 2)  # from the Literal type
    assert OPTION_TABLE["joker_points"].types == (int, type(None))
    assert OPTION_TABLE["rummy_calls"].values == "true or false"
    assert OPTION_TABLE["min_run"].values == "3 to 13"
    assert OPTION_TABLE["jokers_per_deck"].values == "0 to 4, or none for the default"
    assert OPTION_TABLE["target_score"].values == "1 to 100,000, or none"
    assert OPTION_DOCS["stock_exhausted"][2] == "end, discard_pile or reshuffle"


@pytest.mark.parametrize(("name", "value", "words"), [
    ("min_run", 14, "min_run must be between 3 and 13, not 14"),
    ("max_players", 1, "max_players must be between 2 and 8, not 1"),
    ("ace_points", 1001, "ace_points cannot be negative nor above 1,000 (from 0 to 1,000)"),
    ("target_score", 100_001, "target_score must be positive and at most 100,000"),
    ("jokers", "crazy", "jokers must be 'none', 'wild' or 'persian', not 'crazy'"),
    ("point_divisor", 2, "point_divisor must be 1 or 5, not 2"),
    ("partnership", "yes", "partnership cannot be 'yes' (true or false)"),
])
def test_each_option_is_checked_from_its_table_row(name: str, value: object, words: str) -> None:
    with pytest.raises(RulesError) as caught:
        make_rules("classic", **{name: value})
    assert words in str(caught.value)
    with pytest.raises(RulesError):
        OPTION_TABLE[name].check(value)


def test_rummy500_rules_prints_every_row_of_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for option in OPTIONS:
        assert f"  {option.name}  (classic: " in out
        assert f"values: {option.values}" in " ".join(out.split())
    assert main(["rules", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["options"]) == list(OPTION_NAMES)
    assert data["options"]["min_run"]["values"] == "3 to 13"


# -- NAME=VALUE: one reader ----------------------------------------------------------------


def test_one_reader_of_name_value_settings() -> None:
    assert parse_options(["min_run=4", "rummy_calls=yes,target_score=none"]) == {
        "min_run": 4, "rummy_calls": True, "target_score": None}
    assert parse_options(["min_run:4;jokers:wild"], assign=":") == {
        "min_run": 4, "jokers": "wild"}
    assert parse_options(["", " , "]) == {}
    with pytest.raises(RulesError, match="'min_run' is not an option setting: write NAME=VALUE"):
        parse_options(["min_run"])
    with pytest.raises(RulesError, match="unknown option 'colour'"):
        parse_options(["colour=red"])
    # the command line, the table session and the terminal set-up all read through it
    assert simulation.rules_from_options("classic", ["min_run=4, rummy_calls=true"]) == \
        make_rules("classic", min_run=4, rummy_calls=True)
    assert settings.parse_options(["min_run=4 rummy_calls=true"]) == {
        "min_run": 4, "rummy_calls": True}
    with pytest.raises(SettingsError, match="NAME=VALUE"):
        settings.parse_options(["min_run"])
    with pytest.raises(SettingsError, match="unknown option"):
        settings.parse_options(["colour=red"])


def test_openspiel_reads_its_options_through_the_same_reader() -> None:
    pytest.importorskip("pyspiel")
    from rummy500.rl import openspiel

    assert openspiel.parse_options("min_run:4;rummy_calls:true") == {
        "min_run": 4, "rummy_calls": True}
    with pytest.raises(RulesError, match="write NAME:VALUE"):
        openspiel.parse_options("min_run=4")
