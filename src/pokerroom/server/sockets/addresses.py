"""A client's address as one key (S-RATE-1): every spelling of an address names one client.

The per-address limits (log-ins, sign-ups, WebSockets, a table's inbox) and the lists of
addresses an operator names key on ``canonical_address``: an IPv4 address reached over IPv6
(``::ffff:192.0.2.1``, what a dual-stack listener reports) is the IPv4 address; IPv6 is in its
compressed lower-case form, without brackets or a zone (``%eth0``); a dotted IPv4 address with
leading zeros (``192.000.002.001``) is read in decimal. Anything that is not an address (a
test client's name) is kept, trimmed and in lower case."""

from __future__ import annotations

import ipaddress

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def ip_of(host: str) -> IPAddress | None:
    """The address ``host`` names, IPv4 for an IPv4-mapped one; None if it names none."""
    text = host.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    text = text.partition("%")[0]  # the zone: which link, not which host
    try:
        ip: IPAddress = ipaddress.ip_address(text)
    except ValueError:
        parts = text.split(".")
        # ipaddress refuses leading zeros (ambiguous: octal to some parsers); as a key, the
        # decimal reading is the one a person means.
        if len(parts) != 4 or not all(p.isdecimal() and p.isascii() for p in parts):
            return None
        if any(int(p) > 255 for p in parts):
            return None
        ip = ipaddress.IPv4Address(".".join(str(int(p)) for p in parts))
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def canonical_address(host: str) -> str:
    """The one key of every spelling of ``host``."""
    ip = ip_of(host)
    return host.strip().lower() if ip is None else str(ip)
