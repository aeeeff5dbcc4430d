"""Rule-book tests of RULES.md section 5 (end of a deal, scoring, winning): going out,
the Boathouse rule, the three `stock_exhausted` policies, the deal score, Add Opponent's
Hand, the going-out bonus and winning at the target."""

from __future__ import annotations

import dataclasses

from helpers import deal_from_hands, face_text, faces, legal, play
from rummy500 import Game, make_rules
from rummy500.cards import face_of, iter_bits
from rummy500.rules import Rules

SMALL = make_rules("classic", hand_size_two=3)

LOW = " ".join(f"{rank}{suit}" for rank in "234567" for suit in "cdhs")
"""Every 2 … 7: with K♠ it is seat 1's hand of 25 when the stock holds one card."""


def value(card: int) -> int:
    """Traditional points of a natural card, computed here independently of the engine."""
    rank = face_of(card) & 15
    return 15 if rank == 1 else 10 if rank >= 10 else rank


def hand_value(cards: int) -> int:
    return sum(value(card) for card in iter_bits(cards))


def last_card_game(rules: Rules) -> Game:
    """Two players with 25 cards each and one stock card (K♥); seat 1 holds 2 … 7 and K♠,
    seat 0 the 8s to queens, the aces and K♣; the up-card is K♦."""
    return deal_from_hands(dataclasses.replace(rules, hand_size_two=25), ["...", LOW + " Ks"],
                           up="Kd", stock="Kh")


# -- going out ---------------------------------------------------------------------------------


def test_s5_going_out_with_a_discard_ends_the_deal_at_once__all() -> None:
    """5, going out: "the deal ends at once when a player has no cards left (all)"."""
    game = deal_from_hands(SMALL, ["7h 7d 7s", "Kc Qd 4s"], up="9c", stock="2c")
    play(game, "draw", "meld 7d 7h 7s")
    assert not game.deal.over
    play(game, "discard 2c")
    deal = game.deal
    assert (deal.phase, deal.went_out, deal.ended_by) == ("over", 0, "went out")
    assert legal(game) == []
    assert game.why_illegal("draw") == "the deal is over"
    assert deal.result().scores == (21, -24)


def test_s5_going_out_without_a_discard__001() -> None:
    """5, discarding to go out: "may or may not discard when going out" (001): classic
    lets the last cards go down in a meld, which ends the deal at once."""
    game = deal_from_hands(SMALL, ["7h 7d 7s", "Kc Qd 4s"], up="9c", stock="7c")
    play(game, "draw")
    assert "meld 7c 7d 7h 7s" in legal(game)
    play(game, "meld 7c 7d 7h 7s")
    deal = game.deal
    assert (deal.phase, deal.went_out, deal.ended_by) == ("over", 0, "went out")
    assert faces(deal.pile) == ["9c"]
    assert deal.result().scores == (28, -24)


def test_s5_going_out_by_a_lay_off__all() -> None:
    """5, going out: a lay-off of the last card ends the deal too (without the Boathouse
    rule)."""
    game = deal_from_hands(SMALL, ["7h 7d 8s", "Kc Qd 4s"], up="9c", stock="7s",
                           table=[(1, "9s Ts Js")])
    play(game, "draw", "meld 7d 7h 7s", "layoff 8s m1")
    assert game.deal.went_out == 0


def test_s5_boathouse_must_discard_to_go_out__004() -> None:
    """5, discarding to go out: Boathouse rule (004): "you must discard on the turn you go out,
    so a play that would leave no card to discard is refused" (`discard_to_go_out`)."""
    rules = make_rules("boathouse", hand_size_two=3)
    game = deal_from_hands(rules, ["7h 7d 7s", "Kc Qd 4s"], up="9c", stock="7c",
                           table=[(1, "8h 9h Th")])
    play(game, "draw")
    assert [m for m in legal(game) if m.startswith(("meld", "layoff"))] == [
        "layoff 7h m1", "meld 7c 7d 7h", "meld 7c 7d 7s", "meld 7c 7h 7s", "meld 7d 7h 7s"]
    assert game.why_illegal("meld 7c 7d 7h 7s") == (
        "you must keep a card to discard when you go out (Boathouse rule)")
    play(game, "meld 7c 7d 7s")
    assert legal(game) == ["discard 7h"]
    assert game.why_illegal("layoff 7h m1") == (
        "you must keep a card to discard when you go out (Boathouse rule)")
    play(game, "discard 7h")
    assert game.deal.went_out == 0


