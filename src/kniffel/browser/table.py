"""One table, every phone: the connection codes that pair two phones over WebRTC with no server.

The phones find each other with no signalling server: the host shows an *offer code*, a guest
scans or pastes it and shows an *answer code*, the host scans or pastes that. A code is a
browser's session description (SDP, non-trickle: every ICE candidate inside) packed down to
what the other browser needs to connect, and :func:`write_sdp` writes a valid SDP from it
again:

- the ICE user fragment and password (6 bits a character, 4 for Firefox's hex digits), the
  DTLS certificate's fingerprint (as bytes, with its hash), the DTLS role (``setup``), the
  media id when it is not ``0``;
- each candidate's address (IPv4, IPv6, an mDNS ``<uuid>.local`` name as 16 bytes, any other
  name as text), port, protocol (UDP/TCP with its TCP type) and type; the foundation and
  priority are written afresh (the candidates keep their order of preference);
- the SCTP port when it is not 5000 and the largest message the phone takes
  (``max-message-size``: a whole game state is larger than the 64 kB the standard assumes
  without it);
- the table's id, so that a guest knows which table it joins;
- the offer's number when the page gives one (one byte; an answer carries the number of the
  offer it answers), so that the host knows at once an answer to an offer it already used.

The bytes (with a 2-byte CRC) are written as one number in base 36 (``0-9A-Z``): QR codes hold
those characters in their alphanumeric mode at 5.5 bits each, and a code of only letters and
digits survives a messenger, a link's fragment (``…#t=CODE``) and a double click whole. Reading
a code ignores case, spaces and dashes.

Pure Python, no I/O: it runs inside Pyodide.
"""

from __future__ import annotations

import ipaddress
import re
import uuid
import zlib
from dataclasses import dataclass
from typing import Literal

from kniffel.engine.errors import KniffelError

Kind = Literal["offer", "answer"]

#: The version of the code's bytes (the two highest bits of its first byte).
CODE_VERSION = 1
#: The characters of a code: QR's alphanumeric mode holds them, and nothing in a URL or a
#: messenger changes them.
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The fragment of a link that carries a code: ``https://…/#t=CODE``.
LINK_KEY = "t="
#: The most candidates a code carries (the best ones, by the browser's own priority).
MAX_CANDIDATES = 15
#: The longest table id a code carries (bytes of UTF-8).
MAX_TABLE_ID = 40
#: The largest offer number a code carries (one byte: a page's count of its offers wraps).
MAX_OFFER = 255
#: The start of the id a code carries when it connects two phones for a history's transfer
#: (issue 40, :mod:`kniffel.browser.history_transfer`) rather than for a table: a table's id is
#: a peer id (hex digits), never this.
TRANSFER_PREFIX = "~h:"

Purpose = Literal["table", "transfer"]


def code_id(purpose: Purpose, name: str) -> str:
    """The id a code carries for ``name`` (a table's id, or a transfer's, with or without its
    prefix: an answer carries the id of the offer it answers) and its purpose."""
    if purpose == "transfer" and not name.startswith(TRANSFER_PREFIX):
        return TRANSFER_PREFIX + name
    return name


def purpose_of(table: str) -> Purpose:
    """What a code of the id ``table`` connects two phones for: a table or a transfer."""
    return "transfer" if table.startswith(TRANSFER_PREFIX) else "table"

_SETUPS = ("actpass", "active", "passive")
#: The fingerprint hashes and their lengths in bytes.
_HASHES = (("sha-256", 32), ("sha-1", 20), ("sha-224", 28), ("sha-384", 48), ("sha-512", 64))
_TYPES = ("host", "srflx", "prflx", "relay")
_TCP_TYPES = ("active", "passive", "so")
#: Type preferences of RFC 8445 (5.1.2.2), for the priorities written afresh.
_TYPE_PREFERENCE = {"host": 126, "prflx": 110, "srflx": 100, "relay": 0}
_ICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
#: An ICE text of lower-case hex digits (Firefox's): packed at 4 bits a character.
_HEX = re.compile(r"[0-9a-f]+")
_MDNS = re.compile(r"^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})"
                   r"\.local$")


class TableCodeError(KniffelError):
    """A text that is no connection code of a table (damaged, cut off, or something else)."""

    default_code = "table.bad_code"


@dataclass(frozen=True)
class Candidate:
    """One ICE candidate of a code: where the phone can be reached."""

    address: str
    port: int
    protocol: Literal["udp", "tcp"] = "udp"
    type: str = "host"
    tcp_type: str | None = None


