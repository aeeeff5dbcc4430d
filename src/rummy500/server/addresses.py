"""Clients by address, for the limits per address: which address a request comes from
(an IPv6 client is its /64 network, which one person commonly holds whole), and what the
database keeps of the address that made a table (how often each address did something
lately is counted by :mod:`.rate`).

>>> address_key("2001:db8:1:2:3:4:5:6")
'2001:db8:1:2::/64'
>>> address_key("192.0.2.7")
'192.0.2.7'
"""

from __future__ import annotations

import hashlib
import ipaddress

from starlette.types import Scope


def address_key(host: str | None) -> str:
    """The address a limit counts: the client's IPv4 address or IPv6 /64."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


def client_address(scope: Scope) -> str:
    """The address key of an ASGI request or WebSocket (after the proxy headers, when the
    operator trusts a proxy)."""
    client = scope.get("client")
    return address_key(client[0] if client else None)


class TrustedProxies:
    """The peers whose X-Forwarded-For is believed (``--forwarded-allow-ips``): addresses and
    networks, comma-separated, or ``*`` for any peer (as uvicorn reads the same setting).

    >>> proxies = TrustedProxies("10.0.0.5, 172.28.0.0/16")
    >>> ["10.0.0.5" in proxies, "172.28.3.4" in proxies, "10.0.0.6" in proxies]
    [True, True, False]
    >>> "203.0.113.9" in TrustedProxies("*"), "::1" in TrustedProxies("")
    (True, False)
    """

    def __init__(self, spec: str) -> None:
        parts = [part.strip() for part in spec.split(",") if part.strip()]
        self.anyone = "*" in parts
        self.literals: set[str] = set()
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for part in parts:
            try:
                self.networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                self.literals.add(part)

    def __bool__(self) -> bool:
        return self.anyone or bool(self.literals or self.networks)

    def __contains__(self, host: object) -> bool:
        if not isinstance(host, str) or not host:
            return False
        if self.anyone or host in self.literals:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)


def creator_id(address: str) -> str:
    """What the database keeps of the address that made a table: a hash, not the address."""
    return hashlib.sha256(f"rummy500 creator {address}".encode()).hexdigest()[:32]


__all__ = ["TrustedProxies", "address_key", "client_address", "creator_id"]
