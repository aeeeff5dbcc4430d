"""Rule-book tests of RULES.md section 1 (players, pack, deal) and section 8 (presets),
and of the settings that cannot be played.

Each test names the row it checks and the rule books behind it (000 … 004).
"""

from __future__ import annotations

import pytest

from helpers import deal_from_hands, faces, legal, play
from rummy500 import Game, RulesError, make_rules
from rummy500.cards import JOKER, face_of, make_pack
from rummy500.record import game_record
from rummy500.rules import PRESETS, parse_option_value

# -- 1. players --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_s1_players_two_to_eight__000_002_004(players: int) -> None:
    """1, players: "2–8 (000, 002, 004)": classic deals for every count from two to eight."""
    game = Game(make_rules("classic"), players, seed=1)
    assert len(game.deal.hands) == players
    assert game.rules.max_players == 8


@pytest.mark.parametrize("players", [0, 1, 9, 12])
def test_s1_players_outside_two_to_eight_refused__000_002_004(players: int) -> None:
    """1, players: fewer than two or more than eight players are refused, saying the range."""
    with pytest.raises(RulesError, match=rf"2 to 8 players, not {players}"):
        Game(make_rules("classic"), players)


def test_s1_players_two_to_six__001() -> None:
    """1, players: "2–6 (001)": the simplified preset (001) deals for six, refuses seven."""
    Game(make_rules("simplified"), 6, seed=1)
    with pytest.raises(RulesError, match=r"simplified is played by 2 to 6 players, not 7"):
        Game(make_rules("simplified"), 7)


# -- 1. packs and jokers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "copies"), [(2, 52, 1), (3, 52, 1), (4, 52, 1), (5, 104, 2), (8, 104, 2)]
)
def test_s1_packs_auto_one_up_to_four_two_for_five__000_001_003_004(
    players: int, size: int, copies: int
) -> None:
    """1, packs: one 52-card pack up to 4 players, two shuffled together for 5+ (decks auto)."""
    game = Game(make_rules("classic"), players, seed=3)
    cards = game.deal.all_cards()
    assert len(cards) == size
    assert sorted(cards) == sorted(make_pack(copies, 0))
    assert game.rules.deck_count(players) == copies


def test_s1_packs_decks_one_and_two_set_by_hand__002() -> None:
    """1, packs: `decks` 1 or 2 overrides auto (002 uses two packs only above six)."""
    five_one = Game(make_rules("classic", decks=1), 5, seed=2)
    assert len(five_one.deal.all_cards()) == 52
    two_two = Game(make_rules("classic", decks=2), 2, seed=2)
    cards = two_two.deal.all_cards()
    assert len(cards) == 104
    assert len({face_of(card) for card in cards}) == 52


@pytest.mark.parametrize(
    ("preset", "options", "players", "size", "jokers"),
    [
        ("classic", {}, 4, 52, 0),
        ("wild", {}, 4, 54, 2),
        ("wild", {}, 5, 108, 4),
        ("persian", {}, 4, 56, 4),
        ("wild", {"jokers_per_deck": 1}, 3, 53, 1),
        ("classic", {"jokers": "persian"}, 6, 112, 8),
    ],
)
def test_s1_jokers_none_wild_persian_pack_sizes__000_001_002_004(
    preset: str, options: dict[str, object], players: int, size: int, jokers: int
) -> None:
    """1, jokers: none (52); 2 wild per pack, 54/108 cards (000, 002); Persian: 4, 56 (001, 004)."""
    rules = make_rules(preset, **options)
    game = Game(rules, players, seed=5)
    cards = game.deal.all_cards()
    assert len(cards) == size == rules.pack_size(players)
    assert sum(1 for card in cards if face_of(card) == JOKER) == jokers


def test_s1_jokers_per_deck_needs_jokers__000_002() -> None:
    """1, jokers: `jokers_per_deck` without jokers is refused, and it is at most four."""
    with pytest.raises(RulesError, match="jokers_per_deck needs jokers"):
        make_rules("classic", jokers_per_deck=2)
    with pytest.raises(RulesError, match="between 0 and 4"):
        make_rules("wild", jokers_per_deck=5)


