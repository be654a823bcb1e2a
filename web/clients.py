"""Who a request comes from: the address its limits count against (`web.limits`).

The peer's address, unless the peer is a trusted proxy (`WEB_TRUSTED_PROXIES`, none by
default): then the right-most address of X-Forwarded-For that no trusted proxy added, read
across every header line (a proxy appends its own to the last one). Anyone can write the
header; only the addresses the admin's proxies added are believed, so a client can't choose
what it is counted as. An IPv6 client counts by its /64, the block one host is usually given."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
HOST_BLOCK = 64  # an IPv6 client's prefix: one host or home is given a /64


def proxy_networks(text: str) -> tuple[IPNetwork, ...]:
    """`WEB_TRUSTED_PROXIES`: addresses or CIDR blocks, separated by commas or spaces. A
    ValueError says which entry is neither."""
    networks = []
    for entry in text.replace(",", " ").split():
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an address or a block like 10.0.0.0/8") from None
    return tuple(networks)


def ip_of(text: str) -> IPAddress | None:
    """An address as a header or a socket gives it: `1.2.3.4`, `1.2.3.4:5678`, `::1`,
    `[::1]:5678`; None for anything else."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped  # ::ffff:1.2.3.4 is 1.2.3.4
    return ip


def trusted(ip: IPAddress | None, proxies: Sequence[IPNetwork]) -> bool:
    return ip is not None and any(ip in network for network in proxies)


def client_ip(peer: str, forwarded: Iterable[str], proxies: Sequence[IPNetwork]) -> str:
    """The client's address: `peer` unless it is a trusted proxy; then the right-most address
    in the X-Forwarded-For lines (`forwarded`, in the order received) that no trusted proxy
    added. An entry that isn't an address where one is needed: the last trusted hop's."""
    ip = ip_of(peer)
    if not trusted(ip, proxies):
        return peer if ip is None else str(ip)
    hops = [hop for line in forwarded for hop in line.split(",")]
    for hop in reversed(hops):
        found = ip_of(hop)
        if found is None:
            break
        ip = found
        if not trusted(found, proxies):
            break
    return str(ip)


def counted_as(address: str) -> str:
    """What limits count an address as: itself, an IPv6 one by its /64."""
    ip = ip_of(address)
    if isinstance(ip, ipaddress.IPv6Address) and not ip.is_loopback:
        return str(ipaddress.IPv6Network((ip, HOST_BLOCK), strict=False))
    return address if ip is None else str(ip)
