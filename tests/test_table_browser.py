"""One table, every phone (issue 34): Chromium takes the SDP that a connection code rebuilds.

Two browser contexts in one Chromium (two phones on the loopback): the host's offer goes
through its code to the guest, the guest's answer through its code back, and the data channel
opens and carries a message larger than the 64 kB a browser assumes without the code's
``max-message-size``. No page is loaded: nothing is asked of any origin.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from kniffel.browser import table

pytestmark = pytest.mark.browser

#: A phone's side: its description made (an offer, or the answer to ``offer``) once every
#: candidate is gathered; the channel's opening and its messages kept on ``window``.
DESCRIBE = """async (offer) => {
  const pc = new RTCPeerConnection({ iceServers: [] });
  window.pc = pc;
  const keep = (ch) => {
    window.ch = ch;
    window.opened = new Promise((done) => { ch.onopen = () => done("open"); });
    ch.onmessage = (m) => { window.got = m.data; };
  };
  pc.ondatachannel = (e) => keep(e.channel);
  const gathered = new Promise((done) => {
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") done(); };
  });
  if (offer === null) {
    keep(pc.createDataChannel("table"));
    await pc.setLocalDescription(await pc.createOffer());
  } else {
    await pc.setRemoteDescription({ type: "offer", sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
  }
  await gathered;
  return pc.localDescription.sdp;
}"""


def test_two_browsers_connect_through_their_codes_alone(browser: Browser) -> None:
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        offer = table.code_of(host.evaluate(DESCRIBE, None), "offer", "T")
        d = table.description_of(offer)
        assert (d.kind, d.table) == ("offer", "T")
        answer = table.code_of(guest.evaluate(DESCRIBE, table.write_sdp(d)), "answer", "T")
        host.evaluate("(sdp) => pc.setRemoteDescription({ type: 'answer', sdp })",
                      table.write_sdp(table.description_of(answer)))
        assert host.evaluate("window.opened") == "open"
        assert guest.evaluate("window.opened") == "open"
        host.evaluate("ch.send('x'.repeat(200000))")
        guest.wait_for_function("window.got && window.got.length === 200000", timeout=5000)
        assert len(offer) <= 200
        assert len(answer) <= 200
    finally:
        host_ctx.close()
        guest_ctx.close()
