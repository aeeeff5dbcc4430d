"""A game told in plain English, one line at a time (for ``replay`` and ``watch``).

The narrator sees everything, like a spectator behind every player: it names the
card drawn from the stock and can show the hands as they are dealt. It works on
a :class:`~rummy500.deal.Deal` before and after each move:

>>> from rummy500.game import Game
>>> game = Game(players=2, seed=3, dealer=1)
>>> deal = game.deal
>>> seen = before(deal)
>>> game.play("draw")
>>> narrate_move(seen, deal, deal.moves[-1])[0].startswith("Seat 1 draws")
True
>>> narrate_move(seen, deal, deal.moves[-1], ["Ann", "Bob"])[0].startswith("Ann draws")
True

Seats are named as set-up counts them, from 1 (``Seat 1``), or by the names given
(:func:`seat_names`), which may be ``You``: the verbs then agree (:func:`verb`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .cards import JOKER, face_of, face_pretty, iter_bits
from .deal import IDLE_TURNS_PER_PLAYER, Deal, DealResult
from .errors import BadInputError
from .game import DEAD_DEALS, DEAD_DEALS_STOP, DEAL_LIMIT_STOP, Game
from .melds import Meld
from .moves import DISCARD, DRAW, END, LAYOFF, MELD, PASS, RUMMY_LAYOFF, RUMMY_MELD, TAKE, Move
from .rules import DEAL_LIMIT, Rules
from .scoring import points_for

ENDINGS = {
    "went out": "{who} went out",
    "stock": "the stock ran out",
    "declined": "{who} took nothing from the pile with the stock empty",
    "idle": "nobody drew from the stock or put a card on the table for {idle} turns",
}


def idle_rule(players: int | None = None) -> str:
    """The rule that ends a deal going nowhere (docs/rules-decisions.md, "no endless deals")."""
    turns = (f"{IDLE_TURNS_PER_PLAYER * players} turns ({IDLE_TURNS_PER_PLAYER} a player)"
             if players else f"{IDLE_TURNS_PER_PLAYER} turns a player")
    return (f"so that no deal goes on for ever, a deal also ends (as if the stock had run "
            f"out) after {turns} in a row with no card drawn from the stock and none put on "
            "the table")


STOPS = {
    DEAD_DEALS_STOP: f"{DEAD_DEALS} deals in a row put no card on the table, so the "
                     "game stops.",
    DEAL_LIMIT_STOP: f"The game stops after {DEAL_LIMIT} deals.",
}
"""Why a game stopped short of its own end (:attr:`rummy500.game.Game.stopped`)."""


def game_stop_rule(rules: Rules | None = None) -> str:
    """The rule that ends a game going nowhere (docs/rules-decisions.md, "no endless
    games"); ``rules``: a game's, whose own ``max_deals`` may make the limit moot."""
    limit = ("" if rules is not None and rules.max_deals is not None
             else f", and after {DEAL_LIMIT} deals at the latest")
    return (f"so that no game goes on for ever, a game also ends after {DEAD_DEALS} deals in "
            f"a row with no card put on the table{limit}: the highest total then wins, and "
            "a tie for the lead is a draw")


# -- names and cards ---------------------------------------------------------------------------


def seat_name(seat: int) -> str:
    """A seat as ``review`` and ``simulate`` name it in words: counted from 1 as the
    narration counts them (:func:`seat_names`), though their ``--seat`` flags and JSON
    count seats from 0: seat 0 is ``Seat 1``."""
    return f"Seat {seat + 1}"


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """Each seat's name in a narration: ``names`` (one a seat) where there are any, else
    counted from 1 as set-up counts them: ``Seat 1``, ``Seat 2``…"""
    if names is not None:
        if len(names) != players:
            raise BadInputError(f"{len(names)} names for {players} seats")
        return list(names)
    return [f"Seat {seat + 1}" for seat in range(players)]


def side_words(rules: Rules, names: Sequence[str], side: int) -> str:
    """A side in a narration: its player's name, or its partners' (``Seats 1 and 3``,
    ``Ann and Cy``)."""
    members = [names[seat] for seat in range(len(names)) if rules.side_of(seat) == side]
    if rules.partnership and all(name.startswith("Seat ") for name in members):
        return "Seats " + " and ".join(name.removeprefix("Seat ") for name in members)
    return " and ".join(members)


def side_name(rules: Rules, players: int, side: int) -> str:
    """A side as ``review`` and ``simulate`` name it (seats from 1, as :func:`seat_name`):
    ``Seat 2``, or ``Seats 1 and 3`` in a partnership."""
    if rules.partnership:
        seats = [seat for seat in range(players) if rules.side_of(seat) == side]
        return "Seats " + " and ".join(str(seat + 1) for seat in seats)
    return seat_name(side)


def card_text(card: int) -> str:
    return face_pretty(face_of(card))


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_text(card) for card in cards)


