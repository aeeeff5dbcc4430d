"""The table in plain words: public move lines, deal scores and the winner, with seat names.

Everything here is public: a draw from the stock never names its card. The phrases
are :mod:`rummy500.narrate`'s, said as the table sees them. Front-end neutral (no
Textual).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..deal import IDLE_TURNS_PER_PLAYER, Deal, DealResult
from ..game import Game
from ..moves import Move
from ..narrate import (
    ENDINGS,
    YOU,
    Before,
    cards_text,
    hand_text,
    idle_rule,
    meld_text,
    move_text,
    plural,
)
from ..rules import Rules
from ..scoring import points_for


def move_line(who: str, seat: int, move: Move, seen: Before, deal: Deal) -> str:
    """``move`` by ``who`` (at ``seat``) as the table sees it; ``deal`` is the deal after it."""
    return move_text(who, seat, move, seen, deal, spectator=False)


# -- sides, deal scores, the winner ----------------------------------------------------------


def side_seats(rules: Rules, players: int, side: int) -> list[int]:
    return [seat for seat in range(players) if rules.side_of(seat) == side]


def side_label(rules: Rules, names: Sequence[str], side: int) -> str:
    """A side's name: a player's name, or ``You & Expert 2`` in a partnership."""
    return " & ".join(names[seat] for seat in side_seats(rules, len(names), side))


def ending_words(deal: Deal, result: DealResult, names: Sequence[str]) -> str:
    seat = deal.turn if result.went_out is None else result.went_out
    who = names[seat]
    return ENDINGS.get(result.ended_by, result.ended_by).format(
        who=who, idle=IDLE_TURNS_PER_PLAYER * deal.players)


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One player's or side's line of a deal's score sheet."""

    who: str
    table: int
    hand: int
    deal: int
    total: int


@dataclass(frozen=True, slots=True)
class DealSheet:
    """What a deal gave: how it ended, rows per side, notes, and the game's state after it."""

    number: int
    """The deal's number, from 1."""
    ending: str
    rows: tuple[ScoreRow, ...]
    notes: tuple[str, ...]
    hands: tuple[tuple[str, str], ...]
    """Each player's name and the cards left in hand, now shown to all."""
    finished: bool
    outcome: str
    """The winner (or a draw) when the game is over; else who leads."""
    table: tuple[str, ...] = ()
    """The table as the deal ended: each meld with who laid its cards, then the pile."""


def deal_sheet(game: Game, names: Sequence[str], index: int) -> DealSheet:
    """The score sheet of deal ``index`` (from 0) of ``game``."""
    rules, players = game.rules, game.players
    deal, result = game.deals[index], game.results[index]
    sides = rules.sides(players)
    totals = [sum(r.scores[side] for r in game.results[: index + 1]) for side in range(sides)]
    last = index == len(game.results) - 1
    if last and game.finished:
        totals = list(game.totals)
    rows = []
    for side in range(sides):
        seats = side_seats(rules, players, side)
        rows.append(ScoreRow(side_label(rules, names, side),
                             sum(result.melded[s] for s in seats),
                             sum(result.in_hand[s] for s in seats),
                             result.scores[side], totals[side]))
    notes = sheet_notes(rules, names, result.went_out,
                        game.winner if last and game.finished else None)
    hands = tuple((names[seat], hand_text(deal.hands[seat]) if deal.hands[seat] else "—")
                  for seat in range(players))
    table = [f"{meld.name} {meld_text(meld)} ("
             + ", ".join(dict.fromkeys(names[card.seat] for card in meld.cards)) + ")"
             for meld in deal.melds]
    table.append(f"pile: {cards_text(deal.pile) or 'empty'}")
    # A sheet says only what was known when its deal ended: who led then, not who won.
    outcome = (outcome_words(game, names, totals) if last and game.finished else
               standing_words(rules, names, totals, finished=False, winner=None, margin=0,
                              deals_played=index + 1))
    return DealSheet(index + 1, ending_words(deal, result, names), tuple(rows), tuple(notes),
                     hands, last and game.finished, outcome, tuple(table))


def sheet_notes(rules: Rules, names: Sequence[str], went_out: int | None,
                final_winner: int | None) -> list[str]:
    """How a deal's score sheet adds up: the going-out bonus, the rule of the sums, and the
    final bonus on the sheet that ends the game (``final_winner``: the side that won it)."""
    points = points_for(rules)
    notes = []
    if went_out is not None and points.going_out_bonus:
        side = rules.side_of(went_out)
        notes.append(f"{side_label(rules, names, side)}: +{points.going_out_bonus} "
                     "for going out")
    if rules.add_hand_to_winner:
        notes.append("Add Opponent's Hand: hands are not subtracted; whoever went out adds "
                     "the others' hands")
    else:
        notes.append("deal score = points on the table − points in hand")
    if final_winner is not None and points.final_bonus:
        notes.append(f"{side_label(rules, names, final_winner)}: +{points.final_bonus} "
                     "final bonus")
    return notes


def outcome_words(game: Game, names: Sequence[str], totals: Sequence[int]) -> str:
    """Who won and by how much, or a draw; during the game, who leads."""
    return standing_words(game.rules, names, totals, finished=game.finished,
                          winner=game.winner, margin=game.margin,
                          deals_played=len(game.results))


