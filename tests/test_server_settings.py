"""The server's settings read as an operator gives them (flag, environment variable,
default), and the database file kept private."""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

import pytest

from rummy500.server.settings import (
    ServerSettings,
    SettingsError,
    add_arguments,
    env_name,
    from_arguments,
)
from serverkit import Servers


def parse(*flags: str, environ: dict[str, str] | None = None) -> ServerSettings:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return from_arguments(parser.parse_args(list(flags)), environ or {})


def test_a_flag_wins_over_its_variable_which_wins_over_the_default() -> None:
    assert parse().tables_per_hour == ServerSettings().tables_per_hour
    assert parse(environ={env_name("tables-per-hour"): "7"}).tables_per_hour == 7
    assert parse("--tables-per-hour", "9",
                 environ={env_name("tables-per-hour"): "7"}).tables_per_hour == 9
    hosts = parse(environ={"RUMMY500_ALLOWED_HOST": "a.example, b.example"}).allowed_hosts
    assert hosts == ("a.example", "b.example")
    assert parse("--allowed-host", "c.example").allowed_hosts == ("c.example",)
    assert parse(environ={"RUMMY500_ALLOW_SEEDS": "yes"}).allow_seeds is True


@pytest.mark.parametrize(("flags", "environ", "words"), [
    (("--certfile", "x.pem"), {}, "--certfile and --keyfile go together"),
    ((), {"RUMMY500_MAX_CONNECTIONS": "many"}, "RUMMY500_MAX_CONNECTIONS='many'"),
    (("--bot-workers", "0"), {}, "--bot-workers must be above 0"),
    (("--log-format", "xml"), {}, "--log-format is text or json"),
    ((), {"RUMMY500_ALLOW_SEEDS": "perhaps"}, "RUMMY500_ALLOW_SEEDS='perhaps'"),
])
def test_a_setting_out_of_range_is_named(flags: tuple[str, ...], environ: dict[str, str],
                                         words: str) -> None:
    with pytest.raises(SettingsError) as raised:
        parse(*flags, environ=environ)
    assert words in str(raised.value)


def test_host_names_pass_only_when_allowed() -> None:
    settings = ServerSettings(allowed_hosts=("play.example.org",))
    for host in ("127.0.0.1:8500", "[::1]:8500", "localhost", "192.0.2.4", "a.localhost:1",
                 "play.example.org", "PLAY.example.org.:443"):
        assert settings.host_allowed(host), host
    bad: tuple[str | None, ...] = ("rebind.example", "play.example.org.evil.example", "", None,
                                   "[::1", "localhost:http", "example.org:80:80")
    for refused in bad:
        assert not settings.host_allowed(refused), refused


@pytest.mark.asyncio
async def test_the_sqlite_file_is_readable_by_its_owner_only(servers: Servers,
                                                            tmp_path: Path) -> None:
    database = tmp_path / "data" / "tables.db"
    old = os.umask(0o022)
    try:
        server = servers.start(f"sqlite:///{database}")
        await server.api.create_table({"players": 2})
        server.stop()
        for path in database.parent.iterdir():
            assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
        database.chmod(0o644)
        server = servers.start(f"sqlite:///{database}")
        await server.api.create_table({"players": 2})
        assert stat.S_IMODE(database.stat().st_mode) == 0o600
        server.stop()
    finally:
        os.umask(old)