# -- 1. cards dealt ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "options", "dealt"),
    [("classic", {}, 13), ("simplified", {}, 13), ("wild", {}, 10),
     ("classic", {"hand_size_two": 7}, 7), ("classic", {"hand_size_two": 10}, 10)],
)
def test_s1_cards_dealt_two_players__000_001_002_003_004(
    preset: str, options: dict[str, object], dealt: int
) -> None:
    """1, cards dealt, 2 players: 13 (001, 003), 10 (000, 002), 7 (004): `hand_size_two`."""
    game = Game(make_rules(preset, **options), 2, seed=4)
    assert [hand.bit_count() for hand in game.deal.hands] == [dealt, dealt]
    assert len(game.deal.stock) == 52 + game.rules.jokers_in_each_deck - 2 * dealt - 1


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_s1_cards_dealt_three_or_more_seven__all(players: int) -> None:
    """1, cards dealt, 3+ players: 7 (all books): `hand_size`, 13 for two does not apply."""
    game = Game(make_rules("classic"), players, seed=4)
    assert [hand.bit_count() for hand in game.deal.hands] == [7] * players
    small = Game(make_rules("classic", hand_size=5), players, seed=4)
    assert [hand.bit_count() for hand in small.deal.hands] == [5] * players


# -- 1. first dealer, dealing, next deal, who plays first --------------------------------------


def test_s1_first_dealer_drawn_by_seeded_random_and_recorded__decided() -> None:
    """1, first dealer: **decided**: drawn by the seeded random source, recorded."""
    dealers = {Game(make_rules("classic"), 3, seed=seed).first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2}
    for seed in range(5):
        one = Game(make_rules("classic"), 4, seed=seed)
        two = Game(make_rules("classic"), 4, seed=seed)
        assert one.first_dealer == two.first_dealer
        assert game_record(one)["rounds"][0]["dealer"] == one.first_dealer
        assert one.deal.deck == two.deal.deck


def test_s1_dealing_one_at_a_time_from_dealers_left_then_up_card_then_stock__000() -> None:
    """1, dealing: one card at a time, clockwise, from the dealer's left (000); the next card
    is turned up to start the discard pile, the rest is the stock (all)."""
    rules = make_rules("classic")
    pack = make_pack(1, 0)
    game = Game(rules, 3, dealer=1, auto_deal=False)
    deal = game.start_deal(pack)
    # seat 2 sits left of the dealer (seat 1): it gets the first card, seat 0 the second
    assert faces(deal.hands[2]) == sorted(faces(pack[0:21:3]))
    assert faces(deal.hands[0]) == sorted(faces(pack[1:21:3]))
    assert faces(deal.hands[1]) == sorted(faces(pack[2:21:3]))
    assert deal.pile == [pack[21]]
    assert len(deal.stock) == 52 - 22
    assert deal.turn == 2
    deal.play("draw")
    assert deal.hands[2] >> pack[22] & 1


def test_s1_next_deal_passes_to_the_left__000_004() -> None:
    """1, next deal: the deal passes to the left (000, 004): dealer + 1 deals next."""
    rules = make_rules("classic", hand_size=3)
    game = deal_from_hands(rules, ["7h 7d 7s", "2c 5d 9s", "3c 6d Ts"], stock="Kc",
                           dealer=2, auto_deal=True)
    assert game.deal.dealer == 2
    play(game, "draw", "meld 7d 7h 7s", "discard Kc")
    assert len(game.deals) == 2
    assert game.deals[0].went_out == 0
    assert game.deal.dealer == 0
    assert game.deal.turn == 1
    assert game.deal.melds == []  # melds are numbered afresh in each deal (section 3)
    assert game_record(game)["rounds"][1]["dealer"] == 0


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (3, 2), (5, 3), (8, 7)])
def test_s1_player_left_of_dealer_plays_first__000_003_004(players: int, dealer: int) -> None:
    """1, who plays first: the player to the dealer's left (000, 003, 004)."""
    game = Game(make_rules("classic"), players, dealer=dealer, seed=9)
    first = (dealer + 1) % players
    assert game.turn == first
    assert game.deal.phase == "draw"
    assert "draw" in legal(game)
    assert game.view(first).my_turn
    assert not game.view(dealer).my_turn