def test_s5_boathouse_two_threes_and_a_third__004() -> None:
    """5, Boathouse (004's example): "if I held a hand of two 3's and picked up another 3, I
    would be unable to go out as I would not have a discard"; where the 3 must be used (top
    card taken under `top_discard_must_be_used`), it cannot be taken at all."""
    classic = make_rules("classic", hand_size_two=2)
    game = deal_from_hands(classic, ["3c 3d", "Kc Qd"], up="3h")
    play(game, "take 3h")
    assert "meld 3c 3d 3h" in legal(game)
    boat = make_rules("boathouse", hand_size_two=2)
    game = deal_from_hands(boat, ["3c 3d", "Kc Qd"], up="3h")
    play(game, "take 3h")
    assert legal(game) == ["discard 3c", "discard 3d", "discard 3h"]
    strict = make_rules("boathouse", hand_size_two=2, top_discard_must_be_used=True)
    game = deal_from_hands(strict, ["3c 3d", "Kc Qd"], up="3h")
    assert legal(game) == ["draw"]
    assert game.why_illegal("take 3h") == (
        "you may take 3♥ from the pile only to use it at once in a meld or lay-off, and you "
        "cannot use it and still keep a card to discard")


# -- the stock runs out ------------------------------------------------------------------------


def test_s5_stock_exhausted_end_after_the_turn_that_drew_the_last_card__000_002_decided() -> None:
    """5, stock runs out: "the deal ends (000, 002)"; `stock_exhausted = "end"`, **decided**:
    the deal ends after the turn that drew the last stock card."""
    game = last_card_game(make_rules("classic", stock_exhausted="end"))
    deal = game.deal
    play(game, "draw")
    assert deal.stock == []
    assert deal.phase == "play"
    play(game, "meld Ac Ad Ah", "discard Kh")
    assert (deal.phase, deal.ended_by, deal.went_out) == ("over", "stock", None)
    result = deal.result()
    assert result.melded == (45, 0)
    assert result.in_hand == (hand_value(deal.hands[0]), hand_value(deal.hands[1]))
    assert result.scores == (45 - result.in_hand[0], -result.in_hand[1])


def test_s5_stock_exhausted_discard_pile_take_must_be_used_or_end__004_decided() -> None:
    """5, stock runs out: players may go on taking from the pile (004, "normally standard");
    `stock_exhausted = "discard_pile"`, **decided**: the card taken must then be used even when
    it is the top card; or the player ends the deal (`end`)."""
    game = last_card_game(make_rules("classic"))
    deal = game.deal
    play(game, "draw", "discard Kh")
    assert (deal.turn, len(deal.stock)) == (1, 0)
    # the top K♥ cannot be used with K♠ alone; K♦ below it takes K♥ too: a set of kings
    assert legal(game) == ["end", "take Kd"]
    assert game.why_illegal("draw") == (
        "the stock is empty: take from the discard pile, or end the deal (end)")
    assert game.why_illegal("take Kh") == (
        "the stock is empty, so any card taken from the pile must be used at once, and you "
        "cannot use it")
    play(game, "take Kd", "meld Kd Kh Ks", "discard 7c")
    # seat 0 holds 8♣ 9♣: the top 7♣ can be taken, and must then be used
    assert legal(game) == ["end", "take 7c"]
    play(game, "take 7c")
    assert faces([deal.must_use]) == ["7c"]
    assert game.why_illegal("discard Ac") == (
        "you took 7♣ from the pile and must use it before you discard")
    play(game, "meld 7c 8c 9c", "discard Qd")
    assert legal(game) == ["end"]
    play(game, "end")
    assert (deal.phase, deal.ended_by, deal.went_out) == ("over", "declined", None)
    assert deal.result().melded == (24, 30)


