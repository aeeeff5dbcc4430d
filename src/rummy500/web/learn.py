"""The guided first game of the browser table (``/learn``): one real deal of classic 500 Rum
for two, played step by step at the learner's pace.

The deal is dealt by the engine from a fixed pack order, chosen so that every lesson comes
up: a set, a run, taking from deep in the discard pile (and having to use that card),
laying off on the other player's meld, going out, and the deal's sheet. Both seats' moves
are a fixed script, each one checked by the engine as it is made (a script the engine
refused would fail at once, in the tests); the words of each move and the sheet are the
engine's, as an online table says them. The page draws each step's state as it draws a
table's, with the cards the lesson means marked; it holds no rule of its own.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from ..cards import card_for_face, make_pack, parse_face
from ..game import Game
from ..rules import PRESETS
from ..session.seat_state import SeatInfo, plain
from ..session.state import build_state
from ..session.table_words import TableWords
from ..session.words import rules_summary

LEARNER, SAM = 0, 1
NAMES = ("You", "Sam")
DEALER = SAM
"""Sam deals, so the learner plays first."""

HANDS = {
    LEARNER: "7c 7d 7h 4s 5s 6s Td Jd 3h Kc Kd Qs 2c",
    SAM: "4h 5h 6h Ks 9s Ac 3d 8d Qh Jc 5c 9h Tc",
}
UP_CARD = "9d"
STOCK_TOP = "2d 8c Jh 2s"
"""The first cards of the stock, in the order they are drawn; the rest is shuffled by
:data:`SEED`."""
SEED = 500

STOCK = "stock"
"""A mark on the stock (it shows no card)."""


@dataclass(frozen=True, slots=True)
class Lesson:
    """One step: the moves made on coming to it (``seat move``; ``{4h}`` stands for the id of
    the meld holding 4h), then what is said about the table as it stands, and the cards it
    means (marked wherever they lie: hand, pile or melds)."""

    title: str
    text: tuple[str, ...]
    moves: tuple[tuple[int, str], ...] = ()
    marks: tuple[str, ...] = ()


LESSONS: tuple[Lesson, ...] = (
    Lesson("Your first deal", (
        "You play Sam, a computer player, at classic 500 Rum. Each of you has 13 cards; "
        "the rest are the stock, face down, and one card face up starts the discard pile.",
        "You score the cards you put on the table, less the cards still in your hand when "
        "the deal ends. Deals go on until someone reaches {target}.",
    ), marks=(UP_CARD, STOCK)),
    Lesson("Your turn: draw", (
        "A turn has three parts: draw, then put cards on the table if you can, then "
        "discard one card.",
        "Draw the top card of the stock (or take from the discard pile: that comes later).",
    ), marks=(STOCK,)),
    Lesson("A set", (
        "A set is three or four cards of the same rank: 7♣ 7♦ 7♥ are a set.",
        "Put it on the table: that is a meld. Its cards now count for you.",
    ), moves=((LEARNER, "draw"),), marks=("7c", "7d", "7h")),
    Lesson("A run", (
        "A run is three or more cards in a row, all of one suit: 4♠ 5♠ 6♠.",
        "Meld it too: you may put down as many melds as you like in a turn.",
    ), moves=((LEARNER, "meld 7c 7d 7h"),), marks=("4s", "5s", "6s")),
    Lesson("Discard to end your turn", (
        "A lone Q♠ would count 10 points against you if it stayed in your hand: discard it. "
        "The discard ends your turn.",
    ), moves=((LEARNER, "meld 4s 5s 6s"),), marks=("Qs",)),
    Lesson("Sam's turn", (
        "Your Q♠ lies on the discard pile. Now Sam plays.",
    ), moves=((LEARNER, "discard Qs"),), marks=("Qs",)),
    Lesson("Sam melds", (
        "Sam's melds count for Sam.",
        "Look at the discard pile: 9♦ at the bottom, then your Q♠, then K♠.",
    ), moves=((SAM, "draw"), (SAM, "meld 4h 5h 6h"), (SAM, "discard Ks")),
        marks=("4h", "5h", "6h", "Ks")),
    Lesson("Taking from deep in the pile", (
        "The 9♦ at the bottom goes with your 10♦ J♦. You may take any card of the discard "
        "pile, but every card above it comes too (Q♠ and K♠).",
        "And the card you took from deep in the pile must be used in a meld on this very "
        "turn. Take 9♦.",
    ), marks=(UP_CARD, "Qs", "Ks", "Td", "Jd")),
    Lesson("Use the card you took", (
        "9♦ must be used now: meld 9♦ 10♦ J♦.",
    ), moves=((LEARNER, "take 9d"),), marks=("9d", "Td", "Jd")),
    Lesson("Another set", (
        "The K♠ that came with it makes a set with your K♣ K♦. Meld them.",
    ), moves=((LEARNER, "meld 9d Td Jd"),), marks=("Kc", "Kd", "Ks")),
    Lesson("Laying off", (
        "A card that fits a meld already on the table, yours or Sam's, may be added to it: "
        "that is laying off, and the card counts for you.",
        "3♥ goes below Sam's 4♥ 5♥ 6♥. Lay it off.",
    ), moves=((LEARNER, "meld Kc Kd Ks"),), marks=("3h", "4h", "5h", "6h")),
    Lesson("Keep what may meld", (
        "Q♠ came back with the pile and is no use: discard it again. Keep 2♣ 2♦: one more 2 "
        "would make a set.",
    ), moves=((LEARNER, "layoff 3h {4h}"),), marks=("Qs", "2c", "2d")),
    Lesson("Sam's turn again", (
        "Now Sam plays.",
    ), moves=((LEARNER, "discard Qs"),)),
    Lesson("Draw", (
        "Your turn: draw from the stock.",
    ), moves=((SAM, "draw"), (SAM, "discard 9s")), marks=(STOCK,)),
    Lesson("Going out", (
        "With 2♣ 2♦ 2♠ every card of your hand goes on the table: that is "
        "going out, and it ends the deal at once.",
        "Meld them.",
    ), moves=((LEARNER, "draw"),), marks=("2c", "2d", "2s")),
    Lesson("How the sheet counts", (
        "The deal is over: going out left you nothing in hand, and every card Sam still "
        "holds counts against Sam. Laid-off cards count for whoever laid them off.",
        "Points: {Points}",
        "Below: the sheet of this deal, as the table shows it. The totals carry on from deal "
        "to deal.",
    ), moves=((LEARNER, "meld 2c 2d 2s"),)),
)


def learning_deck() -> list[int]:
    """The pack order that deals :data:`HANDS`, :data:`UP_CARD` and :data:`STOCK_TOP`."""
    rules = PRESETS["classic"]
    pack = make_pack(rules.deck_count(2), rules.jokers_in_each_deck)
    hands = {seat: [parse_face(text) for text in cards.split()] for seat, cards in HANDS.items()}
    placed = [parse_face(UP_CARD), *(parse_face(text) for text in STOCK_TOP.split())]
    dealt = [hands[(DEALER + 1 + i) % 2][i // 2] for i in range(26)]
    named = [*dealt, *placed]
    bits = 0
    for card in pack:
        bits |= 1 << card
    order = []
    for face in named:
        card = card_for_face(bits, face)
        bits &= ~(1 << card)
        order.append(card)
    rest = [card for card in pack if bits >> card & 1]
    random.Random(SEED).shuffle(rest)
    return order + rest


def _move_text(game: Game, template: str) -> str:
    """``template`` with a ``{card}`` in it as the name of the meld that holds that card."""
    found = re.search(r"\{(\w+)\}", template)
    if found is None:
        return template
    face = parse_face(found[1])
    meld = next(meld for meld in game.deal.melds if meld.faces >> face & 1)
    return template.replace(found[0], meld.name)


def lesson_steps() -> list[dict[str, Any]]:
    """Every step of the first game: its lesson, the engine's words for the moves made on
    coming to it, the learner's view of the table then (its ``legal`` moves: the one move
    the lesson asks for next, if the learner's), and the cards it means."""
    rules = PRESETS["classic"]
    game = Game(rules, 2, rng=random.Random(SEED), dealer=DEALER, auto_deal=False)
    game.start_deal(learning_deck(), dealer=DEALER)
    words = TableWords.of_game(game, NAMES)
    seats = (SeatInfo(LEARNER, "person", NAMES[LEARNER]),
             SeatInfo(SAM, "bot", NAMES[SAM], bot="expert"))
    topics = {topic: text[:1].upper() + text[1:] for topic, text in rules_summary(rules, 2)}
    topics["target"] = str(rules.target_score)
    steps = []
    for lesson in LESSONS:
        told = len(words.history(LEARNER))
        made = []
        for seat, template in lesson.moves:
            move = _move_text(game, template)
            reason = game.why_illegal(move) if game.turn == seat else "not this seat's turn"
            if reason is not None:
                raise RuntimeError(f"the first game's move {move!r} of seat {seat}: {reason}")
            words.play(seat, move)
            made.append({"seat": seat, "move": move})
        said = [entry.text for entry in words.history(LEARNER)[told:]]
        state = plain(build_state(game, LEARNER, seats, words))
        text = [line.format_map(topics) for line in lesson.text]
        steps.append({"title": lesson.title, "text": text, "moves": made, "said": said,
                      "marks": list(lesson.marks), "state": state})
    # The learner may make each of their moves on the table too: a step offers, of the moves
    # the engine allows, the one the next step makes (none while Sam plays).
    for step, after in zip(steps, [*steps[1:], None], strict=True):
        offered = [made["move"] for made in (after["moves"] if after else [])
                   if made["seat"] == LEARNER]
        legal = step["state"]["legal"] or []
        if any(move not in legal for move in offered):
            raise RuntimeError(f"the first game offers {offered} where the engine allows {legal}")
        step["state"]["legal"] = offered or None
    return steps


@functools.cache
def first_game() -> dict[str, Any]:
    """The first game as the page reads it (made once: it never changes)."""
    rules = PRESETS["classic"]
    return {
        "players": 2,
        "names": list(NAMES),
        "rules": rules.to_record(),
        "info": {"rules": rules.to_record(), "players": 2, "preset": rules.preset,
                 "description": "", "partnership": False, "sides": [[0], [1]],
                 "topics": [{"topic": topic, "text": text}
                            for topic, text in rules_summary(rules, 2)]},
        "steps": lesson_steps(),
    }


__all__ = ["LESSONS", "Lesson", "first_game", "learning_deck", "lesson_steps"]