def standing_words(rules: Rules, names: Sequence[str], totals: Sequence[int], *,
                   finished: bool, winner: int | None, margin: int,
                   deals_played: int) -> str:
    """:func:`outcome_words` from the figures alone (an online seat has no :class:`Game`):
    ``totals`` per side; ``margin``, the winner's lead over the next side at the end."""
    if finished:
        if winner is None:
            return "The game is a draw."
        who = side_label(rules, names, winner)
        wins = "win" if rules.partnership or who == YOU else "wins"
        return f"{who} {wins} the game by {plural(margin, 'point')}."
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    goal = f" (to {rules.target_score})" if rules.target_score is not None else ""
    if rules.max_deals is not None:
        left = rules.max_deals - deals_played
        goal += f", {left} deal{'s' if left != 1 else ''} to go"
    if len(leaders) == len(totals):
        return f"Level at {best} each{goal}."
    if len(leaders) > 1:
        together = " and ".join(side_label(rules, names, side) for side in leaders)
        return f"{together} lead with {best}{goal}."
    who = side_label(rules, names, leaders[0])
    return f"{who} {'lead' if rules.partnership or who == YOU else 'leads'} with {best}{goal}."


# -- the rules in plain words --------------------------------------------------------------------


def rules_summary(rules: Rules, players: int) -> list[tuple[str, str]]:
    """How this game is played, topic by topic, in plain words (for a rules screen)."""
    points = points_for(rules)
    packs = rules.deck_count(players)
    pack = "one pack" if packs == 1 else "two packs shuffled together"
    if rules.jokers != "none":
        kind = "wild" if rules.jokers == "wild" else "Persian"
        pack += f" with {rules.jokers_in_each_deck} {kind} jokers" + (" each" if packs > 1 else "")
    topics = [("The deal", f"{pack}; {rules.cards_dealt(players)} cards to each player; the "
               "next card turned up starts the discard pile, the rest is the stock.")]
    must = "any card taken from the pile must then be used" if rules.top_discard_must_be_used \
        else "a card taken from below the top must be used"
    keep = ("" if rules.discard_taken_card else
            " (not the card you took from the pile, while you have another to discard)")
    topics.append(("A turn", "draw the top card of the stock, or take any card of the discard "
                   f"pile with every card above it ({must} in a meld or lay-off that turn); "
                   f"then meld and lay off as you like; then discard one card{keep}."))
    melds = (f"a set is three or four cards of one rank; a run is {rules.min_run} or more cards "
             "of one suit in sequence (an ace is low or high, never both, and a run does not "
             "go round the corner); you may lay off a card on any meld on the table, yours or "
             "another's, and it counts for you.")
    if rules.jokers == "wild":
        melds += " A joker stands for any card you name, and keeps standing for it."
    elif rules.jokers == "persian":
        melds += " Jokers are not wild: they meld only as a set of jokers."
    topics.append(("Melds", melds))
    going_out = ("you must discard on the turn you go out (Boathouse rule)"
                 if rules.discard_to_go_out else "with or without a last discard")
    stock = {
        "end": "the deal ends after the turn that draws the last card of the stock",
        "discard_pile": "with the stock empty, players may go on taking from the pile (and "
                        "must use what they take); the deal ends when a player does not",
        "reshuffle": "the first time the stock runs out the pile (but its top card) is "
                     "shuffled into a new stock; the second time the deal ends",
    }[rules.stock_exhausted]
    topics.append(("End of a deal", f"when a player has no cards left ({going_out}); or {stock}; "
                   f"{idle_rule(players)}."))
    rank = points.rank
    two_to_nine = f"{rank[2]} each" if len(set(rank[2:10])) == 1 else "their face value"
    aces = (f"aces {points.low_ace}, but {points.ace} high in a run" if rules.high_ace_only
            else f"aces {points.ace} (low in a run: {points.low_ace})")
    values = f"{aces}; K, Q, J, 10: {rank[10]}; 2 to 9: {two_to_nine}"
    if rules.jokers != "none":
        values += f"; jokers {points.joker}"
    if rules.add_hand_to_winner:
        score = ("hands are not subtracted: whoever goes out adds the points left in the other "
                 "hands")
    else:
        score = "each scores the cards they put on the table minus the cards left in hand"
    extras = []
    if rules.four_of_a_kind_doubles:
        extras.append("a set of four laid down at once counts double" if not
                      rules.four_card_runs_double else
                      "a set or a run of four laid down at once counts double")
    if points.going_out_bonus:
        extras.append(f"going out scores {points.going_out_bonus}")
    topics.append(("Points", f"{values}. At the end of a deal {score}"
                   + ("; " + "; ".join(extras) if extras else "") + "."))
    goal = []
    if rules.target_score is not None:
        goal.append(f"the first to reach {rules.target_score} at the end of a deal wins "
                    "(the highest, if several do)")
    if rules.max_deals is not None:
        goal.append(f"the game lasts {rules.max_deals} deal{'s' if rules.max_deals != 1 else ''}"
                    ", and the higher total wins")
    if points.final_bonus:
        goal.append(f"the winner adds a bonus of {points.final_bonus}")
    topics.append(("Winning", "; ".join(goal) + "."))
    if rules.partnership:
        topics.append(("Partners", "partners sit opposite (seats 1 and 3 against 2 and 4), may "
                       "lay off on each other's melds and score as one side."))
    if rules.rummy_calls:
        topics.append(("Rummy!", "after a discard, another player may claim cards of the pile "
                       "that meld or lay off at once (not the one who discarded); the cards "
                       "claimed count for the caller."))
    return topics