def test_s5_stock_exhausted_reshuffle_pile_but_top_then_second_time_ends__004_decided() -> None:
    """5, stock runs out: "the discard pile is reshuffled into a new stock" (004);
    `stock_exhausted = "reshuffle"`: all of the pile but its top card becomes the new stock,
    shuffled; **decided**: the second time the stock runs out the deal ends."""
    rules = make_rules("classic", stock_exhausted="reshuffle", hand_size_two=24)
    game = deal_from_hands(rules, ["...", LOW], up="Kd", stock="Kh Ks Kc",
                           restock=["Ks Kd Kh"])
    deal = game.deal
    play(game, "draw", "discard Kh", "draw", "discard Ks", "draw", "discard Kc")
    assert faces(deal.stock) == face_text("Ks Kd Kh")
    assert [face_of(card) for card in reversed(deal.stock)] == [
        face_of(card) for card in deal.restock_orders[0]]
    assert faces(deal.pile) == ["Kc"]
    assert (deal.turn, deal.phase, deal.restocks) == (1, "draw", 1)
    play(game, "draw")
    assert faces(deal.hands[1]) == sorted([*face_text(LOW), "Ks"])
    play(game, "discard Ks", "draw", "discard Kd", "draw")
    assert deal.stock == [] and not deal.over
    play(game, "discard Kh")
    assert (deal.phase, deal.ended_by, deal.went_out) == ("over", "stock", None)


def test_decided_no_endless_deals_idle_turns_end_the_deal__decided() -> None:
    """docs/rules-decisions.md, no endless deals: "a deal ends (as if the stock had run out)
    when 10 × players turns in a row pass with no card drawn from the stock and none put on
    the table"."""
    game = deal_from_hands(SMALL, ["7h 2d 9s", "Kc Qd 4s"], up="Jc")
    deal = game.deal
    for turn in range(20):
        assert not deal.over
        top = faces([deal.pile[-1]])[0]
        play(game, f"take {top}", f"discard {top}")
        assert deal.over == (turn == 19)
    assert (deal.phase, deal.ended_by, deal.went_out) == ("over", "idle", None)
    assert deal.result().scores == (-18, -24)


# -- the deal score ----------------------------------------------------------------------------


def test_s5_deal_score_table_minus_hand_87_minus_90__004() -> None:
    """5, deal score: "cards on the table credited to the player, minus the cards in hand
    (all); can be negative (004's example: 87 − 90 = −3)"."""
    rules = make_rules("classic", hand_size_two=9)
    game = deal_from_hands(
        rules, ["2s 3s 4s 5s 6s 7s 8s 9s Ts", "Kc Kd Qc Qd Jc Jd Tc Td Th"], up="2c",
        stock="Js", table=[(1, "Ah Ad Ac"), (1, "9h 9d 9c"), (1, "5h 5d 5c")])
    assert game.deal.credit == [0, 87]
    play(game, "draw", "meld 2s 3s 4s 5s 6s 7s 8s 9s Ts Js")
    result = game.results[0]
    assert result.melded == (2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10, 87)
    assert result.in_hand == (0, 90)
    assert result.scores == (64, -3)
    assert game.totals == [64, -3]


# -- Add Opponent's Hand -----------------------------------------------------------------------


def test_s5_add_opponents_hand_went_out_adds_every_other_hand__004() -> None:
    """5, Add Opponent's Hand (004): "hands are not subtracted; the player who went out adds
    every other hand's points"."""
    hands = ["7h 7d 7s", "2c 5d 9s", "3c 6d Ts"]
    table = [(1, "Jh Qh Kh")]
    plain = deal_from_hands(make_rules("classic", hand_size=3), hands, stock="Kc", table=table)
    play(plain, "draw", "meld 7d 7h 7s", "discard Kc")
    assert plain.results[0].scores == (21, 30 - 16, -19)
    rules = make_rules("classic", hand_size=3, add_hand_to_winner=True)
    game = deal_from_hands(rules, hands, stock="Kc", table=table)
    play(game, "draw", "meld 7d 7h 7s", "discard Kc")
    result = game.results[0]
    assert result.in_hand == (0, 16, 19)
    assert result.scores == (21 + 16 + 19, 30, 0)


def test_s5_add_opponents_hand_nobody_out_two_players_each_adds_the_other__004() -> None:
    """5, Add Opponent's Hand (004): "if nobody went out, with two players ... each adds the
    other's hand"."""
    game = last_card_game(make_rules("classic", stock_exhausted="end", add_hand_to_winner=True))
    play(game, "draw", "meld Ac Ad Ah", "discard Kh")
    result = game.results[0]
    assert result.went_out is None
    hand0, hand1 = result.in_hand
    assert (hand0, hand1) == (hand_value(game.deal.hands[0]), hand_value(game.deal.hands[1]))
    assert result.scores == (45 + hand1, hand0)


