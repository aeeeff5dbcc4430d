"""Score pads for the tests: written by hand in a few words, or taken from a game the engine
played (each deal's final table, melds with their lay-offs by seat, and hands)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummy500.cards import JOKER, Cards, face_str
from rummy500.deal import Deal
from rummy500.game import Game
from rummy500.kinds import MoveKind
from rummy500.melds import RUN, TableCard

MELD_MOVES = (MoveKind.MELD, MoveKind.RUMMY_MELD)


def pad(preset: str, players: list[str], deals: list[dict[str, Any]],
        **options: Any) -> dict[str, Any]:
    """A pad's JSON value."""
    return {"format": "rummy500-pad", "version": 1,
            "rules": {"preset": preset, "options": options}, "players": players,
            "deals": deals}


def deal(dealer: int, hands: list[str], melds: Sequence[tuple[int, str]] = (),
         layoffs: Sequence[tuple[int, str, int]] = (), went_out: int | None = None,
         points: list[int | None] | None = None) -> dict[str, Any]:
    """A deal's entry: melds as (seat, cards), lay-offs as (seat, cards, on)."""
    entry: dict[str, Any] = {
        "dealer": dealer, "went_out": went_out,
        "melds": [{"seat": seat, "cards": cards} for seat, cards in melds],
        "layoffs": [{"seat": seat, "cards": cards, "on": on} for seat, cards, on in layoffs],
        "hands": hands}
    if points is not None:
        entry["points"] = points
    return entry


def card_text(card: TableCard) -> str:
    if card.card & 15 == 15:
        return "*" if card.face == JOKER else "*=" + face_str(card.face)
    return face_str(card.face)


def deal_entry(played: Deal) -> dict[str, Any]:
    """A finished deal as a scorekeeper writes it down: the melds as they were laid, every
    card laid off onto each (in the order laid), and the hands."""
    sizes = [(len(move.pieces), seat) for move, seat in zip(played.moves, played.movers,
                                                              strict=True)
             if move.kind in MELD_MOVES]
    melds, layoffs = [], []
    for number, (meld, (size, seat)) in enumerate(zip(played.melds, sizes, strict=True), 1):
        melds.append({"seat": seat, "cards": " ".join(card_text(c) for c in meld.cards[:size])})
        layoffs += [{"seat": c.seat, "cards": card_text(c), "on": number}
                    for c in meld.cards[size:]]
    return {"dealer": played.dealer, "went_out": played.went_out, "melds": melds,
            "layoffs": layoffs, "hands": [str(Cards(hand)) for hand in played.hands],
            "points": [None] * played.players}


def pad_of_game(game: Game, names: list[str]) -> dict[str, Any]:
    """The pad of every finished deal of ``game``."""
    record = game.rules.to_record()
    preset = record.pop("preset")
    return {"format": "rummy500-pad", "version": 1,
            "rules": {"preset": preset, "options": record}, "players": names,
            "deals": [deal_entry(played) for played in game.deals[: len(game.results)]]}


def ace_place_unknown(game: Game) -> bool:
    """Whether a deal of ``game`` holds a run of all thirteen whose ace was laid off: only
    the order of the lay-offs (which a pad does not keep) tells whether it lies low or high."""
    for played in game.deals[: len(game.results)]:
        sizes = [len(move.pieces) for move in played.moves if move.kind in MELD_MOVES]
        for meld, size in zip(played.melds, sizes, strict=True):
            if meld.kind == RUN and len(meld.cards) == 13 and any(
                    c.face & 15 == 1 for c in meld.cards[size:]):
                return True
    return False