@dataclass(frozen=True)
class Description:
    """What a code carries: the parts of an SDP another browser needs to connect."""

    kind: Kind
    table: str
    ufrag: str
    pwd: str
    hash: str
    fingerprint: bytes
    setup: str
    candidates: tuple[Candidate, ...]
    mid: str = "0"
    sctp_port: int = 5000
    #: the ``max-message-size`` (None: absent, the standard's 64 kB; 0: no limit)
    max_message_size: int | None = 262144
    #: the offer's number 0-255 (an answer: the number of the offer it answers); None: absent
    #: (a code of a page before the numbers)
    offer: int | None = None


def _bad(message: str) -> TableCodeError:
    return TableCodeError(message, code="table.bad_code")


def _bad_sdp(message: str) -> TableCodeError:
    return TableCodeError(f"the browser's session description cannot be packed: {message}",
                          code="table.bad_sdp")


def parse_sdp(sdp: str, kind: Kind, table: str, offer: int | None = None) -> Description:
    """The parts of a data-channel SDP (Chromium's, Safari's or Firefox's) that a code keeps,
    with the offer's number ``offer``; raises :class:`TableCodeError` (``table.bad_sdp``) for an
    SDP that lacks one or a number that is not one byte."""
    if kind not in ("offer", "answer"):
        raise _bad_sdp(f"kind must be 'offer' or 'answer', got {kind!r}")
    _check_offer(offer)
    if not isinstance(sdp, str):
        raise _bad_sdp("it is not text")
    if len(table.encode()) > MAX_TABLE_ID:
        raise _bad_sdp(f"the table id {table!r} is longer than {MAX_TABLE_ID} bytes")
    attrs: dict[str, str] = {}
    found: list[tuple[int, Candidate]] = []
    for raw in sdp.splitlines():
        line = raw.strip()
        if not line.startswith("a="):
            continue
        name, _, value = line[2:].partition(":")
        if name == "candidate":
            parsed = _candidate(value)
            if parsed is not None:
                found.append(parsed)
        else:
            attrs.setdefault(name, value.strip())
    for need in ("ice-ufrag", "ice-pwd", "fingerprint", "setup"):
        if need not in attrs:
            raise _bad_sdp(f"it has no a={need}")
    hash_name, _, hex_text = attrs["fingerprint"].partition(" ")
    lengths = dict(_HASHES)
    try:
        fingerprint = bytes.fromhex(hex_text.replace(":", ""))
    except ValueError:
        raise _bad_sdp(f"the fingerprint {hex_text!r} is not hex") from None
    if lengths.get(hash_name.lower()) != len(fingerprint):
        raise _bad_sdp(f"the fingerprint {attrs['fingerprint']!r} is not one of "
                       f"{', '.join(lengths)}")
    setup = attrs["setup"].lower()
    if setup not in _SETUPS:
        raise _bad_sdp(f"the setup {setup!r} is not one of {', '.join(_SETUPS)}")
    for key in ("ice-ufrag", "ice-pwd"):
        if not 1 <= len(attrs[key]) <= 127 or any(c not in _ICE_CHARS for c in attrs[key]):
            raise _bad_sdp(f"the {key} {attrs[key]!r} is not 1-127 ICE characters")
    if not found:
        raise _bad_sdp("it has no candidate (was the code made before gathering ended?)")
    mms = attrs.get("max-message-size")
    sctp = attrs.get("sctp-port", "5000")
    if not sctp.isdigit() or not 0 < int(sctp) < 65536 or (
            mms is not None and not mms.isdigit()):
        raise _bad_sdp(f"sctp-port {sctp!r} or max-message-size {mms!r} is not a number")
    best = [c for _, c in sorted(found, key=lambda pc: -pc[0])]
    unique = list(dict.fromkeys(best))[:MAX_CANDIDATES]
    return Description(kind=kind, table=table, ufrag=attrs["ice-ufrag"], pwd=attrs["ice-pwd"],
                       hash=hash_name.lower(), fingerprint=fingerprint, setup=setup,
                       candidates=tuple(unique), mid=attrs.get("mid", "0") or "0",
                       sctp_port=int(sctp),
                       max_message_size=None if mms is None else _mms_kept(int(mms)),
                       offer=offer)


def offer_fault(offer: object) -> str | None:
    """What is wrong with an offer's number (it must be a whole number 0-255; None, absent, is
    one), or None when nothing is."""
    if offer is not None and (isinstance(offer, bool) or not isinstance(offer, int)
                              or not 0 <= offer <= MAX_OFFER):
        return f"the offer's number must be a whole number 0-{MAX_OFFER}, got {offer!r}"
    return None


