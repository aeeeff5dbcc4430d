"""Every setting of ``rummy500 serve`` in one place: its flag, its environment variable,
its default (sized for a small VPS) and what it means.

A setting is read from its flag, else from its environment variable
(``RUMMY500_`` and the flag's name in capitals, ``-`` as ``_``), else its default.
``rummy500 serve --help`` lists them all; docs/deploy.md explains them.

>>> s = ServerSettings()
>>> s.max_connections, s.allow_seeds
(1000, False)
>>> env_name("tables-per-hour")
'RUMMY500_TABLES_PER_HOUR'
"""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ENV_PREFIX = "RUMMY500_"
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def env_name(flag: str) -> str:
    return ENV_PREFIX + flag.upper().replace("-", "_")


def _setting(default: Any, help_text: str, *, flag: str | None = None,
             metavar: str | None = None, group: str = "limits") -> Any:
    return field(default=default, metadata={"help": help_text, "flag": flag,
                                            "metavar": metavar, "group": group})


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """The server's settings; every field is a flag (see :func:`add_arguments`)."""

    # -- where and how it listens ---------------------------------------------------------
    host: str = _setting("127.0.0.1", "the address to listen on (0.0.0.0 for all)",
                         group="listening")
    port: int = _setting(8500, "the port to listen on (0 picks a free one)", group="listening")
    database: str | None = _setting(
        None, "sqlite:///PATH or postgresql://USER@HOST/DB (default: a SQLite file in the "
              "user's data folder)", metavar="URL", group="listening")
    certfile: str | None = _setting(None, "serve HTTPS and WSS with this certificate chain "
                                          "(PEM); needs --keyfile", metavar="PATH",
                                    group="listening")
    keyfile: str | None = _setting(None, "the private key of --certfile (PEM)", metavar="PATH",
                                   group="listening")
    forwarded_allow_ips: str = _setting(
        "", "behind a reverse proxy: the proxy addresses or networks (comma-separated) whose "
            "X-Forwarded-For and X-Forwarded-Proto are believed, and whose own connections "
            "the limit per address does not count (* believes anyone: only where nothing but "
            "the proxy can reach the port); empty: none",
        metavar="IPS", group="listening")
    allowed_hosts: tuple[str, ...] = _setting(
        (), "a host name the server answers to (repeat for several; an IP address and "
            "localhost always pass); any other Host header is refused (DNS rebinding)",
        flag="allowed-host", metavar="NAME", group="listening")
    metrics_host: str = _setting("127.0.0.1", "the address GET /metrics is served on, apart from "
                                              "the tables (0.0.0.0 only on a private network)",
                                 metavar="ADDRESS", group="listening")
    metrics_port: int = _setting(0, "the port of GET /metrics (0 picks a free one, printed at "
                                    "start); never the tables' port", group="listening")
    log_level: str = _setting("warning", "how much to log: critical, error, warning, info or "
                                         "debug", group="listening")
    log_format: str = _setting("text", "text, or json: one JSON object a line, with the "
                                       "request or table id", group="listening")
    pace: float = _setting(0.8, "seconds computer players wait before each move, four times "
                                "as long before their first move of a deal",
                           metavar="SECONDS", group="tables")
    allow_seeds: bool = _setting(False, "let a table's creator choose its shuffle (tests only: "
                                        "whoever knows the seed knows every hand)",
                                 group="tables")

    # -- tables -----------------------------------------------------------------------------
    tables_per_hour: int = _setting(30, "tables one address may create in an hour")
    open_tables_per_address: int = _setting(
        20, "unfinished tables one address may have made at a time")
    bot_workers: int = _setting(1, "processes that think for computer players (and hints), "
                                   "at low priority: people's moves never wait for them")
    retention_days: float = _setting(30.0, "days a finished table is kept (its replay and "
                                           "record), then deleted", metavar="DAYS")
    abandoned_days: float = _setting(7.0, "days an unfinished table may go without a move "
                                          "before it is deleted", metavar="DAYS")
    again_hold_s: float = _setting(600.0, "seconds each seat of a Play again table is kept "
                                          "for the person who held it", metavar="SECONDS")
    hints_per_minute: int = _setting(30, "hints one address may ask for in a minute")
    reviews_per_hour: int = _setting(6, "game reviews one address may ask for in an hour "
                                        "(it runs one at a time)")
    review_worlds: int = _setting(32, "sampled deals a game review judges each decision over "
                                      "(fewer: quicker, rougher)", metavar="DEALS")
    chat_lines_per_seat: int = _setting(
        6, "chat lines (reactions too) one seat may say in 10 seconds, from all its "
           "connections together")
    chat_lines_per_address: int = _setting(
        20, "chat lines one address may say in 10 seconds, from all its seats")

    # -- connections ------------------------------------------------------------------------
    max_connections: int = _setting(1000, "open connections at most, HTTP and WebSocket")
    connections_per_address: int = _setting(40, "open connections one address may hold")
    header_timeout_s: float = _setting(10.0, "seconds a client has to send a request's "
                                             "headers, and again its body", metavar="SECONDS")
    hello_timeout_s: float = _setting(10.0, "seconds a WebSocket has to say hello",
                                      metavar="SECONDS")
    frames_per_second: int = _setting(
        20, "frames one WebSocket may send in a second; more are answered rate_limited, and "
            "a connection that goes on is closed")

    # -- replays ----------------------------------------------------------------------------
    replay_max_bytes: int = _setting(1024 * 1024, "the largest record POST /api/replay takes")
    replay_max_deals: int = _setting(60, "the most deals of a record POST /api/replay takes")
    replay_timeout_s: float = _setting(10.0, "seconds a replay may take", metavar="SECONDS")
    replays_per_minute: int = _setting(20, "replays one address may ask for in a minute")

    def replace(self, **changes: Any) -> ServerSettings:
        return dataclasses.replace(self, **changes)

    def host_allowed(self, host_header: str | None) -> bool:
        """Whether a request's Host header names this server: an IP address, a loopback
        name, or one of ``allowed_hosts``. A name an attacker controls (DNS rebinding)
        is none of these."""
        if not host_header:
            return False
        host = _host_part(host_header)
        if host is None:
            return False
        if host in LOOPBACK_HOSTS or host.endswith(".localhost"):
            return True
        try:
            ipaddress.ip_address(host)
            return True
        except ValueError:
            pass
        return host in {name.lower().rstrip(".") for name in self.allowed_hosts}