def _three_way_deal(rules: Rules) -> Game:
    """Three players, fifteen cards each, three stock cards; seat 1 has J♥ Q♥ K♥ down."""
    game = deal_from_hands(rules, ["...", "...", "..."], up="Kd", stock="Ks Kc 2c",
                           table=[(1, "Jh Qh Kh")])
    play(game, "draw", "discard Ks", "draw", "discard Kc", "draw", "discard 2c")
    return game


def test_s5_add_opponents_hand_nobody_out_three_players_nobody_adds__004() -> None:
    """5, Add Opponent's Hand (004): "with more than two nobody adds anything"."""
    rules = make_rules("classic", hand_size=15, stock_exhausted="end")
    plain = _three_way_deal(rules)
    result = plain.results[0]
    assert result.went_out is None
    assert result.scores == (-result.in_hand[0], 30 - result.in_hand[1], -result.in_hand[2])
    assert min(result.in_hand) > 0
    adding = _three_way_deal(make_rules("classic", hand_size=15, stock_exhausted="end",
                                        add_hand_to_winner=True))
    assert adding.results[0].in_hand == result.in_hand
    assert adding.results[0].scores == (0, 30, 0)


def test_s5_add_opponents_hand_nobody_out_two_sides_each_adds_the_other__004() -> None:
    """5, Add Opponent's Hand (004): "with two players (or two sides) each adds the other's
    hand": in a partnership, each side adds the other side's hands."""
    rules = make_rules("partnership", hand_size=11, stock_exhausted="end",
                       add_hand_to_winner=True)
    game = deal_from_hands(rules, ["...", "...", "...", "..."], up="Kd",
                           stock="Ks Kc 2c 3c", table=[(1, "Jh Qh Kh")])
    play(game, "draw", "discard Ks", "draw", "discard Kc", "draw", "discard 2c", "draw",
         "discard 3c")
    result = game.results[0]
    assert result.went_out is None
    hands = result.in_hand
    assert result.scores == (hands[1] + hands[3], 30 + hands[0] + hands[2])


def test_s5_add_opponents_hand_partnership_went_out__004_decided() -> None:
    """5, Add Opponent's Hand in a partnership (decided in docs/rules-decisions.md): the side
    that went out adds the other side's hands; the partner's hand is neither added nor
    subtracted."""
    rules = make_rules("partnership", hand_size=3, add_hand_to_winner=True)
    game = deal_from_hands(rules, ["7h 7d 7s", "2c 5d 9s", "3c 6d Ts", "4c 8d Js"], stock="Kc")
    play(game, "draw", "meld 7d 7h 7s", "discard Kc")
    assert game.results[0].scores == (21 + 16 + 22, 0)


# -- bonus, winning ----------------------------------------------------------------------------


def test_s5_no_going_out_bonus_in_500_rum__001() -> None:
    """5, bonus for going out: "none in 500 Rum (001)"; `going_out_bonus` set adds it."""
    game = deal_from_hands(SMALL, ["7h 7d 7s", "Kc Qd 4s"], stock="2c")
    play(game, "draw", "meld 7d 7h 7s", "discard 2c")
    assert game.results[0].scores == (21, -24)
    bonus = make_rules("classic", hand_size_two=3, going_out_bonus=25)
    game = deal_from_hands(bonus, ["7h 7d 7s", "Kc Qd 4s"], stock="2c")
    play(game, "draw", "meld 7d 7h 7s", "discard 2c")
    assert game.results[0].scores == (46, -24)


def test_s5_winning_first_to_target_at_the_end_of_a_deal__000_004() -> None:
    """5, winning: "first to `target_score` (500) at the end of a deal"."""
    rules = make_rules("classic", hand_size_two=3, target_score=20)
    game = deal_from_hands(rules, ["7h 7d 7s", "Kc Qd 4s"], stock="2c", auto_deal=True)
    play(game, "draw", "meld 7d 7h 7s")
    assert game.deal.credit[0] == 21
    assert not game.finished
    play(game, "discard 2c")
    assert game.finished
    assert (game.winner, game.totals) == (0, [21, -24])
    assert len(game.deals) == 1
    assert game.legal_moves() == []
    assert game.why_illegal("draw") == "the game is over"