def hand_text(hand: int) -> str:
    """A hand sorted by suit (♣ ♦ ♥ ♠) then rank, jokers last."""
    cards = sorted(iter_bits(hand), key=lambda card: (face_of(card) == JOKER, face_of(card)))
    return cards_text(cards) or "no cards"


def meld_text(meld: Meld) -> str:
    """A meld's cards in order; a wild joker shows what it stands for: ``joker(6♥)``."""
    ordered = sorted(meld.cards, key=lambda c: meld.order_key(c.face))
    words = []
    for table_card in ordered:
        if table_card.face == JOKER:
            words.append("joker")
        elif table_card.card & 15 == 15:
            words.append(f"joker({face_pretty(table_card.face)})")
        else:
            words.append(face_pretty(table_card.face))
    return " ".join(words)


def pack_line(head: str, items: Sequence[str], width: int = 96) -> list[str]:
    """``items`` joined by semicolons after ``head``, wrapped between items only."""
    lines: list[str] = []
    line = head
    for item in items:
        if line != head and len(line) + len(item) + 2 > width:
            lines.append(line + ";")
            line = " " * len(head)
        elif line != head:
            line += "; "
        line += item
    lines.append(line)
    return lines


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# -- one move ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Before:
    """What the narrator needs to remember of a deal just before a move."""

    turn: int
    hand: int
    pile: tuple[int, ...]
    stock: int
    melds: int
    credit: tuple[int, ...]
    restocks: int


def before(deal: Deal) -> Before:
    return Before(deal.turn, deal.hands[deal.turn], tuple(deal.pile), len(deal.stock),
                  len(deal.melds), tuple(deal.credit), deal.restocks)


YOU = "You"

_SECOND_PERSON = {
    "draws": "draw", "takes": "take", "melds": "meld", "lays": "lay", "discards": "discard",
    "goes": "go", "calls": "call", "passes": "pass", "must": "must", "went": "went",
    "wins": "win", "has": "have", "is": "are", "deals": "deal", "plays": "play",
    "holds": "hold", "was": "were",
}


def verb(who: str, third_person: str) -> str:
    """The verb as said of ``who``: ``You draw`` but ``Ann draws``.

    >>> verb("You", "lays off"), verb("Ann", "lays off")
    ('lay off', 'lays off')
    """
    if who != YOU:
        return third_person
    head, _, rest = third_person.partition(" ")
    return " ".join(filter(None, (_SECOND_PERSON.get(head, head), rest)))


def move_text(who: str, seat: int, move: Move, seen: Before, deal: Deal, *,
              spectator: bool) -> str:
    """``move`` by ``who`` (at ``seat``) in plain words; ``deal`` is the deal after it.

    A ``spectator`` sees everything: the card drawn from the stock is named, and a
    lay-off spells out the meld it joined. Otherwise the line is what the table sees.
    """
    gained = deal.credit[seat] - seen.credit[seat]
    kind = move.kind
    if kind == DRAW:
        drawn = f" {cards_text(iter_bits(deal.hands[seat] & ~seen.hand))}" if spectator else ""
        text = f"{who} {verb(who, 'draws')}{drawn} from the stock"
        if seen.stock == 1:
            text += ", its last card"
    elif kind == TAKE:
        taken = seen.pile[len(deal.pile):]
        text = f"{who} {verb(who, 'takes')} {card_text(taken[0])}"
        if len(taken) > 1:
            above = "card" if len(taken) == 2 else f"{len(taken) - 1} cards"
            text += f" and the {above} above it ({cards_text(taken[1:])})"
        text += " from the pile"
        if deal.must_use != -1 and deal.turn == seat:
            text += f", and {verb(who, 'must')} use {card_text(deal.must_use)} this turn"
    elif kind in (MELD, RUMMY_MELD):
        meld = deal.melds[-1]
        if kind == RUMMY_MELD:
            call = f"{verb(who, 'calls')} rummy and {verb(who, 'melds')}"
            cards = meld_text(meld) + " from the pile"
        else:
            call, cards = verb(who, "melds"), meld_text(meld)
        text = f"{who} {call} {cards} ({meld.name}, {plural(gained, 'point')})"
    elif kind in (LAYOFF, RUMMY_LAYOFF):
        meld = deal.melds[move.meld - 1]
        laid = meld.cards[-1]
        card = (f"joker as {face_pretty(laid.face)}" if laid.card & 15 == 15 and
                laid.face != JOKER else card_text(laid.card))
        if kind == RUMMY_LAYOFF:
            call = f"{verb(who, 'calls')} rummy and {verb(who, 'lays off')}"
            card += " from the pile"
        else:
            call = verb(who, "lays off")
        now = f", now {meld_text(meld)}" if spectator else ""
        text = f"{who} {call} {card} on {meld.name}{now} ({plural(gained, 'point')})"
    elif kind == DISCARD:
        text = f"{who} {verb(who, 'discards')} {card_text(deal.pile[-1])}"
    elif kind == END:
        text = f"{who} {verb(who, 'takes')} nothing from the pile, which ends the deal"
    elif kind == PASS:
        text = f"{who} {verb(who, 'passes')} (no rummy call)"
    else:  # pragma: no cover - every kind is told above
        text = f"{who} {move.describe()}"
    if deal.over and deal.went_out == seat:
        text += f", and {verb(who, 'goes')} out"
    return text


