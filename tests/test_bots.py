"""Computer players: they see only their view, play only legal moves, and play every game."""

from __future__ import annotations

import random

import pytest

from helpers import setup_deal
from rummy500.bots import BOT_NAMES, Bot, make_bot
from rummy500.bots.expert import ExpertBot
from rummy500.bots.knowledge import Knowledge, public_state
from rummy500.bots.mcts import MctsBot
from rummy500.bots.sampling import lean_for, sample_deal
from rummy500.bots.simple import SimpleBot, best_melds
from rummy500.cards import Cards, face_of, iter_bits, parse_face
from rummy500.deal import Deal
from rummy500.game import Game
from rummy500.moves import parse_move
from rummy500.record import game_record, replay
from rummy500.rules import PRESETS, Rules, make_rules
from rummy500.runners.simulation import rules_from_options, simulate
from rummy500.scoring import points_for
from rummy500.view import PlayerView, view_of

CONFIGS = [
    (preset, players)
    for preset, rules in PRESETS.items()
    for players in ((4,) if rules.partnership else (2, 3, 5))
    if players <= rules.max_players
]


def quick_bot(name: str, seed: int) -> Bot:
    """Each bot as the tests run it: the searching bot with a fixed, small search."""
    if name == "mcts":
        return MctsBot(seed, 30.0, worlds=1, candidates=2)
    return make_bot(name, seed)


def positions(rules: Rules, players: int, count: int, seed: int) -> list[Deal]:
    """``count`` positions met in games between simple and random players."""
    rng = random.Random(seed)
    found: list[Deal] = []
    while len(found) < count:
        game = Game(rules, players, seed=rng.getrandbits(32))
        bots = [make_bot("simple" if s % 2 else "random", s) for s in range(players)]
        stop = rng.randrange(1, 90)
        for _ in range(stop):
            if game.finished:
                break
            seat = game.turn
            game.play(bots[seat].choose(game.view(seat)))
        if not game.finished:
            found.append(game.deal.copy())
    return found