# -- 8. presets --------------------------------------------------------------------------------


def test_s8_preset_classic__rules_md() -> None:
    """8, classic: no jokers; packs auto; 13 cards for two, 7 for more; traditional points
    (low ace 1); top discard need not be used; going out with or without a discard;
    stock_exhausted = discard_pile; no rummy calls; 500."""
    rules = make_rules("classic")
    assert rules == make_rules() == PRESETS["classic"]
    assert (rules.jokers, rules.decks, rules.hand_size_two, rules.hand_size) == (
        "none", "auto", 13, 7)
    assert (rules.card_points, rules.ace_points, rules.low_ace_points) == ("traditional", 15, 1)
    assert rules.top_discard_must_be_used is False
    assert rules.discard_to_go_out is False
    assert rules.stock_exhausted == "discard_pile"
    assert rules.rummy_calls is False
    assert rules.target_score == 500
    assert rules.partnership is False
    assert rules.going_out_bonus == 0


def test_s8_preset_wild__000() -> None:
    """8, wild: as in 000: 2 wild jokers a pack (15 points), 10 cards for two, the deal ends
    when the stock is empty, rummy calls on."""
    rules = make_rules("wild")
    assert rules.jokers == "wild"
    assert rules.jokers_in_each_deck == 2
    assert rules.joker_value == 15
    assert rules.hand_size_two == 10
    assert rules.stock_exhausted == "end"
    assert rules.rummy_calls is True
    assert rules.target_score == 500


def test_s8_preset_simplified__001() -> None:
    """8, simplified: as in 001: 2–9 score 5, low ace 5, the top card taken must be used too,
    2–6 players."""
    rules = make_rules("simplified")
    assert rules.card_points == "simplified"
    assert rules.low_ace_points == 5
    assert rules.ace_points == 15
    assert rules.top_discard_must_be_used is True
    assert rules.max_players == 6
    assert rules.jokers == "none"


def test_s8_preset_boathouse__004() -> None:
    """8, boathouse: classic with discard_to_go_out."""
    rules = make_rules("boathouse")
    assert rules.discard_to_go_out is True
    assert rules.overrides() == {}
    assert {k: v for k, v in vars_of(rules).items() if vars_of(PRESETS["classic"])[k] != v} == {
        "discard_to_go_out": True}


def test_s8_preset_partnership__001_004() -> None:
    """8, partnership: classic for four in two sides."""
    rules = make_rules("partnership")
    assert rules.partnership is True
    assert {k: v for k, v in vars_of(rules).items() if vars_of(PRESETS["classic"])[k] != v} == {
        "partnership": True}
    game = Game(rules, 4, seed=1)
    assert game.totals == [0, 0]


def test_s8_preset_persian__004() -> None:
    """8, persian: as in 004's Persian Rummy (section 7)."""
    rules = make_rules("persian")
    assert rules.jokers == "persian"
    assert rules.jokers_in_each_deck == 4
    assert rules.joker_value == 20
    assert rules.partnership is True
    assert rules.four_of_a_kind_doubles is True
    assert rules.going_out_bonus == 25
    assert rules.final_bonus == 50
    assert rules.max_deals == 2
    assert rules.target_score is None
    assert rules.pack_size(4) == 56


def vars_of(rules: object) -> dict[str, object]:
    import dataclasses

    assert dataclasses.is_dataclass(rules)
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name != "preset"}