def _check_offer(offer: int | None) -> None:
    """Raises :class:`TableCodeError` (``table.bad_sdp``) for an offer's number that is not one
    (:func:`offer_fault`)."""
    fault = offer_fault(offer)
    if fault is not None:
        raise _bad_sdp(fault)


def _candidate(value: str) -> tuple[int, Candidate] | None:
    """The priority and candidate of an ``a=candidate:`` value; None for one a code does not
    carry (another component, a transport other than UDP and TCP, a bad address)."""
    parts = value.split()
    if len(parts) < 8 or parts[6] != "typ" or parts[1] != "1":
        return None
    protocol = parts[2].lower()
    kind = parts[7].lower()
    if protocol not in ("udp", "tcp") or kind not in _TYPES or not parts[5].isdigit():
        return None
    port = int(parts[5])
    extras = dict(zip(parts[8::2], parts[9::2], strict=False))
    tcp_type = extras.get("tcptype") if protocol == "tcp" else None
    if protocol == "tcp" and tcp_type not in _TCP_TYPES:
        return None
    address = parts[4].lower()
    if not 0 <= port < 65536 or not _address_ok(address):
        return None
    priority = int(parts[3]) if parts[3].isdigit() else 0
    return priority, Candidate(address, port, "tcp" if protocol == "tcp" else "udp", kind,
                               tcp_type)