def reshuffled_hidden(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same position with every card ``seat`` cannot see dealt again at random."""
    hidden: list[int] = list(deal.stock)
    hands = list(deal.hands)
    counts = []
    for other in range(deal.players):
        unknown = hands[other] & ~deal.known[other] if other != seat else 0
        counts.append(unknown.bit_count())
        hidden.extend(iter_bits(unknown))
        hands[other] &= ~unknown
    rng.shuffle(hidden)
    for other in range(deal.players):
        for card in hidden[:counts[other]]:
            hands[other] |= 1 << card
        del hidden[:counts[other]]
    return deal.rearranged(hands, hidden)


# -- the interface ---------------------------------------------------------------------------


def test_every_bot_is_registered() -> None:
    assert set(BOT_NAMES) >= {"random", "simple", "expert", "mcts"}
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody")
    with pytest.raises(ValueError, match="at least one sampled deal"):
        make_bot("mcts", 1, worlds=0)


@pytest.mark.parametrize("name", ["random", "simple", "expert", "mcts"])
def test_no_bot_sees_hidden_cards(name: str) -> None:
    """Two real positions that differ only in cards the seat cannot see get the same move."""
    rng = random.Random(5)
    checked = 0
    differs = 0
    for preset, players in (("classic", 2), ("wild", 2), ("persian", 4), ("classic", 3)):
        for deal in positions(make_rules(preset), players, 3, rng.getrandbits(32)):
            seat = deal.turn
            twin = reshuffled_hidden(deal, seat, rng)
            differs += twin.hands != deal.hands or twin.stock != deal.stock
            view = view_of(deal, seat)
            assert view_of(twin, seat) == view
            first = quick_bot(name, 11).decide(view).move
            second = quick_bot(name, 11).decide(view_of(twin, seat)).move
            assert first == second, (preset, deal.fen())
            checked += 1
    assert checked == 12 and differs >= 10


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_bots_play_only_legal_moves(preset: str, players: int) -> None:
    rules = make_rules(preset)
    deals = positions(rules, players, 12, hash((preset, players)) & 0xFFFF)
    for index, deal in enumerate(deals):
        view = view_of(deal, deal.turn)
        for name in ("simple", "expert") + (("mcts",) if index < 2 else ()):
            decision = quick_bot(name, index).decide(view)
            assert view.why_illegal(decision.move) is None, (name, decision.move, deal.fen())
            assert decision.reason and len(decision.reason) < 120


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_every_bot_plays_whole_deals(preset: str, players: int) -> None:
    rules = make_rules(preset)
    names = ["expert", "simple", "random"]
    if players <= 4:
        names = ["mcts", *names]
    game = Game(rules, players, seed=players * 7, auto_deal=False)
    game.start_deal()
    bots = [quick_bot(names[seat % len(names)], seat) for seat in range(players)]
    movers = []
    while not game.deal.over:
        seat = game.turn
        game.play(bots[seat].choose(game.view(seat)))  # checked: an illegal move raises
        movers.append(seat)
    assert len(game.results) == 1 and len(movers) == len(game.deal.moves)
    assert set(movers) == set(range(players))  # no deal of these seeds ends in the first round
    assert replay(game_record(game)).results == game.results  # the bots' deal replays exactly


def test_hint_is_one_short_sentence() -> None:
    game = Game(make_rules("classic"), 2, seed=3)
    for name in ("random", "simple", "expert"):
        view = game.view(game.turn)
        hint = make_bot(name, 1).hint(view)
        decision = make_bot(name, 1).decide(view)
        assert hint == f"{decision.move}: {decision.reason}" and "\n" not in hint
        assert view.why_illegal(hint.split(": ", 1)[0]) is None


def test_bots_are_reproducible_from_their_seed() -> None:
    for name in ("random", "simple", "expert", "mcts"):
        runs = []
        for _ in range(2):
            game = Game(make_rules("classic"), 2, seed=9, auto_deal=False)
            game.start_deal()
            bots = [quick_bot(name, 4), make_bot("simple", 5)]
            for _ in range(12):
                seat = game.turn
                game.play(bots[seat].choose(game.view(seat)))
            runs.append([str(m) for m in game.deal.moves])
        assert runs[0] == runs[1], name


# -- simple ----------------------------------------------------------------------------------


def _view(game: Game) -> PlayerView:
    return game.view(game.turn)


def test_simple_takes_only_a_card_that_melds_at_once() -> None:
    game = Game(make_rules("classic"), 2, dealer=1, auto_deal=False)
    setup_deal(game, ["7h 7d 2c 4s 9d Jc Qs 3h 5c 8s Kd Ac 6d", "..."], up="Kh")
    assert SimpleBot(1).choose(_view(game)) == parse_move("draw")
    game = Game(make_rules("classic"), 2, dealer=1, auto_deal=False)
    setup_deal(game, ["7h 7d 2c 4s 9d Jc Qs 3h 5c 8s Kd Ac 6d", "..."], up="Kc",
               pile="7s 2h")
    # 7s melds with 7h 7d at once, taking 2h along
    assert SimpleBot(1).choose(_view(game)) == parse_move("take 7s")


def test_simple_melds_everything_then_discards_its_highest_loose_card() -> None:
    game = Game(make_rules("classic"), 2, dealer=1, auto_deal=False)
    setup_deal(game, ["7h 7d 7s 2c 3c 4c 9d 5h 8s 6d Jc As 3s", "..."], up="Ah",
               stock="2d")
    bot = SimpleBot(1)
    game.play(bot.choose(_view(game)))
    played = []
    while game.deal.phase == "play":
        move = bot.choose(_view(game))
        played.append(str(move))
        game.play(move)
    assert sorted(played[:2]) == ["meld 2c 3c 4c", "meld 7d 7h 7s"]
    assert played[-1] == "discard As"


def test_simple_best_melds_picks_the_most_points() -> None:
    rules = make_rules("classic")
    cards = Cards.parse("5h 6h 7h 7c 7d").bits
    score, count, melds = best_melds(cards, rules, points_for(rules))
    assert score == 21 and count == 3
    assert melds == ((parse_face("7c"), parse_face("7d"), parse_face("7h")),)


# -- expert ----------------------------------------------------------------------------------


def test_expert_does_not_feed_the_table() -> None:
    game = Game(make_rules("classic"), 2, dealer=1, auto_deal=False)
    setup_deal(game, ["Kd 9c 2s 5h Jc 3d 8s 4c Qh 6s 2h Tc 7d", "..."], up="3c",
               stock="Ac", table=[(1, "Ks Kh Kc")])
    bot = ExpertBot(1)
    game.play(bot.choose(_view(game)))
    while game.deal.phase == "play":
        move = bot.choose(_view(game))
        game.play(move)
        if move.kind == "discard":
            break
    # the king would lay off on the kings for the next player: the expert lays it off itself
    assert any(str(m) == "layoff Kd m1" for m in game.deal.moves)


def test_expert_takes_deep_when_the_pile_pays() -> None:
    game = Game(make_rules("classic"), 2, dealer=1, auto_deal=False)
    setup_deal(game, ["Qh Qd 9c 2s 5h Jc 3d 8s 4c 6s 2h Tc 7d", "..."], up="Qs",
               pile="Kh Ks Kd 5c")
    move = ExpertBot(1).choose(_view(game))
    assert move == parse_move("take Qs")


def test_expert_waits_for_four_of_a_kind_in_persian() -> None:
    game = Game(make_rules("persian"), 4, dealer=3, auto_deal=False)
    setup_deal(game, ["9h 9d 9s 2c 5d Kh 7s", "...", "...", "..."], up="3c", stock="4d")
    bot = ExpertBot(1)
    game.play(bot.choose(_view(game)))
    move = bot.choose(_view(game))
    assert move.kind == "discard" and face_of(move.pieces[0]) != parse_face("9h")
    assert not game.deal.melds


def test_expert_does_not_feed_the_other_side_in_partnership() -> None:
    game = Game(make_rules("partnership"), 4, dealer=3, auto_deal=False)
    deal = setup_deal(game, ["9s 2d 3c 5h 6c 4s 8d", "9h 9d ...", "...", "..."], up="Kc",
                      stock="2h", known=[(1, "9h 9d")])  # seat 1 took them from the pile
    assert deal.known[1] == Cards.parse("9h 9d").bits
    game.play("draw")
    assert SimpleBot(1).choose(_view(game)) == parse_move("discard 9s")
    move = ExpertBot(1).choose(_view(game))
    assert move.kind == "discard" and move != parse_move("discard 9s")


def test_expert_goes_out_when_it_can() -> None:
    game = Game(make_rules("classic", hand_size_two=4), 2, dealer=1, auto_deal=False)
    setup_deal(game, ["7h 7d 7s 4c", "9d Jh Qs 2h"], up="Kh", stock="4d",
               table=[(1, "Ac 2c 3c")])
    bot = ExpertBot(1)
    while not game.deal.over:
        game.play(bot.choose(_view(game)))
    assert game.deal.went_out == 0 and len(game.deal.moves) == 4


# -- knowledge and sampling ------------------------------------------------------------------


def thrown_king_view() -> PlayerView:
    """Seat 1's view after seat 0 took the seven of spades, melded three sevens and threw
    the king of diamonds."""
    rules = make_rules("classic")
    game = Game(rules, 2, dealer=1, auto_deal=False)
    setup_deal(game, ["7h 7d 2c 4s 9d Jc Qs 3h 5c 8s Kd Ac 6d",
                      "2h 4h 5h 8h 9h Th Jh Qh Kh 2s 3s 5s 6s"], up="7s", stock="Ah")
    game.play("take 7s")
    game.play("meld 7h 7d 7s")
    game.play("discard Kd")
    return game.view(1)


def test_knowledge_counts_what_is_unseen_and_who_did_what() -> None:
    view = thrown_king_view()
    know = Knowledge(view)
    assert know.pool == 52 - 13 - 3 - 1 and know.unknown[0] == 10
    assert know.live[parse_face("7c")] == 1 and know.live[parse_face("Kd")] == 0
    public = public_state(view)
    assert public.records[0].wanted >> parse_face("7s") & 1
    assert public.records[0].discarded >> parse_face("Kd") & 1
    assert public.discarder == 0 and public.stock_draws == 0


def test_sampled_hands_lean_away_from_what_a_seat_threw_and_passed() -> None:
    """Seat 0 threw the king of diamonds and left the ace of hearts to draw: other kings and
    cards next to them are rarer in its sampled hands the harder the sampler leans on that
    (``lean`` 0: every unseen card alike), never against a known card."""
    view = thrown_king_view()
    know = Knowledge(view)
    near = 0
    for face in ("Kc", "Ks", "Qd"):
        near |= 1 << parse_face(face)

    def held(lean: float) -> int:
        rng = random.Random(3)
        count = 0
        for _ in range(300):
            sample = sample_deal(view, rng, know, lean)
            assert sample.hands[0] & view.known[0] == view.known[0]
            count += (sample.hands[0] & near).bit_count()
        return count

    plain, measured, hard = held(0.0), held(1.0), held(3.0)
    assert plain > measured > hard


def test_the_sampler_leans_less_where_wild_jokers_are_dealt() -> None:
    """By default a sample leans as :func:`lean_for` the view's rules: less with wild jokers,
    where a seat keeps cards a joker may yet meld."""
    assert lean_for(make_rules("wild")) < lean_for(make_rules("classic"))
    for preset in ("classic", "wild"):
        rules = make_rules(preset)
        deal = positions(rules, 2, 1, 32)[0]  # a position where seat evidence counts
        view = view_of(deal, deal.turn)
        by_default = sample_deal(view, random.Random(5))
        as_the_rules = sample_deal(view, random.Random(5), lean=lean_for(rules))
        other_lean = sample_deal(view, random.Random(5), lean=0.0)
        assert by_default.hands == as_the_rules.hands != other_lean.hands


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("wild", 2), ("persian", 4),
                                                 ("classic", 6)])
def test_sampled_deals_agree_with_the_view(preset: str, players: int) -> None:
    rules = make_rules(preset)
    rng = random.Random(2)
    for deal in positions(rules, players, 4, 99):
        seat = deal.turn
        view = view_of(deal, seat)
        sample = sample_deal(view, rng)
        assert sorted(sample.all_cards()) == sorted(deal.all_cards())
        assert view_of(sample, seat) == view
        assert (sample.idle_turns, sample.discarder) == (deal.idle_turns, deal.discarder)
        for other in range(players):
            assert sample.hands[other] & deal.known[other] == deal.known[other]
        while not sample.over:  # and it plays on to the end
            sample.play(sample.legal_moves()[0], check=False)


def test_experts_play_wild_reshuffles_with_four_players() -> None:
    """Issue 9 item 3: ``rummy500 simulate --preset wild -o stock_exhausted=reshuffle
    --players 4 --bot expert --deals 5 --seed 48`` died in a second copy of the state
    machine that reshuffled the pile at the discard, before the rummy calls. The bots now
    read the engine's own facts from the view."""
    rules = rules_from_options("wild", ["stock_exhausted=reshuffle"])
    restocks = []
    summary = simulate(rules, 4, ["expert"], 48, 5,
                       on_deal=lambda game, _outcome: restocks.append(game.deals[-1].restocks))
    assert summary.deals == 5 and sum(summary.ended_by.values()) == 5
    assert any(restocks)  # the stock ran out and the pile was reshuffled