def _host_part(header: str) -> str | None:
    """``example.org:8500`` → ``example.org``; ``[::1]:8500`` → ``::1``; None if malformed."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        if end < 0:
            return None
        rest = header[end + 1:]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return None
        return header[1:end]
    name, _, port = header.partition(":")
    if port and not port.isdigit():
        return None
    return name.rstrip(".") or None


def _fields() -> list[dataclasses.Field[Any]]:
    return list(dataclasses.fields(ServerSettings))


def _flag(spec: dataclasses.Field[Any]) -> str:
    return str(spec.metadata.get("flag") or spec.name.replace("_", "-"))


def _parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise SettingsError(f"{text!r} is not true or false")


def _kind(spec: dataclasses.Field[Any]) -> type:
    default = spec.default
    if isinstance(default, bool):
        return bool
    if isinstance(default, int):
        return int
    if isinstance(default, float):
        return float
    if isinstance(default, tuple):
        return tuple
    return str


class SettingsError(ValueError):
    """A setting that cannot be used, in one line."""


def _from_text(spec: dataclasses.Field[Any], text: str) -> Any:
    kind = _kind(spec)
    try:
        if kind is bool:
            return _parse_bool(text)
        if kind is tuple:
            return tuple(part.strip() for part in text.split(",") if part.strip())
        return kind(text)
    except ValueError:
        raise SettingsError(f"{env_name(_flag(spec))}={text!r}: not a {kind.__name__}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """A flag for every setting, grouped, each help line with its variable and default."""
    groups = {name: parser.add_argument_group(title) for name, title in (
        ("listening", "listening"), ("tables", "tables and computer players"),
        ("limits", "limits (per address, per server)"))}
    for spec in _fields():
        flag = _flag(spec)
        kind = _kind(spec)
        shown = spec.default if spec.default not in (None, "", ()) else "none"
        help_text = f"{spec.metadata['help']} [{env_name(flag)}; default {shown}]"
        group = groups[spec.metadata["group"]]
        if kind is bool:
            group.add_argument(f"--{flag}", dest=spec.name, action="store_true",
                               default=None, help=help_text)
        elif kind is tuple:
            group.add_argument(f"--{flag}", dest=spec.name, action="append", default=None,
                               metavar=spec.metadata["metavar"], help=help_text)
        else:
            group.add_argument(f"--{flag}", dest=spec.name, type=kind, default=None,
                               metavar=spec.metadata["metavar"], help=help_text)
    parser.add_argument("--db", dest="database", metavar="URL", default=None,
                        help=argparse.SUPPRESS)


def from_arguments(args: argparse.Namespace,
                   environ: Mapping[str, str] | None = None) -> ServerSettings:
    """The settings: each flag given, else its environment variable, else its default.
    Raises :class:`SettingsError` for a value out of its range."""
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for spec in _fields():
        given = getattr(args, spec.name, None)
        if given is not None:
            values[spec.name] = tuple(given) if isinstance(given, list) else given
            continue
        text = environ.get(env_name(_flag(spec)))
        if text is not None:
            values[spec.name] = _from_text(spec, text)
    settings = ServerSettings(**values)
    check(settings)
    return settings


def check(settings: ServerSettings) -> None:
    """Every setting within its range, or :class:`SettingsError` naming the first that is not."""
    if not 0 <= settings.port <= 65535:
        raise SettingsError(f"--port must be from 0 to 65535, not {settings.port}")
    if not 0 <= settings.metrics_port <= 65535:
        raise SettingsError(f"--metrics-port must be from 0 to 65535, not {settings.metrics_port}")
    if settings.port and settings.metrics_port == settings.port:
        raise SettingsError("--metrics-port must differ from --port")
    if not 0 <= settings.pace <= 60:
        raise SettingsError("--pace must be from 0 to 60 seconds")
    if (settings.certfile is None) != (settings.keyfile is None):
        raise SettingsError("--certfile and --keyfile go together")
    if settings.log_format not in ("text", "json"):
        raise SettingsError("--log-format is text or json")
    if settings.log_level not in ("critical", "error", "warning", "info", "debug"):
        raise SettingsError("--log-level is critical, error, warning, info or debug")
    positive: Sequence[str] = (
        "tables_per_hour", "open_tables_per_address", "bot_workers", "max_connections",
        "connections_per_address", "header_timeout_s", "hello_timeout_s", "frames_per_second",
        "replay_max_bytes", "replay_max_deals", "replay_timeout_s", "replays_per_minute",
        "hints_per_minute", "reviews_per_hour", "review_worlds", "chat_lines_per_seat",
        "chat_lines_per_address", "retention_days", "abandoned_days")
    for name in positive:
        value = getattr(settings, name)
        if not value > 0:
            raise SettingsError(f"--{name.replace('_', '-')} must be above 0, not {value}")
    if settings.again_hold_s < 0:
        raise SettingsError("--again-hold-s must be 0 or more")
    if settings.bot_workers > 64:
        raise SettingsError("--bot-workers is at most 64")


__all__ = ["ENV_PREFIX", "ServerSettings", "SettingsError", "add_arguments", "check",
           "env_name", "from_arguments"]
