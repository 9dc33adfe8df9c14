"""The expert's value model for Kniffel Extreme: V̂(filled boxes, upper sum, chips left).

The exact table of Kniffel Extreme holds 598 million values (2.4 GB); this model holds about
134 thousand numbers, fitted by least squares to a sample of that table
(``scripts/fit_expert_model.py``, :mod:`kniffel.expert_fit`). For a sheet with ``n`` open boxes,
``c`` chips left, upper boxes ``U`` filled with upper sum ``u`` and ``l`` lower boxes open:

    V̂ = layer[n][c] + Σ_open b (box[n][b] + chip[n][b][c]) + Σ_open b<b' pair[n][b][b']
        + upper[U][u][c][0] + l · upper[U][u][c][1] + upper_lower[U][u][l]

where ``u`` is the sum capped at the bonus threshold, or "dead" (-1) when the bonus is out of
reach; a full sheet is worth 0. Every box term belongs to its number of open boxes ``n`` (what a
box is still worth with ``n`` turns to go, how much a chip is worth with it open, how two open
boxes compete for the same rolls); the upper tables carry the points the open upper boxes bring
with the bonus for every upper sum and chip count, moved by how many lower boxes still give room
(a line in ``l``, and a correction per ``l`` where the sample has enough states).

The data file is JSON (standard library only, so the browser reads it too) with the format
version, the rule set it was fitted to (its ``repr``: the version tied to the rules), where it
came from (the sample's table checksum, sizes, fit errors) and the SHA-256 of its parameters;
a file that does not match is refused with an :class:`~kniffel.engine.errors.ExpertError` whose code
names the problem (``expert.model_*``).

The browser's copy of the package holds the same model packed (:func:`pack_model`: a one-line
JSON header, then the tables as little-endian float64 with their SHA-256), made from the checked
JSON file when the site is built: Pyodide reads and checks it in milliseconds, where parsing and
checking the JSON takes most of a second before the first hint.
"""

from __future__ import annotations

import array
import contextlib
import hashlib
import itertools
import json
import math
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from kniffel.engine.catalog import package_file
from kniffel.engine.errors import ExpertError
from kniffel.engine.rules import RuleSet, preset
from kniffel.engine.states import DEAD, upper_key

#: The format of the model file; a file of another version is refused.
MODEL_FORMAT = "kniffel-expert-model"
MODEL_VERSION = 1
#: The model file of each rule set in the package (``kniffel/engine/data``).
MODEL_FILES = {"extreme": "expert-extreme.json"}
#: The first bytes of a packed model file (:func:`pack_model`), which the browser's package holds
#: in place of the JSON file, under the name :func:`packed_name` gives.
PACKED_MAGIC = b"kniffel-expert-model-packed\n"
#: The command that builds a model file from the full table's sample.
FIT_COMMAND = ("python scripts/fit_expert_model.py ~/.cache/kniffel/solver/extreme.sample.npz "
               "src/kniffel/engine/data/expert-extreme.json")


def model_rules(rules: RuleSet) -> RuleSet:
    """The rule set whose model plays ``rules``: the free-strike house rule uses the model of
    the plain rules (the turn itself is computed with the house rule exactly)."""
    if rules.name in MODEL_FILES and rules == preset(rules.name, free_strike=True):
        return preset(rules.name)
    return rules


