"""Issue 34, item 9: ``play --join URL --seat N --name X`` does what the flags say or says
plainly what it did instead and why (a real ``rummy500 serve`` on loopback); and
``rummy500 play`` started without a terminal refuses to start, in one line, at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import RichLog

from joinkit import screen_of, until
from rummy500.commands.play_join import join
from rummy500.tui.remote import RemoteApp
from rummy500.tui.tokens import HeldSeat, SeatTokens
from serverkit import ServerProcess, seat_body


async def held_at_seat_0(server: ServerProcess, tmp_path: Path) -> str:
    """A table of two people and a computer player where this terminal holds seat 0 as Ann."""
    made = await server.api.create_table(seat_body("person", "person", "random", seed=4))
    SeatTokens(tmp_path).put(server.base, made["table"], HeldSeat(0, made["token"], "Ann"))
    return f"{server.base}/t/{made['table']}"


@pytest.mark.asyncio
async def test_another_seat_asked_for_is_taken_under_the_name_given_and_said(
        shared_sqlite: ServerProcess, tmp_path: Path) -> None:
    url = await held_at_seat_0(shared_sqlite, tmp_path)
    joined = await join(url, tmp_path, seat=1, name="Zed")
    assert joined.seat == 1
    summary = await shared_sqlite.api.summary(url.rsplit("/", 1)[1])
    assert summary["seats"][1]["name"] == "Zed"
    assert "held seat 0" in joined.said and "seat 1 is taken" in joined.said


@pytest.mark.asyncio
async def test_a_name_the_held_seat_cannot_take_is_said_not_silently_dropped(
        shared_sqlite: ServerProcess, tmp_path: Path) -> None:
    url = await held_at_seat_0(shared_sqlite, tmp_path)
    joined = await join(url, tmp_path, name="Zed")
    assert joined.seat == 0
    assert "--name Zed is not used" in joined.said and "as Ann" in joined.said
    app = RemoteApp(joined)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: joined.said in screen.log_lines, "the line in the log")
        log = " ".join(line.text.strip() for line in screen.query_one("#log", RichLog).lines)
        assert "--name Zed is not used" in log
    same = await join(url, tmp_path, name="Ann")  # the name it has: nothing to say
    assert same.seat == 0 and same.said == ""


def run_without_a_terminal(*argv: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home)}
    env.pop("RUMMY500_DATA_DIR", None)
    return subprocess.run([sys.executable, "-m", "rummy500.cli", "play", *argv],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                          timeout=120, check=False)


@pytest.mark.parametrize("argv", [(), ("--join", "http://127.0.0.1:9/t/abc")],
                         ids=["local", "join"])
def test_play_without_a_terminal_refuses_to_start(tmp_path: Path, argv: tuple[str, ...]) -> None:
    saves = tmp_path / "saves"
    done = run_without_a_terminal(*argv, "--save-dir", str(saves), home=tmp_path)
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs a terminal" in lines[0], done.stderr
    assert done.stdout == ""
    assert not saves.exists() or not any(saves.iterdir())  # nothing saved, no seat taken
