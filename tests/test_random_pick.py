"""The random bot's pick is ``rng.choice`` written out: the same move from the same seed."""

from __future__ import annotations

import random

from rummy500.bots.random_bot import RandomBot
from rummy500.moves import Move


def test_pick_draws_what_choice_draws() -> None:
    moves = [Move("discard", (face,)) for face in range(1, 14)] * 5
    for seed in range(50):
        bot = RandomBot(seed)
        twin = random.Random(seed)
        for count in (1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 65):
            for _ in range(20):
                assert bot.pick(moves[:count]) is twin.choice(moves[:count])
        assert bot.rng.getstate() == twin.getstate()


def test_pick_with_another_random_source_uses_its_choice() -> None:
    class Fixed(random.Random):
        def choice(self, seq):  # type: ignore[no-untyped-def]
            return seq[-1]

    bot = RandomBot(1)
    bot.rng = Fixed(1)
    moves = [Move("draw"), Move("end")]
    assert bot.pick(moves) == Move("end")