def params_digest(params: Mapping[str, Any]) -> str:
    """SHA-256 of the parameters in canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(params, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


#: The most values :meth:`ValueModel.future` remembers (then all are forgotten).
_SEEN = 32768


@dataclass(frozen=True, eq=False)
class ValueModel:
    """The fitted V̂ (see the module docstring); ``future`` is what the expert asks. Each table
    is one flat ``array('d')`` in row-major order (a few MB less than nested tuples of floats,
    which matters in the browser)."""

    rules: RuleSet
    layer: array.array[float]
    box: array.array[float]
    chip: array.array[float]
    pair: array.array[float]
    upper: array.array[float]
    upper_lower: array.array[float]
    meta: Mapping[str, Any]
    #: V̂ of the states asked for lately (a turn asks for the same sheet once per points of a
    #: lower box; the next game for the same early sheets).
    _seen: dict[tuple[int, int, int], float] = field(default_factory=dict, repr=False)

    source = "model"

    def __repr__(self) -> str:
        return f"<ValueModel of {self.rules.name}, sha256 {str(self.meta.get('sha256'))[:12]}>"

    def future(self, mask: int, upper_sum: int, x: int) -> float:
        """V̂ of the filled boxes ``mask``, upper sum ``upper_sum`` and ``x`` chips left."""
        key = (mask, upper_sum, x)
        seen = self._seen
        found = seen.get(key)
        if found is None:
            if len(seen) >= _SEEN:
                seen.clear()
            found = seen[key] = self._future(mask, upper_sum, x)
        return found

    def _future(self, mask: int, upper_sum: int, x: int) -> float:
        rules = self.rules
        nb = len(rules.boxes)
        xs = rules.chips + 1
        open_boxes = [b for b in range(nb) if not mask >> b & 1]
        n = len(open_boxes)
        if n == 0:
            return 0.0
        v = self.layer[n * xs + x]
        box, chip, pair = self.box, self.chip, self.pair
        at_box, at_chip, at_pair = n * nb, n * nb * xs + x, n * nb * nb
        for i, b in enumerate(open_boxes):
            v += box[at_box + b] + chip[at_chip + b * xs]
            row = at_pair + b * nb
            for c in open_boxes[i + 1:]:
                v += pair[row + c]
        u6 = mask & 63
        width = rules.bonus_threshold + 2
        key = u6 * width + upper_key(u6, upper_sum, rules.bonus_threshold, 6) - DEAD
        at = (key * xs + x) * 2
        lower_open = sum(1 for b in open_boxes if b >= 6)
        return (v + self.upper[at] + lower_open * self.upper[at + 1]
                + self.upper_lower[key * (nb - 5) + lower_open])

    def known(self, mask: int, upper_sum: int, x: int) -> float | None:
        """The exact value of the state where the model file records it (else None): the
        empty sheet with the rules' chips, whose value under optimal play the full table's
        sample holds (``sample.expected``, the solved optimum: 646.4189 for Kniffel
        Extreme)."""
        if mask or upper_sum or x != self.rules.chips:
            return None
        sample = self.meta.get("sample")
        if not isinstance(sample, Mapping) or sample.get("max_open") != len(self.rules.boxes):
            return None
        found = sample.get("expected")
        return float(found) if isinstance(found, int | float) and math.isfinite(found) \
            else None


_NUMBER_TYPES = {int, float}  # as JSON reads numbers (a bool is not one, nor a subclass)


def _flat(value: Any, shape: tuple[int, ...], out: array.array[float]) -> bool:
    """Append the nested lists of numbers ``value`` of ``shape`` to ``out``; False when the
    shape differs or something is not a finite number. (Level by level, with the checks in
    C: the browser reads 130,000 numbers in rows of two.)"""
    rows = [value]
    for n in shape:
        if set(map(type, rows)) != {list} or set(map(len, rows)) != {n}:
            return False
        rows = list(itertools.chain.from_iterable(rows))
    if not set(map(type, rows)) <= _NUMBER_TYPES:
        return False
    start = len(out)
    try:
        out.extend(rows)
    except OverflowError:  # an integer beyond any float
        return False
    return all(map(math.isfinite, out[start:]))


def _shapes(rules: RuleSet) -> dict[str, tuple[int, ...]]:
    """The shape of each table of the model of ``rules``, in the order of :class:`ValueModel`."""
    nb, xs, width = len(rules.boxes), rules.chips + 1, rules.bonus_threshold + 2
    return {"layer": (nb + 1, xs), "box": (nb + 1, nb), "chip": (nb + 1, nb, xs),
            "pair": (nb + 1, nb, nb), "upper": (64, width, xs, 2),
            "upper_lower": (64, width, nb - 5)}


def _tables(model: ValueModel) -> dict[str, array.array[float]]:
    return {"layer": model.layer, "box": model.box, "chip": model.chip, "pair": model.pair,
            "upper": model.upper, "upper_lower": model.upper_lower}


def _version_error(where: str, got: object) -> ExpertError:
    return ExpertError(f"{where}: a model file of version {got!r}; this kniffel reads "
                       f"{MODEL_FORMAT!r} version {MODEL_VERSION}", code="expert.model_version",
                       params={"where": where, "got": str(got), "want": MODEL_VERSION})


def _rules_error(where: str, got: object, want: RuleSet, rules: RuleSet) -> ExpertError:
    return ExpertError(f"{where}: the model was fitted to the rules {got!r}, not {want!r}",
                       code="expert.model_rules", params={"where": where, "rules": rules.name})


def packed_name(name: str) -> str:
    """The name of the packed copy of the model file ``name`` (``expert-extreme.packed``)."""
    return name.rsplit(".", 1)[0] + ".packed"


def pack_model(model: ValueModel) -> bytes:
    """``model`` as a packed file: :data:`PACKED_MAGIC`, a line of JSON (version, rules, the
    tables' sizes, the SHA-256 of the payload and the JSON file's own fields but its
    parameters), then the payload: the tables in order, little-endian float64. Byte for byte
    the same for the same model."""
    payload = b"".join(_swap_le(t).tobytes() for t in _tables(model).values())
    header = {"version": MODEL_VERSION, "rules": repr(model.rules),
              "sizes": {k: len(t) for k, t in _tables(model).items()},
              "payload_sha256": hashlib.sha256(payload).hexdigest(), "meta": dict(model.meta)}
    line = json.dumps(header, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return PACKED_MAGIC + line.encode() + b"\n" + payload


def packed_copy(rules_name: str, raw: bytes, *, where: str) -> tuple[str, bytes]:
    """The package's model file of ``rules_name`` (a key of :data:`MODEL_FILES`, content
    ``raw``), checked and packed: the name the browser's package holds it under, and its bytes."""
    model = model_from_bytes(preset(rules_name), raw, where=where)
    return packed_name(MODEL_FILES[rules_name]), pack_model(model)