def restocked(seen: Before, deal: Deal) -> str | None:
    """What a move that emptied the stock did to it (``deal`` after the move), or None."""
    if deal.restocks == seen.restocks:
        return None
    return (f"The stock is empty: the pile but its top card is shuffled into a new stock of "
            f"{plural(len(deal.stock), 'card')}")


def narrate_move(seen: Before, deal: Deal, move: Move,
                 names: Sequence[str] | None = None) -> list[str]:
    """The lines telling ``move``, made by the player to move in ``seen``; ``deal`` is after
    it; ``names``: the seats' names (:func:`seat_names`)."""
    who = seat_names(deal.players, names)[seen.turn]
    lines = [move_text(who, seen.turn, move, seen, deal, spectator=True)]
    restock = restocked(seen, deal)
    if restock is not None:
        lines.append(restock + ".")
    return lines


def status_line(deal: Deal) -> str:
    """Cards in each hand, each seat's points on the table, stock and pile, in one line."""
    hands = "/".join(str(hand.bit_count()) for hand in deal.hands)
    table = "/".join(str(points) for points in deal.credit)
    return (f"[cards in hand {hands} · points on the table {table} · "
            f"stock {len(deal.stock)} · pile {len(deal.pile)}]")


# -- deals and games ---------------------------------------------------------------------------


def deal_start(deal: Deal, number: int, *, hands: bool = True,
               names: Sequence[str] | None = None) -> list[str]:
    """The opening of deal ``number`` (from 1): dealer, cards dealt, up-card, hands."""
    named = seat_names(deal.players, names)
    dealt = deal.rules.cards_dealt(deal.players)
    dealer, first = named[deal.dealer], named[(deal.dealer + 1) % deal.players]
    lines = [
        f"Deal {number}: {dealer} {verb(dealer, 'deals')} {dealt} cards each; the up-card is "
        f"{card_text(deal.deck[dealt * deal.players])}; {len(deal.deck) - dealt * deal.players - 1}"
        f" cards in the stock; {first} {verb(first, 'plays')} first.",
    ]
    if hands:
        hand_cards = [0] * deal.players
        for i in range(dealt * deal.players):
            hand_cards[(deal.dealer + 1 + i) % deal.players] |= 1 << deal.deck[i]
        lines.extend(f"  {named[seat]} {verb(named[seat], 'holds')} {hand_text(hand)}"
                     for seat, hand in enumerate(hand_cards))
    return lines


