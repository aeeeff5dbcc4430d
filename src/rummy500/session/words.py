"""The table in plain words: sides, the standing, a deal's sheet in one line, the log of a
table, the rules. The words of each move and each sheet line are made once, by
:mod:`.table_words` and :mod:`.sheets`; here they are only put together.

Everything here is public: a draw from the stock never names its card but to the one who
drew it. Front-end neutral (no Textual).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..deal import IDLE_TURNS_PER_PLAYER, Deal, DealResult
from ..narrate import ENDINGS, STOPS, YOU, game_stop_rule, idle_rule, plural
from ..rules import Rules
from ..scoring import points_for
from .seat_state import HistoryEntry, SeatState

# -- sides, deal scores, the winner ----------------------------------------------------------


def side_seats(rules: Rules, players: int, side: int) -> list[int]:
    return [seat for seat in range(players) if rules.side_of(seat) == side]


def side_label(rules: Rules, names: Sequence[str], side: int) -> str:
    """A side's name: a player's name, or ``You & Expert 2`` in a partnership ("You" first)."""
    members = [names[seat] for seat in side_seats(rules, len(names), side)]
    return " & ".join(sorted(members, key=lambda name: name != YOU))


def ending_words(deal: Deal, result: DealResult, names: Sequence[str]) -> str:
    seat = deal.turn if result.went_out is None else result.went_out
    who = names[seat]
    return ENDINGS.get(result.ended_by, result.ended_by).format(
        who=who, idle=IDLE_TURNS_PER_PLAYER * deal.players)


def standing_words(rules: Rules, names: Sequence[str], totals: Sequence[int], *,
                   finished: bool, winner: int | None, margin: int,
                   deals_played: int, stopped: str = "") -> str:
    """Who won and by how much, or a draw; during the game, who leads: ``totals`` per side;
    ``margin``, the winner's lead over the next side at the end; ``stopped``, why the game
    stopped short of its own end (:attr:`rummy500.game.Game.stopped`), said first."""
    if finished:
        stop = STOPS[stopped] + " " if stopped else ""
        if winner is None:
            return f"{stop}The game is a draw."
        who = side_label(rules, names, winner)
        wins = "win" if rules.partnership or who == YOU else "wins"
        return f"{stop}{who} {wins} the game by {plural(margin, 'point')}."
    top = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == top]
    best = f"\u2212{-top}" if top < 0 else str(top)  # a minus sign, as the sheets write it
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


def table_log(state: SeatState, histories: Mapping[int, Sequence[HistoryEntry]]) -> list[str]:
    """The log of a table as ``state``'s reader is told it: each deal's history, then its
    sheet in one line (:attr:`~.seat_state.DealSheet.text`) and the standing after it.
    ``histories``: the history of each deal before the one in play (by its number from 1)
    that the reader saw."""
    lines: list[str] = []
    for number in range(1, max(state.deal, len(state.deals)) + 1):
        told = state.history if number == state.deal else histories.get(number, ())
        lines.extend(entry.text for entry in told)
        if number <= len(state.deals):
            lines.extend((state.deals[number - 1].text, state.deals[number - 1].standing))
    return lines


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
    goal.append(game_stop_rule(rules))
    topics.append(("Winning", "; ".join(goal) + "."))
    if rules.partnership:
        topics.append(("Partners", "partners sit opposite (seats 1 and 3 against 2 and 4), may "
                       "lay off on each other's melds and score as one side."))
    if rules.rummy_calls:
        topics.append(("Rummy!", "after a discard, another player may claim cards of the pile "
                       "that meld or lay off at once (not the one who discarded); the cards "
                       "claimed count for the caller."))
    return topics