def _swap_le(table: array.array[float]) -> array.array[float]:
    """``table`` between this machine's byte order and little-endian (the same swap either way:
    the table itself where the machine is little-endian, else a swapped copy)."""
    if sys.byteorder == "little":
        return table
    swapped = array.array("d", table)
    swapped.byteswap()
    return swapped


def model_from_packed(rules: RuleSet, raw: bytes, *, where: str = "model") -> ValueModel:
    """The model in the packed file content ``raw`` (:func:`pack_model`), checked: version,
    rules, the tables' sizes and the payload's checksum."""
    want = model_rules(rules)
    end = raw.find(b"\n", len(PACKED_MAGIC))
    try:
        if not raw.startswith(PACKED_MAGIC) or end < 0:
            raise ValueError("no packed model header")
        header = json.loads(raw[len(PACKED_MAGIC):end].decode("utf-8"))
        if not isinstance(header, dict):
            raise ValueError("the header is not a JSON object")
    except (UnicodeDecodeError, ValueError) as e:
        raise ExpertError(f"{where}: not a readable model file: {e}",
                          code="expert.model_unreadable",
                          params={"where": where, "error": str(e)}) from None
    if header.get("version") != MODEL_VERSION:
        raise _version_error(where, header.get("version"))
    if header.get("rules") != repr(want):
        raise _rules_error(where, header.get("rules"), want, rules)
    payload = raw[end + 1:]
    sizes = {key: math.prod(shape) for key, shape in _shapes(want).items()}
    if header.get("sizes") != sizes or len(payload) != 8 * sum(sizes.values()):
        raise ExpertError(f"{where}: the model's tables have the wrong size",
                          code="expert.model_unreadable", params={"where": where,
                                                                  "error": "size"})
    meta = header.get("meta")
    if (hashlib.sha256(payload).hexdigest() != header.get("payload_sha256")
            or not isinstance(meta, dict)):
        raise ExpertError(f"{where}: the parameters do not match the model's checksum",
                          code="expert.model_checksum", params={"where": where})
    tables, at = {}, 0
    for key, size in sizes.items():
        table = array.array("d")
        table.frombytes(payload[at:at + 8 * size])
        tables[key] = _swap_le(table)
        at += 8 * size
    return ValueModel(want, tables["layer"], tables["box"], tables["chip"], tables["pair"],
                      tables["upper"], tables["upper_lower"], meta)


