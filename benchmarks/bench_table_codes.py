"""The sizes of a table's connection codes (issue 34): bytes, characters and QR version of an
offer with 1-4 host candidates (mDNS names, IPv4, IPv6) and its offer number, in the code's base
36 and, to compare, in other texts a QR code can hold, and in base 36 without the offer number
(the codes of a page before the numbers).

Run: ``.venv/bin/python benchmarks/bench_table_codes.py`` (prints a Markdown table).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import uuid
import zlib
from pathlib import Path

import segno

from kniffel.browser import table

#: The real Chromium offer the tests use (two mDNS candidates); the candidates below replace its.
SDP = json.loads((Path(__file__).parents[1] / "tests" / "data" / "table_sdp.json").read_text(
    encoding="utf-8"))["chromium_mdns_offer"]
_BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_BASE43 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ$*+-./:"
#: The offer number the codes carry (any byte takes the same room).
OFFER = 255


def _mdns(i: int) -> str:
    return f"{uuid.UUID(int=0x1234_5678_9ABC_4DEF_8123_456789ABCDEF + i)}.local"


SETS = {
    "1 mDNS": [_mdns(0)],
    "2 mDNS (Chromium's usual)": [_mdns(0), _mdns(1)],
    "3 mDNS": [_mdns(i) for i in range(3)],
    "4 mDNS": [_mdns(i) for i in range(4)],
    "1 IPv4": ["192.168.178.23"],
    "IPv4 + IPv6": ["192.168.178.23", "2a02:8108:1dc0:5e00:1c2e:9aff:fe3b:4d21"],
    "2 IPv4 + 2 IPv6": ["192.168.178.23", "10.0.0.7", "2a02:8108:1dc0:5e00:1c2e:9aff:fe3b:4d21",
                        "fd00::1c2e:9aff:fe3b:4d21"],
}


def _base45(data: bytes) -> str:
    out = []
    for i in range(0, len(data), 2):
        chunk = data[i:i + 2]
        n = int.from_bytes(chunk, "big")
        digits = 3 if len(chunk) == 2 else 2
        out.append("".join(_BASE45[(n // 45**k) % 45] for k in range(digits)))
    return "".join(out)


def _bigint(data: bytes, alphabet: str) -> str:
    value = int.from_bytes(data, "big")
    out = []
    while value:
        value, d = divmod(value, len(alphabet))
        out.append(alphabet[d])
    return "".join(reversed(out))


def _version(text: str) -> int:
    version = segno.make(text, error="l", micro=False).version
    assert isinstance(version, int)
    return version


def main() -> None:
    """Print the table."""
    base = table.parse_sdp(SDP, "offer", "K7Q2XM", OFFER)
    print("| candidates | bytes | base 36 (chosen): chars / QR | base 43 | base 45 | base 32 "
          "| base64url (byte mode) | base 36 without the number |")
    print("|---|---|---|---|---|---|---|---|")
    for name, addresses in SETS.items():
        d = dataclasses.replace(base, candidates=tuple(
            table.Candidate(a, 50000 + i) for i, a in enumerate(addresses)))
        raw = table.pack(d)
        crc = (zlib.crc32(raw) & 0xFFFF).to_bytes(2, "big")
        code = table.encode(raw)
        assert table.description_of(code) == d
        texts = [code, _bigint(raw + crc, _BASE43), _base45(raw + crc),
                 base64.b32encode(raw + crc).decode().rstrip("="),
                 base64.urlsafe_b64encode(raw + crc).decode().rstrip("="),
                 table.encode(table.pack(dataclasses.replace(d, offer=None)))]
        cells = [f"{len(t)} / v{_version(t)}" for t in texts]
        print(f"| {name} | {len(raw)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
