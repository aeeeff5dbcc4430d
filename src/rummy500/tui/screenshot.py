"""The table as the README shows it: ``python -m rummy500.tui.screenshot [PATH]``.

A seeded two-player game of the classic rules against the expert is played
(your seat by the expert's hints too) until the table holds a few melds, and
the screen is saved in SVG at 80 × 24.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from ..errors import OptionsError
from ..kinds import Phase
from ..session.session import TableSession
from ..session.settings import default_settings
from .app import PlayApp
from .table import TableScreen

DEFAULT_PATH = Path("docs/screenshot-table.svg")


def position(seed: int = 6, melds: int = 4) -> TableSession:
    """A game played until ``melds`` melds are down and it is your turn to play."""
    session = TableSession.new(default_settings(seed=seed, budget=0.2))
    seat = session.people[0]
    while not session.finished:
        view = session.view(seat)
        if session.person_to_move and view.phase == Phase.PLAY and len(view.melds) >= melds:
            return session
        if session.person_to_move:
            decision = session.hint_turn(seat).decide()
            assert session.play(seat, decision.move) is None
        else:
            turn = session.bot_turn()
            assert turn is not None
            session.apply_bot(turn, turn.decide())
    raise OptionsError(f"the game with seed {seed} ended before {melds} melds were down")


async def shoot(path: Path, size: tuple[int, int] = (80, 24), seed: int = 6) -> None:
    session = position(seed)
    app = PlayApp(session.settings, None, session=session, delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        playable = [index for index, item in enumerate(table.hand.items) if item.marked]
        for index in playable[:1]:
            await pilot.click("#hand", offset=table.hand.offset_of(index))
        await pilot.pause()
        app.save_screenshot(path.name, str(path.parent))


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else DEFAULT_PATH
    asyncio.run(shoot(path))
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