def model_from_json(rules: RuleSet, data: Mapping[str, Any], *, where: str = "model"
                    ) -> ValueModel:
    """The model in the parsed file ``data``, checked: format version, rules, checksum."""
    want = model_rules(rules)
    if data.get("format") != MODEL_FORMAT or data.get("version") != MODEL_VERSION:
        raise _version_error(where, data.get("version"))
    if data.get("rules") != repr(want):
        raise _rules_error(where, data.get("rules"), want, rules)
    params = data.get("params")
    digest = None
    if isinstance(params, dict):
        # no digest of what is not JSON numbers (NaN, Infinity) or not JSON at all
        with contextlib.suppress(TypeError, ValueError):
            digest = params_digest(params)
    if not isinstance(params, dict) or digest is None or digest != data.get("sha256"):
        raise ExpertError(f"{where}: the parameters do not match the model's checksum",
                          code="expert.model_checksum", params={"where": where})
    shapes = _shapes(want)
    tables = {key: array.array("d") for key in shapes}
    if not all(_flat(params.get(key), shape, tables[key]) for key, shape in shapes.items()):
        raise ExpertError(f"{where}: the model's parameters have the wrong shape",
                          code="expert.model_unreadable",
                          params={"where": where, "error": "shape"})
    meta = {k: v for k, v in data.items() if k != "params"}
    return ValueModel(want, tables["layer"], tables["box"], tables["chip"], tables["pair"],
                      tables["upper"], tables["upper_lower"], meta)


def model_from_bytes(rules: RuleSet, raw: bytes, *, where: str = "model") -> ValueModel:
    """The model in the file content ``raw``: a JSON model file (:func:`model_from_json`) or a
    packed one (:func:`model_from_packed`)."""
    if raw.startswith(PACKED_MAGIC):
        return model_from_packed(rules, raw, where=where)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ExpertError(f"{where}: not a readable model file: {e}",
                          code="expert.model_unreadable",
                          params={"where": where, "error": str(e)}) from None
    if not isinstance(data, dict):
        raise ExpertError(f"{where}: not a readable model file", code="expert.model_unreadable",
                          params={"where": where, "error": "not a JSON object"})
    return model_from_json(rules, data, where=where)


def model_bytes(rules: RuleSet) -> bytes | None:
    """The packaged model file of ``rules``: its packed copy where the package holds one (the
    browser's), else the JSON file; None when the package has neither."""
    name = MODEL_FILES.get(model_rules(rules).name)
    if name is None:
        return None
    for file in (packed_name(name), name):
        try:
            return package_file("data", file)
        except (OSError, ValueError):
            continue
    return None


def model_file(rules: RuleSet) -> str | None:
    """The name of the packed model file the browser's package reads for ``rules``
    (``expert-extreme.packed``); None where the expert plays ``rules`` without a model."""
    name = MODEL_FILES.get(model_rules(rules).name)
    return None if name is None else packed_name(name)


def has_model_file(rules: RuleSet) -> bool:
    """Whether the package holds the model file of ``rules`` (packed or JSON) among its data
    files: the site's engine gets Kniffel Extreme's when a request first needs it
    (:func:`kniffel.browser.bridge.wanted_table`)."""
    name = MODEL_FILES.get(model_rules(rules).name)
    folder = os.path.join(os.path.dirname(__file__), "data")
    return name is not None and any(os.path.isfile(os.path.join(folder, file))
                                    for file in (packed_name(name), name))


@cache
def load_model(rules: RuleSet) -> ValueModel:
    """The packaged, checked model of ``rules``; :class:`ExpertError` (``expert.model_missing``)
    when the package has none, with the command that builds it."""
    want = model_rules(rules)
    if want.name in MODEL_FILES and want != preset(want.name):
        raise ExpertError(f"the expert's model is for the preset {want.name}, not these rules",
                          code="expert.model_rules", params={"where": "model",
                                                             "rules": rules.name})
    raw = model_bytes(rules)
    if raw is None:
        raise ExpertError(f"the expert has no value model for {rules.name}: build it from the "
                          f"sample of the full table with `{FIT_COMMAND}`",
                          code="expert.model_missing",
                          params={"rules": rules.name, "command": FIT_COMMAND})
    name = MODEL_FILES[want.name]
    if raw.startswith(PACKED_MAGIC):
        name = packed_name(name)
    return model_from_bytes(rules, raw, where=f"kniffel/engine/data/{name}")
