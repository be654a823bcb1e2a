"""Who a request counts against: the peer, unless it is a trusted proxy; then the right-most
forwarded address no trusted proxy added, over every X-Forwarded-For line."""

from __future__ import annotations

import pytest

from web.clients import client_ip, counted_as, proxy_networks

PROXIES = proxy_networks("10.0.0.0/8, 192.168.1.7")


def test_an_untrusted_peer_is_itself_whatever_it_forwards() -> None:
    for peer in ("203.0.113.9", "127.0.0.1", "10.1.2.3"):
        assert client_ip(peer, ["198.51.100.1"], ()) == peer  # no proxy trusted by default
    # Private and loopback peers are no longer believed for being private.
    assert client_ip("192.168.1.8", ["198.51.100.1"], PROXIES) == "192.168.1.8"


def test_behind_a_trusted_proxy_the_client_is_the_right_most_address_it_did_not_add() -> None:
    assert client_ip("10.0.0.2", ["198.51.100.1"], PROXIES) == "198.51.100.1"
    # A client's own X-Forwarded-For is kept by the proxy and added to: only the last counts.
    assert client_ip("10.0.0.2", ["6.6.6.6, 198.51.100.1"], PROXIES) == "198.51.100.1"
    # Through two trusted proxies: the first one's address is skipped too.
    assert client_ip("10.0.0.2", ["6.6.6.6, 198.51.100.1, 10.9.9.9"], PROXIES) == "198.51.100.1"
    assert client_ip("192.168.1.7", ["198.51.100.1:5123"], PROXIES) == "198.51.100.1"


def test_every_header_line_is_read_the_last_one_last() -> None:
    """A client sends its own line; the proxy appends its line (or to the last one)."""
    lines = ["6.6.6.6", "198.51.100.1"]
    assert client_ip("10.0.0.2", lines, PROXIES) == "198.51.100.1"
    assert client_ip("10.0.0.2", ["198.51.100.1", "6.6.6.6, 10.0.0.9"], PROXIES) == "6.6.6.6"


def test_what_isnt_an_address_is_not_believed() -> None:
    assert client_ip("10.0.0.2", ["6.6.6.6, unknown"], PROXIES) == "10.0.0.2"
    assert client_ip("10.0.0.2", [], PROXIES) == "10.0.0.2"
    assert client_ip("10.0.0.2", ["10.0.0.3"], PROXIES) == "10.0.0.3"  # only proxies: the first


def test_an_ipv6_client_counts_by_its_block() -> None:
    assert counted_as("2001:db8:1:2:aaaa::1") == counted_as("2001:db8:1:2:ffff::9")
    assert counted_as("2001:db8:1:2::1") != counted_as("2001:db8:1:3::1")
    assert counted_as("::ffff:198.51.100.1") == "198.51.100.1"
    assert counted_as("198.51.100.1") != counted_as("198.51.100.2")


@pytest.mark.parametrize("text", ["10.0.0.0/33", "proxy.example.org", "10.0.0.1;"])
def test_a_trusted_proxy_must_be_an_address_or_a_block(text: str) -> None:
    with pytest.raises(ValueError, match="not an address"):
        proxy_networks(text)