def test_s5_winning_several_reach_the_target_the_highest_wins__000_004() -> None:
    """5, winning: "if several reach it on one deal, the highest wins (000, 004)", even over
    the player who went out."""
    rules = make_rules("classic", hand_size_two=3, target_score=10)
    game = deal_from_hands(rules, ["7h 7d 7s", "2c 2d 3s"], stock="Kc",
                           table=[(1, "Jh Qh Kh")])
    play(game, "draw", "meld 7d 7h 7s", "discard Kc")
    assert game.totals == [21, 23]
    assert (game.finished, game.winner) == (True, 1)
    assert game.margin == 2


def test_s5_winning_tie_at_the_top_plays_another_deal__decided() -> None:
    """5, winning, **decided**: "if the highest are tied, another deal is played"."""
    rules = make_rules("classic", hand_size_two=3, target_score=10)
    game = deal_from_hands(rules, ["7h 7d 7s", "2c 3d 4s"], stock="Kc",
                           table=[(1, "Jh Qh Kh")], auto_deal=True)
    play(game, "draw", "meld 7d 7h 7s", "discard Kc")
    assert game.totals == [21, 21]
    assert not game.finished
    assert game.winner is None
    assert len(game.deals) == 2
    assert game.deal.dealer == 0


# -- rummy calls -------------------------------------------------------------------------------


RUMMY = make_rules("classic", hand_size=3, rummy_calls=True)


def _rummy_game() -> Game:
    """Seat 0 discards 6♠ onto 4♠ Q♣ 5♠: three players may be asked."""
    return deal_from_hands(RUMMY, ["6s 9d 2c", "Kc Qd 3h", "8c Td Jh"], up="Jd",
                           pile="4s Qc 5s", stock="Kh 2d 3d")


def test_s5_rummy_call_asked_in_order_from_discarders_left__000_004_decided() -> None:
    """5, "rummy" call, **decided**: after a discard, the other players are asked in turn
    order from the discarder's left; `pass` moves on; the discarder is never asked (004); then
    the next player's turn begins."""
    game = _rummy_game()
    deal = game.deal
    assert legal(game) == ["draw", "take 4s", "take 5s"]
    play(game, "draw", "discard 6s")
    assert (deal.turn, deal.phase) == (1, "rummy")
    assert legal(game) == ["pass", "rummy meld 4s 5s 6s"]
    assert game.why_illegal("draw") == (
        "a rummy call is open: claim cards from the pile (rummy meld …, rummy layoff … mN) "
        "or pass")
    play(game, "pass")
    assert (deal.turn, deal.phase) == (2, "rummy")
    play(game, "pass")
    assert (deal.turn, deal.phase) == (1, "draw")
    assert faces(deal.pile) == face_text("Jd 4s Qc 5s 6s")


def test_s5_rummy_claim_credited_to_caller_others_stay_in_order__000_decided() -> None:
    """5, "rummy" call: the caller takes just those cards without the ones above, lays them
    down and scores them (000); **decided**: the other pile cards stay in order, and a player
    is asked only while a claim exists."""
    game = _rummy_game()
    deal = game.deal
    play(game, "draw", "discard 6s", "pass", "rummy meld 6s 4s 5s")
    assert deal.credit == [0, 0, 15]
    assert [card.seat for card in deal.melds[0].cards] == [2, 2, 2]
    assert faces(deal.pile) == face_text("Jd Qc")
    # no claim is left: nobody else is asked, seat 1 (left of the discarder) plays
    assert (deal.turn, deal.phase) == (1, "draw")
    assert faces(deal.hands[2]) == face_text("8c Td Jh")


def test_s5_rummy_layoff_claim_and_only_while_a_claim_exists__000_decided() -> None:
    """5, "rummy" call: a pile card that lays off on a meld may be claimed; with no claim in
    the pile nobody is asked."""
    rules = make_rules("classic", hand_size_two=3, rummy_calls=True)
    game = deal_from_hands(rules, ["Th 9d 2c", "Kc Qd 3h"], up="Jd", stock="Kh 2d",
                           table=[(0, "7h 8h 9h")])
    play(game, "draw", "discard Kh")
    assert (game.deal.turn, game.deal.phase) == (1, "draw")
    play(game, "draw", "discard 2d")
    assert (game.deal.turn, game.deal.phase) == (0, "draw")
    play(game, "draw")
    play(game, "discard Th")
    assert (game.deal.turn, game.deal.phase) == (1, "rummy")
    assert legal(game) == ["pass", "rummy layoff Th m1"]
    play(game, "rummy layoff Th m1")
    assert game.deal.credit == [24, 10]
    assert (game.deal.turn, game.deal.phase) == (1, "draw")


