"""The status line at any width (issue 34, seen at 80x24 beside a browser seat): its parts
are left out whole, the title first, never cut in the middle (``stock 2…`` for a stock of 29,
and the target gone)."""

from __future__ import annotations

import pytest
from rich.console import Console

from rummy500.rules import make_rules
from rummy500.tui.board import status_table

RIGHT = "You to draw · ⏱ 27 s"


def shown(width: int) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(status_table("500 Rum online", make_rules("classic", target_score=100), 1,
                               29, RIGHT, True))
    return console.export_text().rstrip("\n")


@pytest.mark.parametrize("width", [160, 80, 60, 46])
def test_parts_are_left_out_whole(width: int) -> None:
    line = shown(width)
    assert "\n" not in line and "…" not in line, line
    assert line.endswith(RIGHT)
    left = line.removesuffix(RIGHT).strip()
    assert left.endswith("stock 29 · to 100"), line
    whole = "500 Rum online · classic (+1 option) · deal 1 · stock 29 · to 100"
    assert whole.endswith(left), line
    if width >= len(whole) + len(RIGHT) + 2:
        assert left == whole