def _address_ok(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return 0 < len(address.encode()) < 256 and " " not in address
    return True


def _mms_kept(value: int) -> int:
    """The ``max-message-size`` a code keeps: 0 (no limit), a power of two or one less
    exactly (Chromium's 262144, Firefox's 1073741823), else the largest power of two below
    (a phone never learns the other takes more than it does)."""
    if value == 0:
        return 0
    if value >= 2**63:
        return 2**63
    k = value.bit_length() - 1
    return value if value == (1 << (k + 1)) - 1 else 1 << k


def write_sdp(d: Description) -> str:
    """A data-channel SDP with ``d``'s parts that Chromium, Safari and Firefox accept as a
    remote description (the form of Chromium's own)."""
    session = int.from_bytes(d.fingerprint[:7], "big")
    lines = ["v=0", f"o=- {session} 2 IN IP4 127.0.0.1", "s=-", "t=0 0",
             f"a=group:BUNDLE {d.mid}", "a=msid-semantic: WMS",
             "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"]
    priority = 2**31
    for i, c in enumerate(d.candidates):
        # RFC 8445's formula, kept below the one before: the code's order is the preference
        priority = min((_TYPE_PREFERENCE[c.type] << 24) + ((65535 - i) << 8) + 255,
                       priority - 1)
        line = (f"a=candidate:{i + 1} 1 {c.protocol} {priority} {c.address} {c.port} "
                f"typ {c.type}")
        if c.type != "host":
            line += " raddr 0.0.0.0 rport 0"
        if c.tcp_type is not None:
            line += f" tcptype {c.tcp_type}"
        lines.append(line + " generation 0")
    fingerprint = ":".join(f"{b:02X}" for b in d.fingerprint)
    lines += [f"a=ice-ufrag:{d.ufrag}", f"a=ice-pwd:{d.pwd}", "a=ice-options:trickle",
              f"a=fingerprint:{d.hash} {fingerprint}", f"a=setup:{d.setup}", f"a=mid:{d.mid}",
              f"a=sctp-port:{d.sctp_port}"]
    if d.max_message_size is not None:
        lines.append(f"a=max-message-size:{d.max_message_size}")
    return "\r\n".join(lines) + "\r\n"


def pack(d: Description) -> bytes:
    """The bytes of a code (before the CRC and the base 36): see the module's docstring."""
    _check_offer(d.offer)
    out = bytearray()
    hashes = [h for h, _ in _HASHES]
    out.append(CODE_VERSION << 6 | (d.kind == "answer") << 5 | _SETUPS.index(d.setup) << 3
               | hashes.index(d.hash))
    out += d.fingerprint
    for text in (d.ufrag, d.pwd):
        hexed = _HEX.fullmatch(text) is not None
        out.append(hexed << 7 | len(text))
        out += bytes.fromhex(text + "0" * (len(text) % 2)) if hexed else _ice_bytes(text)
    table = d.table.encode()
    out.append(len(table))
    out += table
    options = ((d.sctp_port != 5000) | (d.max_message_size is not None) << 1
               | (d.mid != "0") << 2 | (d.offer is not None) << 3)
    out.append(len(d.candidates) << 4 | options)
    if d.sctp_port != 5000:
        out += d.sctp_port.to_bytes(2, "big")
    if d.max_message_size is not None:
        out.append(_mms_byte(d.max_message_size))
    if d.mid != "0":
        mid = d.mid.encode()
        out.append(len(mid))
        out += mid
    if d.offer is not None:
        out.append(d.offer)
    for c in d.candidates:
        out += _candidate_bytes(c)
    return bytes(out)


def _ice_bytes(text: str) -> bytes:
    """ICE characters (64 of them) at 6 bits each."""
    value = 0
    for ch in text:
        value = value << 6 | _ICE_CHARS.index(ch)
    return value.to_bytes((6 * len(text) + 7) // 8, "big")


def _ice_text(data: bytes, n: int) -> str:
    value = int.from_bytes(data, "big")
    if value >> (6 * n):
        raise _bad("the ICE text has bits to spare")
    return "".join(_ICE_CHARS[value >> (6 * (n - 1 - i)) & 63] for i in range(n))


def _mms_byte(value: int) -> int:
    """``max-message-size`` in one byte: 0xFF no limit, else bit 7 "one less" and 2**k."""
    if value == 0:
        return 0xFF
    k = value.bit_length() - 1
    return k if value == 1 << k else 0x80 | (k + 1)


def _mms_value(byte: int) -> int:
    if byte == 0xFF:
        return 0
    k = byte & 0x7F
    if k > 63:
        raise _bad("the message size is out of range")
    return (1 << k) - 1 if byte & 0x80 else 1 << k


def _candidate_bytes(c: Candidate) -> bytes:
    """One candidate: a flag byte (address form, type, TCP and its type), the address, the
    port."""
    mdns = _MDNS.match(c.address)
    address: bytes
    try:
        ip = ipaddress.ip_address(c.address)
        form, address = (0, ip.packed) if ip.version == 4 else (1, ip.packed)
    except ValueError:
        if mdns is not None:
            form, address = 2, uuid.UUID("".join(mdns.groups())).bytes
        else:
            name = c.address.encode()
            form, address = 3, bytes([len(name)]) + name
    tcp = 0 if c.tcp_type is None else 1 + _TCP_TYPES.index(c.tcp_type)
    flags = form | _TYPES.index(c.type) << 2 | (c.protocol == "tcp") << 4 | tcp << 5
    return bytes([flags]) + address + c.port.to_bytes(2, "big")


def encode(data: bytes) -> str:
    """``data`` with its CRC as a code of :data:`ALPHABET` (one number in base 36; the first
    byte is never 0, so nothing is lost in front)."""
    crc = zlib.crc32(data) & 0xFFFF
    value = int.from_bytes(data + crc.to_bytes(2, "big"), "big")
    digits = []
    while value:
        value, digit = divmod(value, len(ALPHABET))
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits))


def decode(code: str) -> bytes:
    """The bytes of a code (:func:`encode`), their CRC checked; case, spaces and dashes do not
    count. Raises :class:`TableCodeError` for anything else."""
    text = re.sub(r"[\s\-]", "", code).upper()
    if not text or len(text) > 1200 or any(ch not in ALPHABET for ch in text):
        raise _bad("a table code holds only the letters A-Z and digits")
    value = int(text, len(ALPHABET))
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    if len(raw) < 3:
        raise _bad("the code is too short")
    data, crc = raw[:-2], raw[-2:]
    if (zlib.crc32(data) & 0xFFFF).to_bytes(2, "big") != crc:
        raise _bad("the code is damaged (its check sum does not match)")
    return data


