"""The container and the compose files (Dockerfile, deploy/) and docs/deploy.md, checked
as far as a machine without Docker allows.

No Docker daemon runs on the project's machines and ``docker compose`` is not installed
(``docker compose config`` cannot be relied on), so the compose files are read with
PyYAML, their ``${...}`` filled in as Compose would from a sample ``.env``, and every
``rummy500 serve`` in them is parsed by the server's own settings code. The image's start
command (its CMD and ENV) is run as written, with only its address, port and database
moved to this machine, and its HEALTHCHECK is run against it.

``python tests/test_deploy.py`` prints the settings tables of docs/deploy.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # no types-PyYAML in [dev]

from rummy500.server.process import ServerProcess, start_command
from rummy500.server.settings import ServerSettings, add_arguments, env_name, from_arguments
from serverkit import Servers

REPO = Path(__file__).resolve().parents[1]
DOCKERFILE = REPO / "Dockerfile"
DEPLOY = REPO / "deploy"
DOCS = REPO / "docs" / "deploy.md"
SAMPLE_ENV = {"DOMAIN": "games.example.org", "POSTGRES_PASSWORD": "0123456789abcdef"}
"""What the host writes in deploy/.env."""


# -- reading the files -----------------------------------------------------------------------


def dockerfile_instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined: (KEYWORD, the rest)."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for line in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = (pending + stripped).strip()
        pending = ""
        keyword, _, rest = whole.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def instruction(keyword: str) -> str:
    """The last instruction of this kind (as Docker takes it), which must exist."""
    found = [rest for key, rest in dockerfile_instructions() if key == keyword]
    assert found, f"the Dockerfile has no {keyword}"
    return found[-1]


def exec_form(text: str) -> list[str]:
    command = json.loads(text)
    assert isinstance(command, list) and all(isinstance(part, str) for part in command), text
    return command


def image_command() -> list[str]:
    return exec_form(instruction("CMD"))


def image_healthcheck() -> list[str]:
    options, _, command = instruction("HEALTHCHECK").partition("CMD ")
    assert all(option.startswith("--") for option in options.split()), options
    return exec_form(command)


def image_environment() -> dict[str, str]:
    environment: dict[str, str] = {}
    for key, rest in dockerfile_instructions():
        if key == "ENV":
            for pair in shlex.split(rest):
                name, equals, value = pair.partition("=")
                assert equals, f"ENV {rest}: write NAME=VALUE"
                environment[name] = value
    return environment


_VARIABLE = re.compile(r"\$\{(\w+)(?::([?-])([^}]*))?\}")


def interpolate(value: Any, env: Mapping[str, str]) -> Any:
    """``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` filled in as Compose does."""
    if isinstance(value, str):
        def fill(match: re.Match[str]) -> str:
            name, kind, rest = match.groups()
            if env.get(name):
                return env[name]
            assert kind != "?", f"${{{name}}} is required: {rest}"
            return rest if kind == "-" else ""

        return _VARIABLE.sub(fill, value)
    if isinstance(value, list):
        return [interpolate(item, env) for item in value]
    if isinstance(value, dict):
        return {key: interpolate(item, env) for key, item in value.items()}
    return value


def compose(name: str, env: Mapping[str, str] = SAMPLE_ENV) -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, dict) and isinstance(loaded.get("services"), dict)
    filled: dict[str, Any] = interpolate(loaded, env)
    return filled


def environment_of(service: Mapping[str, Any]) -> dict[str, str]:
    given = service.get("environment", {})
    if isinstance(given, list):
        return dict(entry.split("=", 1) for entry in given)
    return {str(key): "" if value is None else str(value) for key, value in given.items()}


def serve_services(spec: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The services built from the Dockerfile: every one of them runs ``rummy500 serve``."""
    return {name: service for name, service in spec["services"].items() if "build" in service}


def settings_of(service: Mapping[str, Any]) -> ServerSettings:
    """The settings ``rummy500 serve`` starts with in this service's container."""
    command = service.get("command", image_command())
    assert command[:2] == ["rummy500", "serve"], command
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(command[2:])
    return from_arguments(args, environ={**image_environment(), **environment_of(service)})


def setting_flag(spec: dataclasses.Field[Any]) -> str:
    return str(spec.metadata.get("flag") or spec.name.replace("_", "-"))


SETTING_VARIABLES = {env_name(setting_flag(spec)) for spec in dataclasses.fields(ServerSettings)}


# -- the image -------------------------------------------------------------------------------


def test_the_image_is_slim_python_run_by_a_user_with_a_volume_and_a_health_check() -> None:
    instructions = dockerfile_instructions()
    assert instruction("FROM") == "python:3.11-slim"
    assert any(key == "RUN" and "pip install" in rest and "[web]" in rest
               for key, rest in instructions)
    user = instruction("USER").split(":")[0]
    assert user not in ("root", "0"), "the server must not run as root"
    assert exec_form(instruction("VOLUME")) == ["/data"]
    command = image_command()
    assert command[:2] == ["rummy500", "serve"]
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert command[command.index("--database") + 1].startswith("sqlite:////data/")
    assert instruction("EXPOSE") == command[command.index("--port") + 1]
    health = image_healthcheck()
    assert health[:2] == ["python", "-c"] and "/healthz" in health[2]
    assert instruction("STOPSIGNAL") == "SIGTERM"


def test_the_build_context_holds_what_the_image_copies_and_nothing_local() -> None:
    ignored = {line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".git", ".venv", "**/__pycache__", ".mypy_cache", ".pytest_cache"} <= ignored
    copied = [shlex.split(rest)[:-1] for key, rest in dockerfile_instructions()
              if key == "COPY" and not rest.startswith("--from")]
    for source in (source for sources in copied for source in sources):
        assert (REPO / source).exists(), source
        assert source.rstrip("/") not in ignored, f"{source} is kept out of the build context"


def test_every_rummy500_variable_names_a_setting() -> None:
    used = dict(image_environment())
    for name in ("compose.sqlite.yaml", "compose.postgres.yaml"):
        for service in compose(name)["services"].values():
            used.update(environment_of(service))
    ours = {name for name in used if name.startswith("RUMMY500_")}
    assert ours, "the settings are given as RUMMY500_ variables"
    assert ours <= SETTING_VARIABLES, f"not settings: {sorted(ours - SETTING_VARIABLES)}"


def local_command(command: list[str], database: str) -> list[str]:
    """The image's CMD on this machine: this interpreter, loopback, a free port, a scratch
    database instead of the volume's."""
    assert command[0] == "rummy500"
    local = [sys.executable, "-m", "rummy500", *command[1:]]
    for flag, value in (("--host", "127.0.0.1"), ("--port", "0"), ("--database", database)):
        local[local.index(flag) + 1] = value
    return local


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def run_healthcheck(server: ServerProcess, env: Mapping[str, str] | None = None) -> int:
    """The HEALTHCHECK as Docker runs it in the container, aimed at ``server``'s port."""
    python, *arguments = image_healthcheck()
    assert python == "python"
    port = server.base.rsplit(":", 1)[1]
    assert arguments[1].count("127.0.0.1:8500") == 1
    arguments[1] = arguments[1].replace("127.0.0.1:8500", f"127.0.0.1:{port}")
    clean = {key: value for key, value in os.environ.items() if not key.startswith("RUMMY500_")}
    result = subprocess.run([sys.executable, *arguments], env={**clean, **(env or {})},
                            capture_output=True, text=True, timeout=30)
    return result.returncode


def test_the_image_start_command_migrates_serves_and_passes_its_health_check(
        servers: Servers, tmp_path: Path) -> None:
    database = tmp_path / "data" / "tables.db"
    database.parent.mkdir()
    command = local_command(image_command(), f"sqlite:///{database}")
    # The image's ENV, and every log line (the default, warning, would write none).
    server = start_command(command, f"sqlite:///{database}", tmp_path / "logs",
                           env={**image_environment(), "RUMMY500_LOG_LEVEL": "info"})
    servers.started.append(server)
    try:
        assert server.base.startswith("http://127.0.0.1:")
        # The schema was made at start, before the server said it listens.
        with closing(sqlite3.connect(database)) as db:
            version = db.execute("SELECT version_num FROM alembic_version").fetchall()
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        assert len(version) == 1 and "tables" in tables
        assert status_of(f"{server.base}/healthz") == 200
        assert status_of(f"{server.base}/readyz") == 200
        assert run_healthcheck(server) == 0
        assert server.stop() == 0
        assert run_healthcheck(server) != 0  # nothing listens: unhealthy
    finally:
        server.kill()
    # The image's ENV asks for JSON logs: one JSON object a line, the migrations among them.
    logged = [json.loads(line) for line in server.errors().splitlines()]
    assert any(entry["message"].startswith("Running upgrade") for entry in logged)
    assert any(entry.get("path") == "/healthz" and entry.get("status") == 200
               for entry in logged)


def test_the_health_check_speaks_https_when_the_container_has_a_certificate(
        servers: Servers, tmp_path: Path) -> None:
    from test_server_tls import make_certificate

    certificate = make_certificate(tmp_path / "tls")
    database = f"sqlite:///{tmp_path / 'tables.db'}"
    command = local_command(image_command(), database)
    variables = {"RUMMY500_CERTFILE": str(certificate.certfile),
                 "RUMMY500_KEYFILE": str(certificate.keyfile)}
    server = start_command(command, database, tmp_path / "logs",
                           env={**image_environment(), **variables})
    servers.started.append(server)
    try:
        assert server.base.startswith("https://127.0.0.1:")
        assert run_healthcheck(server, variables) == 0
        assert run_healthcheck(server) != 0  # plain HTTP to a TLS port
    finally:
        server.stop()


# -- the compose files -----------------------------------------------------------------------


def check_built_from_the_dockerfile(service: Mapping[str, Any]) -> None:
    build = service["build"]
    context = (DEPLOY / build["context"]).resolve()
    assert (context / build.get("dockerfile", "Dockerfile")).resolve() == DOCKERFILE
    assert service["healthcheck"]["test"] == ["CMD", *image_healthcheck()]
    assert service["restart"] in ("unless-stopped", "always")
    grace = service["stop_grace_period"]
    assert grace.endswith("s") and int(grace[:-1]) >= 20  # serve's stop takes up to 15 s


def test_the_sqlite_shape_is_one_container_with_its_tables_on_a_volume() -> None:
    spec = compose("compose.sqlite.yaml")
    services = serve_services(spec)
    assert len(services) == len(spec["services"]) == 1
    (service,) = services.values()
    check_built_from_the_dockerfile(service)
    settings = settings_of(service)
    assert settings.database is not None and settings.database.startswith("sqlite:////data/")
    volume, _, target = next(v for v in service["volumes"] if not v.startswith(("/", "."))
                             ).partition(":")
    assert target == "/data" and volume in spec["volumes"]
    published = [str(port).rsplit(":", 1) for port in service["ports"]]
    assert [inside for _, inside in published] == [str(settings.port)]
    assert settings.allowed_hosts == (SAMPLE_ENV["DOMAIN"],)
    assert settings.log_format == "json"
    assert not settings.allow_seeds
    without_domain = compose("compose.sqlite.yaml", {})["services"]
    assert settings_of(next(iter(without_domain.values()))).allowed_hosts == ("localhost",)


def caddy_site() -> tuple[str, list[str], dict[str, list[str]]]:
    """deploy/Caddyfile's site address, its reverse_proxy upstreams and their options."""
    text = "\n".join(line.split("#", 1)[0] for line in
                     (DEPLOY / "Caddyfile").read_text(encoding="utf-8").splitlines())
    site = text.strip().split()[0]
    proxy = re.search(r"reverse_proxy\s+([^{\n]*)\{(.*?)\n\t\}", text, re.DOTALL)
    assert proxy is not None, "the Caddyfile has no reverse_proxy block"
    options: dict[str, list[str]] = {}
    for line in proxy.group(2).splitlines():
        words = line.split()
        if words and words[0] != "}":
            options[words[0]] = words[1:]
    headers = re.search(r"health_headers\s*\{\s*\n(.*?)\n\s*\}", proxy.group(2), re.DOTALL)
    assert headers is not None
    options["health_headers"] = headers.group(1).split()
    return site, proxy.group(1).split(), options


def test_the_postgres_shape_runs_two_processes_on_one_database_behind_caddy() -> None:
    spec = compose("compose.postgres.yaml")
    services = spec["services"]
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    database = environment_of(postgres)

    serves = serve_services(spec)
    assert len(serves) == 2
    caddy = services["caddy"]
    caddy_address = caddy["networks"]["internal"]["ipv4_address"]
    every = [settings_of(service) for service in serves.values()]
    for service, settings in zip(serves.values(), every, strict=True):
        check_built_from_the_dockerfile(service)
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert settings.database == (
            f"postgresql://{database['POSTGRES_USER']}:{SAMPLE_ENV['POSTGRES_PASSWORD']}"
            f"@postgres:5432/{database['POSTGRES_DB']}")
        assert settings.host == "0.0.0.0"
        assert settings.allowed_hosts == (SAMPLE_ENV["DOMAIN"],)
        # Only the proxy is believed about the client's address and scheme.
        assert settings.forwarded_allow_ips == caddy_address
        assert not settings.allow_seeds
        published = [str(port) for port in service.get("ports", [])]
        assert all(port.startswith("127.0.0.1:") for port in published), published
    assert len({settings.database for settings in every}) == 1

    site, upstreams, options = caddy_site()
    assert sorted(upstreams) == sorted(f"{name}:{settings.port}"
                                       for name, settings in zip(serves, every, strict=True))
    assert site == "{$DOMAIN}" and environment_of(caddy)["DOMAIN"] == SAMPLE_ENV["DOMAIN"]
    assert options["health_uri"] == ["/readyz"]
    assert options["health_headers"] == ["Host", "{$DOMAIN}"]  # passes --allowed-host
    assert options["lb_policy"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    assert {"80:80", "443:443"} <= {str(port) for port in caddy["ports"]}
    # Caddy's fixed address is in the network, outside the range handed out to the others.
    network = spec["networks"]["internal"]["ipam"]["config"][0]
    address = ipaddress.ip_address(caddy_address)
    assert address in ipaddress.ip_network(network["subnet"])
    assert address not in ipaddress.ip_network(network["ip_range"])
    assert set(spec["volumes"]) >= {"postgres", "caddy_data"}


def test_nginx_passes_websockets_and_the_client_on() -> None:
    text = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    directives = {" ".join(line.split()).rstrip(";")
                  for line in text.splitlines() if not line.strip().startswith("#")}
    for expected in ("proxy_http_version 1.1",
                     "proxy_set_header Upgrade $http_upgrade",
                     "proxy_set_header Connection $connection_upgrade",
                     "proxy_set_header Host $http_host",
                     "proxy_set_header X-Forwarded-For $remote_addr",
                     "proxy_set_header X-Forwarded-Proto $scheme",
                     "proxy_pass http://rummy500"):
        assert expected in directives, expected
    timeout = re.search(r"proxy_read_timeout\s+(\d+)s;", text)
    assert timeout is not None and int(timeout.group(1)) >= 300
    assert re.search(r"map \$http_upgrade \$connection_upgrade \{\s*default upgrade;", text)


# -- docs/deploy.md --------------------------------------------------------------------------


GROUP_TITLES = {"listening": "Listening", "tables": "Tables and computer players",
                "limits": "Limits (per address, per server)"}


def shown_default(value: Any) -> str:
    if isinstance(value, bool):
        return "off"
    if value in (None, "", ()):
        return "none"
    return str(value)


def setting_row(spec: dataclasses.Field[Any]) -> str:
    flag = setting_flag(spec)
    meaning = str(spec.metadata["help"]).replace("|", "\\|")
    return (f"| `--{flag}` | `{env_name(flag)}` | `{shown_default(spec.default)}` "
            f"| {meaning} |")


def settings_tables() -> str:
    """The tables of every setting, as docs/deploy.md has them."""
    parts: list[str] = []
    for group, title in GROUP_TITLES.items():
        rows = [setting_row(spec) for spec in dataclasses.fields(ServerSettings)
                if spec.metadata["group"] == group]
        parts.append(f"#### {title}\n\n| flag | environment variable | default | meaning |\n"
                     "| --- | --- | --- | --- |\n" + "\n".join(rows))
    return "\n\n".join(parts)


def test_the_deploy_guide_lists_every_setting_as_settings_py_has_it() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert settings_tables() in text, (
        "docs/deploy.md's settings tables differ from settings.py: replace them by the "
        "output of `python tests/test_deploy.py`")
    for spec in dataclasses.fields(ServerSettings):
        assert f"`--{setting_flag(spec)}`" in text
    # Every file the guide tells a reader to use exists.
    for path in re.findall(r"`((?:deploy|tests)/[\w./-]+|Dockerfile)`", text):
        assert (REPO / path).exists(), path


@pytest.mark.parametrize("name", ["compose.sqlite.yaml", "compose.postgres.yaml"])
def test_the_compose_files_name_the_docs_and_the_test_that_checks_them(name: str) -> None:
    text = (DEPLOY / name).read_text(encoding="utf-8")
    assert "tests/test_deploy.py" in text and "No Docker daemon" in text


if __name__ == "__main__":
    print(settings_tables())