def deal_end(
    deal: Deal, result: DealResult, number: int, totals: Sequence[int],
    names: Sequence[str] | None = None,
) -> list[str]:
    """How deal ``number`` ended, the points of each player, and running ``totals`` after it."""
    rules, players = deal.rules, deal.players
    named = seat_names(players, names)
    sides = [side_words(rules, named, side) for side in range(rules.sides(players))]
    width = max(16, *(len(name) + 2 for name in named + sides))
    idle = IDLE_TURNS_PER_PLAYER * players
    why = ENDINGS.get(result.ended_by, result.ended_by).format(
        who=named[deal.turn if result.went_out is None else result.went_out], idle=idle
    )
    lines = [f"Deal {number} is over: {why}."]
    if deal.melds:
        lines.extend(pack_line("  Table: ", [f"{meld.name} {meld_text(meld)}"
                                             for meld in deal.melds]))
    if rules.partnership:
        lines.append(f"  {'':<{width}}{'table':>7}{'hand':>7}")
        for seat in range(players):
            lines.append(f"  {named[seat]:<{width}}{result.melded[seat]:>7}"
                         f"{result.in_hand[seat]:>7}")
        lines.append(f"  {'':<{width}}{'deal':>7}{'total':>7}")
        for side, label in enumerate(sides):
            lines.append(f"  {label:<{width}}{result.scores[side]:>7}{totals[side]:>7}")
    else:
        lines.append(f"  {'':<{width}}{'table':>7}{'hand':>7}{'deal':>7}{'total':>7}")
        for seat in range(players):
            lines.append(f"  {named[seat]:<{width}}{result.melded[seat]:>7}"
                         f"{result.in_hand[seat]:>7}{result.scores[seat]:>7}{totals[seat]:>7}")
    return lines


def game_end(game: Game, names: Sequence[str] | None = None) -> list[str]:
    """The winner (or a draw), or where an unfinished game stands."""
    rules, players = game.rules, game.players
    named = seat_names(players, names)
    totals = " / ".join(f"{side_words(rules, named, side)} {total}"
                        for side, total in enumerate(game.totals))
    if not game.finished:
        if not game.results:
            return ["The game is not over, and no deal has been scored yet."]
        return [f"The game is not over after {plural(len(game.results), 'deal')}: {totals}."]
    stop = STOPS[game.stopped] + " " if game.stopped else ""
    if game.winner is None:
        return [f"{stop}The game ends in a draw after {plural(len(game.results), 'deal')}: "
                f"{totals}."]
    name = side_words(rules, named, game.winner)
    wins = "win" if rules.partnership else verb(name, "wins")
    final_bonus = points_for(rules).final_bonus
    bonus = f", with the final bonus of {final_bonus}" if final_bonus else ""
    return [f"{stop}{name} {wins} the game by {plural(game.margin, 'point')} after "
            f"{plural(len(game.results), 'deal')}{bonus}: {totals}."]


def fresh_deal(deal: Deal) -> Deal:
    """``deal`` as it was dealt, before any move (with the same restock orders)."""
    return Deal(deal.rules, deal.players, deal.dealer, deal.deck,
                deal.restock_orders[: deal.restocks])


def narrate_deal(
    deal: Deal, moves: Iterable[Move], number: int, *, hands: bool = True,
    names: Sequence[str] | None = None,
) -> Iterator[str]:
    """Deal ``number``'s opening, then each of ``moves`` played on ``deal`` and told."""
    yield from deal_start(deal, number, hands=hands, names=names)
    for move in moves:
        seen = before(deal)
        deal.play(move, check=False)
        yield from narrate_move(seen, deal, move, names)


def narrate_game(game: Game, *, hands: bool = True,
                 names: Sequence[str] | None = None) -> Iterator[str]:
    """The whole of ``game`` (finished or not) in plain words, deal by deal; ``names``: the
    seats' names, one a seat (else ``Seat 1``, ``Seat 2``…)."""
    rules = game.rules
    named = seat_names(game.players, names)
    yield (f"{game.players} players, rules {rules.preset}"
           + "".join(f", {name}={value_text(value)}"
                     for name, value in rules.overrides().items()) + ".")
    totals = [0] * rules.sides(game.players)
    for index, deal in enumerate(game.deals):
        yield ""
        copy = fresh_deal(deal)
        yield from narrate_deal(copy, deal.moves, index + 1, hands=hands, names=named)
        if index < len(game.results):
            result = game.results[index]
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
            yield from deal_end(copy, result, index + 1, totals, named)
        else:
            yield (f"The record stops here, with {named[copy.turn]} to "
                   f"{'draw' if copy.phase == 'draw' else 'play'}.")
    yield ""
    yield from game_end(game, named)


def value_text(value: object) -> str:
    """An option value as the command line writes it (true, none, discard_pile, 4)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


__all__ = [
    "ENDINGS",
    "YOU",
    "Before",
    "before",
    "deal_end",
    "deal_start",
    "fresh_deal",
    "game_end",
    "game_stop_rule",
    "hand_text",
    "idle_rule",
    "meld_text",
    "move_text",
    "narrate_deal",
    "narrate_game",
    "narrate_move",
    "restocked",
    "seat_name",
    "seat_names",
    "side_name",
    "side_words",
    "status_line",
    "value_text",
    "verb",
]
