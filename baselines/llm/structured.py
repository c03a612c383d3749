"""Constrained answers from an OpenAI-compatible server: the observation's answer format
(:mod:`negotiation_env.core.answer_format`) sent with each request, and the probe that
checks, before play, that the server really constrains.

``constrained_via`` (an :class:`~.api.APIPolicy` option) names the request field:

================== ======================================================= ==================
via                JSON Schema answers                                      regex answers
================== ======================================================= ==================
``response_format`` ``response_format: {"type": "json_schema", "json_schema": not expressible:
                   {"name", "schema", "strict": true}}`` (OpenAI; vLLM,     sent free, and the
                   SGLang and Ollama take it too)                           step records why
``structured_outputs`` ``extra_body.structured_outputs: {"json": schema}``  ``{"regex": ...}``
                   (vLLM 0.12 and later)
``guided``         ``extra_body.guided_json: schema`` (vLLM before 0.12)    ``guided_regex``
================== ======================================================= ==================

Each answered step's usage records ``constrained``: ``{"format", "via", "complete"}``
(``complete``: the answer matches the regex, or is one JSON value, checked here; the
schema itself is the server's to enforce), or with ``via`` None and ``skipped`` saying
why the answer went free.

:func:`probe` asks one short question under a schema whose only answer is
``{"probe": "negotiation-env"}`` (and, for the vLLM fields, a regex whose only match is
``negotiation-env-probe``): a model left free answers "OK" to "Reply with OK.", so a
server that ignores the field fails the probe, as does one that refuses it (an HTTP
error). Either raises :class:`~.policy.ProbeFailed` naming the field, before any game,
rather than letting the run play unconstrained.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from negotiation_env.core.answer_format import AnswerFormat

__all__ = ["VIA", "check_via", "request_fields", "record", "PROBE_SCHEMA", "PROBE_ANSWER", "PROBE_REGEX",
           "probe_requests", "probe_failure"]

VIA = ("response_format", "structured_outputs", "guided")

PROBE_ANSWER = {"probe": "negotiation-env"}
PROBE_SCHEMA = {"type": "object", "properties": {"probe": {"type": "string", "enum": ["negotiation-env"]}},
                "required": ["probe"], "additionalProperties": False}
PROBE_REGEX = "negotiation-env-probe"


def check_via(value: Any) -> str:
    if value not in VIA:
        raise ValueError(f"API option 'constrained_via' must be one of {', '.join(VIA)}; got {value!r}")
    return value


def _schema_name(name: str) -> str:
    """OpenAI's ``json_schema.name``: letters, digits, ``_`` and ``-``, at most 64."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64] or "answer"


def request_fields(fmt: AnswerFormat, via: str) -> dict[str, Any] | None:
    """The request fields that carry ``fmt`` under ``via``: ``{"top": {...}, "extra_body":
    {...}}``; None where ``via`` cannot carry it (a regex in ``response_format``)."""
    if via == "response_format":
        if fmt.json_schema is None:
            return None
        return {"top": {"response_format": {"type": "json_schema", "json_schema": {
            "name": _schema_name(fmt.name), "schema": fmt.json_schema, "strict": True}}}, "extra_body": {}}
    key = "json" if fmt.json_schema is not None else "regex"
    value = fmt.json_schema if fmt.json_schema is not None else fmt.regex
    if via == "structured_outputs":
        return {"top": {}, "extra_body": {"structured_outputs": {key: value}}}
    return {"top": {}, "extra_body": {f"guided_{key}": value}}


def record(fmt: AnswerFormat, via: str, text: str, sent: bool) -> dict[str, Any]:
    """What a step's usage stores as ``constrained``."""
    if not sent:
        return {"format": fmt.name, "via": None, "complete": None,
                "skipped": f"{via} carries JSON Schemas only; this answer is plain text (regex {fmt.name})"}
    if fmt.regex is not None:
        complete = re.fullmatch(fmt.regex, text) is not None
    else:
        try:
            json.loads(text)
            complete = True
        except ValueError:
            complete = False
    return {"format": fmt.name, "via": via, "complete": complete}


def probe_requests(via: str) -> list[tuple[str, dict[str, Any], Any]]:
    """``(what, fields, expected answer)`` of the probe's constrained requests."""
    out = [("a JSON Schema", request_fields(AnswerFormat("probe", json_schema=PROBE_SCHEMA), via), PROBE_ANSWER)]
    if via != "response_format":
        out.append(("a regex", request_fields(AnswerFormat("probe", regex=PROBE_REGEX), via), PROBE_REGEX))
    return out


def probe_failure(via: str, what: str, text: str, expected: Any) -> str | None:
    """Why a probe answer shows the server did not constrain it (None: it did)."""
    if isinstance(expected, Mapping):
        try:
            ok = json.loads(text) == expected
        except ValueError:
            ok = False
    else:
        ok = text.strip() == expected
    if ok:
        return None
    field = {"response_format": "response_format (json_schema)", "structured_outputs": "extra_body.structured_outputs",
             "guided": "extra_body.guided_json / guided_regex"}[via]
    return (f"constrained decoding is on, but the server did not follow {what} sent as {field}: its only valid "
            f"answer is {json.dumps(expected)}, the server answered {text[:80]!r}. The server ignores or does not "
            f"support this field; choose another constrained_via ({', '.join(v for v in VIA if v != via)}) or "
            f"set constrained=false")
