"""The one play-out loop: every driver of computer players asks, checks and makes moves here.

Simulations, tournaments, ``rummy500 watch``, the reinforcement-learning environments (the
opponents' turns) and a table session (its computer players' turns) all ask the bot of the
seat to move with :func:`ask`, refuse an illegal move with the same words
(:func:`illegal_move`) and play on with :func:`play_out`.

>>> import random
>>> from rummy500.bots import make_bot
>>> from rummy500.game import Game
>>> from rummy500.rules import make_rules
>>> game = Game(make_rules("classic"), 2, rng=random.Random(1))
>>> first = game.deal.turn
>>> played = []
>>> play_out(game, [make_bot("random", 1), make_bot("random", 2)],
...          on_move=lambda turn: played.append(turn.seat))
>>> len(game.results), played[0] == first, len(played) > 2
(1, True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from ..errors import IllegalMoveError, Rummy500Error
from ..game import Game
from ..legal import OVER, legal_moves
from ..moves import Move
from .base import Bot, Decision
from .random_bot import RandomBot, draw_index


class Played(NamedTuple):
    """One bot's move, made."""

    seat: int
    move: Move
    reason: str
    """Why (empty unless the play-out asked for reasons, or the bot decided from its view)."""
    ms: float
    """The milliseconds the decision took (0 unless the play-out was timed)."""


def ask(bot: Bot, game: Game, seat: int, *, reasons: bool = False) -> Decision:
    """``bot``'s decision for ``seat`` (the seat to move), from the seat's view only; a bot
    that does not need the view picks among the legal moves (its reason then left empty,
    unless ``reasons``)."""
    if reasons or bot.needs_view:
        return bot.decide(game.view(seat))
    return Decision(bot.pick(game.deal.legal_moves()), "")


def illegal_move(error: type[Rummy500Error], who: str, seat: int, move: Move, reason: str,
                 game: Game) -> Rummy500Error:
    """The error for bot ``who`` at ``seat`` choosing the illegal ``move`` (for ``reason``)."""
    return error(f"{who} at seat {seat} played {move}, which is illegal: {reason} "
                 f"(position: {game.deal.fen()})")


def _refused(error: type[Rummy500Error], names: Sequence[str] | None, bot: Bot, seat: int,
             move: Move, refused: IllegalMoveError, game: Game) -> Rummy500Error:
    """The error for a play-out's bot whose move the engine refused."""
    who = repr(names[seat] if names is not None else bot.name)
    return illegal_move(error, f"bot {who}", seat, move, str(refused), game)


def check_move(game: Game, seat: int, move: Move, who: str,
               error: type[Rummy500Error] = IllegalMoveError) -> None:
    """Raise ``error`` (see :func:`illegal_move`) unless ``move`` is legal now."""
    reason = game.why_illegal(move)
    if reason is not None:
        raise illegal_move(error, who, seat, move, reason, game)


def play_out(
    game: Game,
    bots: Sequence[Bot] | Mapping[int, Bot],
    *,
    until: Callable[[Game], bool] | None = None,
    check: bool = True,
    error: type[Rummy500Error] = IllegalMoveError,
    names: Sequence[str] | None = None,
    reasons: bool = False,
    timed: bool = False,
    on_move: Callable[[Played], None] | None = None,
) -> None:
    """Let ``bots`` (the bot of each seat that plays) play ``game`` until ``until(game)``
    is true, by default to the end of the current deal (and never past the game's end).

    Each move is asked with :func:`ask` and made with :meth:`Game.play`; an illegal one
    raises ``error`` naming the bot (``names[seat]``, else ``bot.name``). With ``check``
    false the moves are trusted (fine for bots that pick among the legal moves).
    ``on_move`` sees every move made; ``timed`` measures each decision.
    """
    if until is None and not (check or reasons or timed) and on_move is None:
        _play_trusted(game, bots, error, names)
        return
    clock = time.perf_counter
    deal = game.deal
    while not game.finished and not (deal.over if until is None else until(game)):
        seat = game.deal.turn
        bot = bots[seat]
        start = clock() if timed else 0.0
        move, reason = ask(bot, game, seat, reasons=reasons)
        ms = (clock() - start) * 1000.0 if timed else 0.0
        try:
            game.play(move, check=check)
        except IllegalMoveError as refused:
            raise _refused(error, names, bot, seat, move, refused, game) from None
        if on_move is not None:
            on_move(Played(seat, move, reason, ms))


def _play_trusted(game: Game, bots: Sequence[Bot] | Mapping[int, Bot],
                  error: type[Rummy500Error], names: Sequence[str] | None) -> None:
    """:func:`play_out` to the end of the deal with trusted moves, nothing timed or reported:
    the loop of a random-bot simulation, with the same moves in the same order. The deal
    stays the game's current one until it ends, so its moves are made on it directly and
    the game scores it once at the end (what :meth:`Game.play` does after the last move)."""
    if game.finished:
        return
    deal = game.deal
    position = deal.position
    apply = deal._apply  # Deal.play(move, check=False) for a Move, without its frame
    seats = bots.values() if isinstance(bots, Mapping) else bots
    if all(type(bot) is RandomBot and type(bot.rng) is random.Random for bot in seats):
        _play_random(game, bots, error, names)
    while deal.phase != OVER:  # not deal.over
        seat = deal.turn
        bot = bots[seat]
        if bot.needs_view:
            move = bot.decide(game.view(seat)).move
        else:  # Deal.legal_moves() written out
            move = bot.pick(legal_moves(position()))
        try:
            if isinstance(move, Move):
                apply(move)
            else:  # pragma: no cover - a bot's move as text is parsed and checked
                deal.play(move, check=False)
        except IllegalMoveError as refused:
            raise _refused(error, names, bot, seat, move, refused, game) from None
    game._finish_deal()  # what Game.play does once a move ends the deal


def _play_random(game: Game, bots: Sequence[Bot] | Mapping[int, Bot],
                 error: type[Rummy500Error], names: Sequence[str] | None) -> None:
    """The trusted loop with only random bots: RandomBot.pick written out (the same draw
    from the same bits), up to the end of the deal or a position with no legal move (left
    to :func:`_play_trusted`, whose pick refuses it as RandomBot.pick does)."""
    deal = game.deal
    listing = deal.legal_moves
    apply = deal._apply
    draws: Sequence[Callable[[int], int]] | Mapping[int, Callable[[int], int]]
    if isinstance(bots, Mapping):
        draws = {seat: bot.rng.getrandbits for seat, bot in bots.items()}
    else:
        draws = [bot.rng.getrandbits for bot in bots]
    while deal.phase != OVER:
        moves = listing()
        count = len(moves)
        if not count:
            return
        seat = deal.turn
        move = moves[draw_index(draws[seat], count)]
        try:
            apply(move)
        except IllegalMoveError as refused:
            raise _refused(error, names, bots[seat], seat, move, refused, game) from None


__all__ = ["Played", "ask", "check_move", "illegal_move", "play_out"]