def unpack(data: bytes) -> Description:
    """The description that :func:`pack` packed into ``data``; raises :class:`TableCodeError`
    for bytes that are not such a description."""
    reader = _Reader(data)
    head = reader.byte()
    if head >> 6 != CODE_VERSION:
        raise _bad(f"the code's version {head >> 6} is not {CODE_VERSION}")
    setup, hash_index = head >> 3 & 3, head & 7
    if setup >= len(_SETUPS) or hash_index >= len(_HASHES):
        raise _bad("the code's first byte is not one of a table code")
    hash_name, length = _HASHES[hash_index]
    fingerprint = reader.take(length)
    ice = []
    for _ in range(2):
        head_byte = reader.byte()
        n = head_byte & 0x7F
        if n == 0:
            raise _bad("the code's ICE text is empty")
        if head_byte >> 7:
            hexed = reader.take((n + 1) // 2).hex()
            if n % 2 and hexed[-1] != "0":
                raise _bad("the ICE text has bits to spare")
            ice.append(hexed[:n])
        else:
            ice.append(_ice_text(reader.take((6 * n + 7) // 8), n))
    try:
        table = reader.take(reader.byte()).decode()
    except UnicodeDecodeError:
        raise _bad("the table id is not text") from None
    counts = reader.byte()
    options = counts & 15
    sctp = int.from_bytes(reader.take(2), "big") if options & 1 else 5000
    mms = _mms_value(reader.byte()) if options & 2 else None
    mid = "0"
    if options & 4:
        try:
            mid = reader.take(reader.byte()).decode()
        except UnicodeDecodeError:
            raise _bad("the media id is not text") from None
    offer = reader.byte() if options & 8 else None
    candidates = []
    for _ in range(counts >> 4):
        candidates.append(_read_candidate(reader))
    if not candidates or reader.left():
        raise _bad("the code has no candidate, or bytes to spare")
    return Description(kind="answer" if head >> 5 & 1 else "offer", table=table,
                       ufrag=ice[0], pwd=ice[1], hash=hash_name, fingerprint=fingerprint,
                       setup=_SETUPS[setup], candidates=tuple(candidates), mid=mid,
                       sctp_port=sctp, max_message_size=mms, offer=offer)


def _read_candidate(reader: _Reader) -> Candidate:
    flags = reader.byte()
    form, kind, tcp, tcp_type = flags & 3, flags >> 2 & 3, flags >> 4 & 1, flags >> 5 & 3
    if (tcp == 0) != (tcp_type == 0) or flags >> 7:
        raise _bad("a candidate's flags do not fit together")
    if form == 0:
        address = str(ipaddress.IPv4Address(reader.take(4)))
    elif form == 1:
        address = str(ipaddress.IPv6Address(reader.take(16)))
    elif form == 2:
        address = f"{uuid.UUID(bytes=reader.take(16))}.local"
    else:
        try:
            address = reader.take(reader.byte()).decode()
        except UnicodeDecodeError:
            raise _bad("a candidate's name is not text") from None
        if not _address_ok(address) or _MDNS.match(address):
            raise _bad("a candidate's name is not one")
    port = int.from_bytes(reader.take(2), "big")
    return Candidate(address, port, "tcp" if tcp else "udp", _TYPES[kind],
                     _TCP_TYPES[tcp_type - 1] if tcp else None)


class _Reader:
    """Bytes read from the front; running out is a damaged code."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise _bad("the code is cut off")
        part = self.data[self.at:self.at + n]
        self.at += n
        return part

    def byte(self) -> int:
        return self.take(1)[0]

    def left(self) -> int:
        return len(self.data) - self.at


def code_of(sdp: str, kind: Kind, table: str, offer: int | None = None) -> str:
    """The connection code of a browser's SDP (an offer or an answer) for ``table``, with the
    offer's number ``offer`` (see :class:`Description`)."""
    return encode(pack(parse_sdp(sdp, kind, table, offer)))


# The shortest code a description can have (an answer with one IPv4 candidate is about 110
# characters): a shorter run of letters in a text is a word, not a code.
MIN_CODE = 60


def description_of(code: object) -> Description:
    """The description a code (or a link that carries one, ``…#t=CODE``, or a message with
    the code among its words) carries; raises :class:`TableCodeError` for anything else."""
    if not isinstance(code, str):
        raise _bad("a table code is text")
    text = code.strip()
    if "#" in text:
        fragment = text.rsplit("#", 1)[1]
        if not fragment.startswith(LINK_KEY):
            raise _bad("the link carries no table code")
        text = fragment[len(LINK_KEY):]
    try:
        return unpack(decode(text))
    except TableCodeError:
        # a code passed on with words around it ("Hier ist der Tisch: 3K…"): its longest run of
        # letters and digits, where that is long enough to be one
        runs = re.findall(r"[0-9A-Za-z]+", text)
        longest = max(runs, key=len, default="")
        if len(longest) < MIN_CODE or longest == re.sub(r"[\s\-]", "", text):
            raise
        return unpack(decode(longest))


def link(base: str, code: str) -> str:
    """The link that carries ``code`` to a phone by messenger: ``base#t=CODE``."""
    return f"{base.split('#', 1)[0]}#{LINK_KEY}{code}"