def test_s8_every_option_can_be_set_on_a_preset__rules_md() -> None:
    """8: "Every option can be set on top of a preset": the preset name stays, the option
    changes, the record keeps both, and a command-line value is read in the option's type."""
    rules = make_rules("wild", hand_size_two=13, stock_exhausted="reshuffle")
    assert rules.preset == "wild"
    assert rules.jokers == "wild"
    assert rules.hand_size_two == 13
    assert rules.to_record() == {"preset": "wild", "hand_size_two": 13,
                                 "stock_exhausted": "reshuffle"}
    persian = make_rules("persian", max_deals=3, going_out_bonus=0)
    assert (persian.max_deals, persian.going_out_bonus, persian.final_bonus) == (3, 0, 50)
    assert parse_option_value("min_run", "4") == 4
    assert parse_option_value("rummy_calls", "true") is True
    assert parse_option_value("stock_exhausted", "end") == "end"
    assert make_rules("classic", min_run=parse_option_value("min_run", "4")).min_run == 4


# -- impossible settings -----------------------------------------------------------------------


def test_impossible_nine_players__000_002_004() -> None:
    """1, players: nine players are refused with a message naming the range."""
    with pytest.raises(RulesError, match=r"classic is played by 2 to 8 players, not 9"):
        make_rules("classic").check_players(9)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_impossible_persian_or_partnership_not_four__001_004(players: int) -> None:
    """6/7: partnership and Persian are for exactly four players (two sides)."""
    for preset in ("persian", "partnership"):
        with pytest.raises(RulesError, match=rf"{preset} is a partnership game for exactly "
                                             rf"four players \(two sides\), not {players}"):
            Game(make_rules(preset), players)


def test_impossible_simplified_for_seven__001() -> None:
    """1, players: 001 (simplified) is for 2–6 players."""
    with pytest.raises(RulesError, match=r"2 to 6 players, not 7"):
        make_rules("simplified").check_players(7)


@pytest.mark.parametrize(
    ("options", "players", "words"),
    [({"hand_size": 13}, 4, "needs 53 cards, and the pack of 52 must leave a stock"),
     ({"hand_size_two": 26}, 2, "needs 53 cards"),
     ({"hand_size_two": 26, "decks": 2}, 2, None),
     ({"hand_size": 17}, 3, "needs 52 cards, and the pack of 52 must leave a stock")],
)
def test_impossible_deal_larger_than_the_pack__decided(
    options: dict[str, object], players: int, words: str | None
) -> None:
    """1: a deal (hands and the up-card) must leave a stock, else it is refused clearly."""
    rules = make_rules("classic", **options)
    if words is None:
        Game(rules, players, seed=1)
        return
    with pytest.raises(RulesError, match=words):
        Game(rules, players)


def test_impossible_unknown_option_and_preset__rules_md() -> None:
    """8: only the options of RULES.md exist; an unknown one (or preset) is refused by name."""
    with pytest.raises(RulesError, match=r"unknown option 'wild_cards'; the options are: decks"):
        make_rules("classic", wild_cards=True)
    with pytest.raises(RulesError, match=r"unknown preset 'gin'; the presets are: classic"):
        make_rules("gin")
    with pytest.raises(RulesError, match=r"unknown option 'colour'"):
        parse_option_value("colour", "red")


@pytest.mark.parametrize(
    ("options", "words"),
    [({"decks": 3}, "decks must be 'auto', 1 or 2"),
     ({"jokers": "crazy"}, "jokers must be 'none', 'wild' or 'persian'"),
     ({"stock_exhausted": "never"}, "stock_exhausted must be 'end', 'discard_pile' or"),
     ({"min_run": 2}, "min_run must be between 3 and 13"),
     ({"card_points": "double"}, "card_points must be 'traditional' or 'simplified'"),
     ({"point_divisor": 3}, "point_divisor must be 1 or 5"),
     ({"target_score": None}, "a game needs a target_score, a max_deals, or both"),
     ({"rummy_calls": "yes"}, "rummy_calls cannot be 'yes'"),
     ({"hand_size": 0}, "at least one card")],
)
def test_impossible_option_values_refused__rules_md(options: dict[str, object], words: str) -> None:
    """Every option takes only the values RULES.md gives it; others are refused by name."""
    with pytest.raises(RulesError, match=words):
        make_rules("classic", **options)
