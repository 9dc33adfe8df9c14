"""One table, every phone (issue 34): the connection codes and the table's protocol.

The SDP fixtures in ``data/table_sdp.json`` are Chromium's own (headless, data channel only,
non-trickle: gathered to the end), with mDNS names and with the local-IP hiding switched off
(IPv4 and IPv6); the Firefox offer below is written in Firefox's layout.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import segno
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.browser import table
from kniffel.browser.bridge import Session
from kniffel.engine.messages import CATALOG

SDPS: dict[str, str] = json.loads(
    (Path(__file__).parent / "data" / "table_sdp.json").read_text(encoding="utf-8"))

#: An offer in Firefox's layout: the fingerprint at the session level, ``UDP``/``TCP`` in upper
#: case, a TCP candidate, ``end-of-candidates`` and Firefox's message size.
FIREFOX_OFFER = "\r\n".join([
    "v=0", "o=mozilla...THIS_IS_SDPARTA-120.0 4937470617313591379 0 IN IP4 0.0.0.0", "s=-",
    "t=0 0",
    "a=fingerprint:sha-256 6C:5E:01:9A:22:B7:4D:E3:90:11:AF:3C:5B:7E:88:02:D4:19:6A:F0:3B:"
    "C2:17:8E:45:9D:A1:6F:E8:24:B3:5C",
    "a=group:BUNDLE 0", "a=ice-options:trickle", "a=msid-semantic:WMS *",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    "a=candidate:0 1 UDP 2122252543 3f2b7d3c-5d6e-4b8a-9c1d-2e3f4a5b6c7d.local 53124 typ host",
    "a=candidate:1 1 TCP 2105524479 3f2b7d3c-5d6e-4b8a-9c1d-2e3f4a5b6c7d.local 9 typ host "
    "tcptype active",
    "a=sendrecv", "a=end-of-candidates", "a=ice-pwd:0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "a=ice-ufrag:a1b2c3d4", "a=mid:0", "a=setup:actpass", "a=sctp-port:5000",
    "a=max-message-size:1073741823", ""])

FIXTURES: list[tuple[str, str, table.Kind]] = [
    (name, sdp, "answer" if name.endswith("answer") else "offer")
    for name, sdp in [*SDPS.items(), ("firefox_offer", FIREFOX_OFFER)]]


def _attrs(sdp: str) -> dict[str, list[str]]:
    """The ``a=`` lines of an SDP by name (every value, in order)."""
    out: dict[str, list[str]] = {}
    for line in sdp.splitlines():
        if line.startswith("a="):
            name, _, value = line[2:].partition(":")
            out.setdefault(name, []).append(value)
    return out


def _candidates(sdp: str) -> list[tuple[str, str, str, str, str | None]]:
    """The candidates' protocol, address, port, type and TCP type, in the SDP's order of
    priority (highest first)."""
    rows = []
    for value in _attrs(sdp).get("candidate", []):
        p = value.split()
        extra = dict(zip(p[8::2], p[9::2], strict=False))
        rows.append((int(p[3]), (p[2].lower(), p[4].lower(), p[5], p[7], extra.get("tcptype"))))
    return [c for _, c in sorted(rows, key=lambda r: -r[0])]


@pytest.mark.parametrize(("name", "sdp", "kind"), FIXTURES, ids=[f[0] for f in FIXTURES])
def test_a_rebuilt_sdp_keeps_every_field_the_browser_needs(name: str, sdp: str,
                                                            kind: table.Kind) -> None:
    code = table.code_of(sdp, kind, "K7Q2XM")
    d = table.description_of(code)
    rebuilt = table.write_sdp(d)
    was, now = _attrs(sdp), _attrs(rebuilt)
    for key in ("ice-ufrag", "ice-pwd", "setup", "mid", "sctp-port", "max-message-size"):
        assert now[key] == was[key], key
    assert now["fingerprint"][0].lower() == was["fingerprint"][0].lower()
    assert _candidates(rebuilt) == _candidates(sdp)
    assert (d.kind, d.table) == (kind, "K7Q2XM")
    # the lines every browser's parser requires, in the order of Chromium's own
    lines = rebuilt.split("\r\n")
    assert lines[:4] == ["v=0", lines[1], "s=-", "t=0 0"]
    assert re.fullmatch(r"o=- \d+ 2 IN IP4 127\.0\.0\.1", lines[1])
    assert "m=application 9 UDP/DTLS/SCTP webrtc-datachannel" in lines
    assert "a=group:BUNDLE 0" in lines
    assert rebuilt.endswith("\r\n")
    # packing the rebuilt SDP again gives the same code: nothing drifts on a second trip
    assert table.code_of(rebuilt, kind, "K7Q2XM") == code


def test_a_code_is_base36_and_small_enough_for_a_qr_code_read_at_arms_length() -> None:
    for name, sdp, kind in FIXTURES:
        code = table.code_of(sdp, kind, "K7Q2XM")
        assert set(code) <= set(table.ALPHABET), name
        # two mDNS candidates (Chromium's usual offer): 163 characters, QR version 6
        assert len(code) <= 170, name
        version = segno.make(code, error="l", micro=False).version
        assert isinstance(version, int), name
        assert version <= 6, name


def test_a_code_ignores_case_spaces_and_dashes_and_comes_in_a_link() -> None:
    code = table.code_of(SDPS["chromium_mdns_offer"], "offer", "T")
    d = table.description_of(code)
    grouped = "-".join(code[i:i + 4] for i in range(0, len(code), 4)).lower()
    assert table.description_of(f"  {grouped}\n") == d
    url = table.link("https://kniffel.example/app/#g=old", code)
    assert url == f"https://kniffel.example/app/#t={code}"
    assert table.description_of(url) == d


addresses = st.one_of(
    st.ip_addresses(v=4).map(str), st.ip_addresses(v=6).map(str),
    st.uuids().map(lambda u: f"{u}.local"),
    st.from_regex(r"[a-z][a-z0-9\-]{0,20}\.(lan|home|local)", fullmatch=True))


@st.composite
def candidates(draw: st.DrawFn) -> table.Candidate:
    tcp = draw(st.booleans())
    return table.Candidate(draw(addresses), draw(st.integers(0, 65535)),
                           "tcp" if tcp else "udp", draw(st.sampled_from(table._TYPES)),
                           draw(st.sampled_from(table._TCP_TYPES)) if tcp else None)


ice = st.one_of(st.text(alphabet=table._ICE_CHARS, min_size=1, max_size=127),
                st.text(alphabet="0123456789abcdef", min_size=1, max_size=40))


@st.composite
def descriptions(draw: st.DrawFn) -> table.Description:
    hash_name, length = draw(st.sampled_from(table._HASHES))
    mms = draw(st.one_of(st.none(), st.just(0), st.integers(0, 62).map(lambda k: 2**k),
                         st.integers(1, 63).map(lambda k: 2**k - 1)))
    return table.Description(
        kind=draw(st.sampled_from(["offer", "answer"])),
        table=draw(st.text(max_size=12).filter(lambda t: len(t.encode()) <= 40)),
        ufrag=draw(ice), pwd=draw(ice), hash=hash_name,
        fingerprint=draw(st.binary(min_size=length, max_size=length)),
        setup=draw(st.sampled_from(table._SETUPS)),
        candidates=tuple(draw(st.lists(candidates(), min_size=1, max_size=15, unique=True))),
        mid=draw(st.sampled_from(["0", "1", "data"])),
        sctp_port=draw(st.sampled_from([5000, 5001, 65535])), max_message_size=mms)


@settings(max_examples=300)
@given(descriptions())
def test_every_description_round_trips_through_its_code_and_its_sdp(
        d: table.Description) -> None:
    code = table.encode(table.pack(d))
    assert table.description_of(code) == d
    assert table.parse_sdp(table.write_sdp(d), d.kind, d.table) == d


@settings(max_examples=300)
@given(st.text(max_size=300))
def test_any_other_text_is_refused_with_the_bad_code_sentence(text: str) -> None:
    reply = Session().handle({"op": "table_sdp", "code": text, "lang": "en"})
    if reply["ok"]:  # a text that happens to be a whole code (never met in practice)
        return
    assert reply["error"]["code"] == "table.bad_code"
    assert reply["error"]["text"] == CATALOG["table.bad_code"][1]


def test_every_one_character_typo_of_a_code_is_refused() -> None:
    for name, sdp, kind in FIXTURES:
        code = table.code_of(sdp, kind, "K7Q2XM")
        for i, ch in enumerate(code):
            for other in table.ALPHABET.replace(ch, ""):
                with pytest.raises(table.TableCodeError) as caught:
                    table.description_of(code[:i] + other + code[i + 1:])
                assert caught.value.code == "table.bad_code", name


def test_a_cut_off_code_is_refused_in_german_and_english() -> None:
    code = table.code_of(SDPS["chromium_mdns_answer"], "answer", "T")
    for lang, sentence in (("de", CATALOG["table.bad_code"][0]),
                           ("en", CATALOG["table.bad_code"][1])):
        for cut in (code[:-1], code[:20], code[1:], "", "#t=", "https://x/#g=abc"):
            reply = Session().handle({"op": "table_sdp", "code": cut, "lang": lang})
            assert not reply["ok"], cut
            assert reply["error"]["text"] == sentence, cut


def test_an_sdp_without_what_a_code_needs_is_refused_as_such() -> None:
    sdp = SDPS["chromium_mdns_offer"]
    for needed in ("a=ice-ufrag", "a=ice-pwd", "a=fingerprint", "a=setup", "a=candidate"):
        cut = "\r\n".join(line for line in sdp.splitlines() if not line.startswith(needed))
        reply = Session().handle({"op": "table_code", "kind": "offer", "sdp": cut,
                                  "table": "T"})
        assert not reply["ok"], needed
        assert reply["error"]["code"] == "table.bad_sdp", needed


def test_the_bridge_gives_the_code_its_qr_code_bytes_and_link_and_reads_it_back() -> None:
    s = Session()
    reply = s.handle({"op": "table_code", "kind": "answer", "sdp": SDPS["chromium_ip_answer"],
                      "table": "AB12", "base": "https://k.example/"})
    assert reply["ok"]
    assert reply["bytes"] == len(table.decode(reply["code"]))
    assert reply["qr"]["version"] == segno.make(reply["code"], error="l").version
    assert reply["qr"]["size"] == 17 + 4 * reply["qr"]["version"] + 8
    assert reply["link"] == f"https://k.example/#t={reply['code']}"
    back = s.handle({"op": "table_sdp", "code": reply["link"]})
    assert back["ok"]
    assert (back["kind"], back["table"]) == ("answer", "AB12")
    assert _candidates(back["sdp"]) == _candidates(SDPS["chromium_ip_answer"])
    bad = s.handle({"op": "table_code", "kind": "pranswer", "sdp": "", "table": "T"})
    assert bad["error"]["code"] == "web.bad_request"