def test_s5_rummy_not_after_going_out_nor_when_off__000_decided() -> None:
    """5, "rummy" call: only "after a discard that does not end the deal"; without
    `rummy_calls` there is no call at all."""
    rules = make_rules("classic", hand_size_two=3, rummy_calls=True)
    game = deal_from_hands(rules, ["7h 7d 7s", "Kc Qd 3h"], up="4s", pile="5s", stock="6s")
    play(game, "draw", "meld 7d 7h 7s", "discard 6s")
    assert game.deal.ended_by == "went out"
    off = deal_from_hands(SMALL, ["6s 9d 2c", "Kc Qd 3h"], up="4s", pile="5s", stock="Kh")
    play(off, "draw", "discard 6s")
    assert (off.deal.turn, off.deal.phase) == (1, "draw")
    assert off.why_illegal("rummy meld 4s 5s 6s") == "rummy calls are not played in this game"
    on = deal_from_hands(rules, ["6s 9d 2c", "Kc Qd 3h"], up="Jd", stock="Kh")
    play(on, "draw", "discard 6s")
    assert on.why_illegal("pass") == (
        "you can call rummy only on another player's discard, before the next turn")


def test_s5_rummy_calls_on_in_the_wild_preset__000() -> None:
    """5 and 8: the wild preset (000) plays rummy calls."""
    rules = make_rules("wild", hand_size_two=3)
    game = deal_from_hands(rules, ["6s 9d 2c", "Kc Qd 3h"], up="4s", pile="5s", stock="Kh")
    play(game, "draw", "discard 6s")
    assert (game.deal.turn, game.deal.phase) == (1, "rummy")
    assert legal(game) == ["pass", "rummy meld 4s 5s 6s"]
    play(game, "pass")
    # two players: the only other player passed, and the discarder is never asked
    assert (game.deal.turn, game.deal.phase) == (1, "draw")


def _two_claims() -> Game:
    """Seat 0 discards 3♣ onto 4♠ 5♠ 8♣ A♣ 2♣ with 9♣ 10♣ J♣ down: A♣ 2♣ 3♣ is a meld
    and 8♣ lays off."""
    rules = make_rules("classic", hand_size=3, rummy_calls=True)
    game = deal_from_hands(rules, ["6s 9d Kh", "Kc Qd 3h", "Qh Td Jh"], up="4s",
                           pile="5s 8c Ac 2c", stock="3c", table=[(2, "9c Tc Jc")])
    play(game, "draw", "discard 3c")
    assert (game.deal.turn, game.deal.phase) == (1, "rummy")
    assert legal(game) == ["pass", "rummy layoff 8c m1", "rummy meld Ac 2c 3c"]
    return game


def test_s5_rummy_claimer_asked_again_then_the_next_player__decided() -> None:
    """5, "rummy" call, **decided**: a player answers with a claim or `pass`; after a claim
    the same player is asked again while claims remain; `pass` ends that player's claims and
    the next player is asked."""
    game = _two_claims()
    deal = game.deal
    play(game, "rummy meld Ac 3c 2c")
    assert (deal.turn, deal.phase) == (1, "rummy")
    assert legal(game) == ["pass", "rummy layoff 8c m1"]
    play(game, "pass")
    assert (deal.turn, deal.phase) == (2, "rummy")
    play(game, "rummy layoff 8c m1")
    assert deal.credit == [0, 6, 29 + 8]
    assert (deal.turn, deal.phase) == (1, "draw")
    assert faces(deal.pile) == face_text("4s 5s")


def test_s5_rummy_window_closes_at_the_discarder__004_decided() -> None:
    """5, "rummy" call: the discarder may not call it (004): when the last player passes,
    the claim left in the pile stays there and the next turn begins."""
    game = _two_claims()
    deal = game.deal
    play(game, "pass", "rummy meld Ac 2c 3c", "pass")
    assert deal.credit == [0, 0, 29 + 6]
    assert (deal.turn, deal.phase) == (1, "draw")
    assert faces(deal.pile) == face_text("4s 5s 8c")
