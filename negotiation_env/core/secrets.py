"""Credentials in text: where a URL carries one, and the same text with them blanked.

One place decides, for the run config (which refuses a policy URL that carries a
credential), the API client (which refuses such a ``base_url``), the CLI and every
``repr``, ``str``, trace and log that shows a URL or a setting (which blank what is left).

A URL carries a credential when it has

* any user information (``https://KEY@host``, ``https://user:password@host``);
* a query, fragment or ``;`` path parameter named like a secret (:func:`secret_name`:
  ``api_key``, ``token``, ``access_token``, ``code``, ``sig``, ``jwt``, ``auth``, ...)
  with a value, or whose value looks like a key;
* a path segment, query or fragment that looks like a key (:func:`looks_like_key`): a
  known key prefix (``sk-``, ``ghp_``, ``hf_``, ``AIza``, ``AKIA``, ``eyJ`` ..., see
  :data:`KEY_PREFIXES`) followed by at least 8 key characters, ``Bearer`` and a token, a
  hexadecimal run of 32 or more digits, or a run of 20 or more letters and digits mixed
  as a random draw mixes them (short fragments: ``Qwen2.5-7B-Instruct``,
  ``chat/completions``, ``v1`` and ports are words and numbers, not keys).

A setting is named like a secret (:func:`secret_name`) when its name holds ``key``,
``secret``, ``passw``, ``credential``, ``signature``, ``bearer``, ``jwt``, ``cookie``,
``session`` or ``auth`` (not ``author``), is a short credential name (``code``, ``sig``,
``sid``, ``pwd``, ``otp`` ...), or names a token that is one (``token``,
``access_token``, ``auth_token``, ``hf_token``: the word ``token`` last, not a count or
a vocabulary entry). ``max_tokens``, ``token_param``, ``tokenizer``, ``eos_token`` and
``tokens_per_second`` are settings, not secrets.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from urllib.parse import unquote

__all__ = ["REDACTED", "CREDENTIAL_ADVICE", "KEY_PREFIXES", "looks_like_key", "secret_name", "url_credential",
           "find_credential", "redact_url", "redact_text"]

REDACTED = "[REDACTED]"
#: what a refusal tells the user to do instead
CREDENTIAL_ADVICE = ("put the key in an environment variable and name that variable with the policy's "
                     "api_key_env option")

#: prefixes of the API keys and tokens of common services (case-sensitive)
KEY_PREFIXES = ("sk-", "sk_live_", "sk_test_", "rk-", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "ghp_", "gho_",
                "ghu_", "ghs_", "ghr_", "github_pat_", "xoxb-", "xoxp-", "xoxa-", "xoxs-", "xoxr-", "hf_", "AIza",
                "AKIA", "ASIA", "glpat-", "eyJ", "r8_", "gsk_", "nvapi-", "pplx-", "xai-")
_KEY_CHARS = r"[A-Za-z0-9_\-]"
_PREFIXED = re.compile("(?:" + "|".join(re.escape(p) for p in KEY_PREFIXES) + ")" + _KEY_CHARS + "{8,}")
# the same inside free text: not preceded by a key character ("ask-questions" is no "sk-")
_PREFIXED_IN_TEXT = re.compile(r"(?<![A-Za-z0-9_\-])" + _PREFIXED.pattern + r"(?:\.[A-Za-z0-9_\-]+)*")
_BEARER = re.compile(r"(?i)\b(bearer)\s+(?=\S*[0-9])[A-Za-z0-9_\-.~+/=]{12,}")
_HEX_RUN = re.compile(r"[0-9a-fA-F]{32,}")
_TOKEN = re.compile(_KEY_CHARS + "+")
# a word-like fragment: a capitalised or lower-case word, an upper-case run, a number
_FRAGMENT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
#: a run of letters and digits at least this long may be a random key
MIN_RANDOM_CHARS = 20
#: ... with at most one "-" or "_" per this many of them (written names such as
#: ``Meta-Llama-3-8B-Instruct`` have one every 4 to 6)
SEPARATOR_SPACING = 8
#: ... when its word-like fragments are this short on average (a random draw from
#: letters and digits changes between lower case, upper case and digit every 1.6 to 2.5
#: characters; written words are longer)
MAX_MEAN_FRAGMENT = 3.5
#: ... and its characters this varied (bits per character)
MIN_ENTROPY_BITS = 3.0

# names of settings and URL parameters that hold secrets
_SECRET_PART = re.compile(r"key|secret|passw|credential|signature|bearer|jwt|cookie|session|auth(?!or)", re.I)
_SECRET_EXACT = frozenset({"code", "sig", "sid", "pw", "pwd", "pass", "passwd", "otp", "hmac", "ticket", "nonce_sig",
                           "x_sig"})
# the word before a trailing "token" that makes it a vocabulary entry or a count, not a secret
_TOKEN_NOT_SECRET = frozenset({"eos", "bos", "pad", "unk", "sep", "cls", "mask", "stop", "special", "start", "end",
                               "think", "thinking", "answer", "image", "audio", "video", "sentinel", "split",
                               "separator", "boundary", "first", "last", "max", "min", "num", "n", "per", "each",
                               "next", "prompt", "completion", "reasoning", "output", "input", "decoder", "encoder"})
# names of environment variables holding a secret name the variable, not the secret
_ENV_NAME = re.compile(r"_env(_?var)?$", re.I)
_URL = re.compile(r"[a-z][a-z0-9+.\-]*://[^\s\"'<>`]*", re.I)


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _random_token(token: str, *, any_case: bool) -> bool:
    """A token of key characters that looks drawn at random rather than written: a long
    run mixing letters and digits, few separators, short word-like fragments, varied."""
    run = token.replace("-", "").replace("_", "")
    if len(token) < MIN_RANDOM_CHARS or (len(token) - len(run)) * SEPARATOR_SPACING > len(run):
        return False
    if not re.search(r"[0-9]", run) or not re.search(r"[A-Za-z]", run):
        return False
    if not any_case and not (re.search(r"[a-z]", run) and re.search(r"[A-Z]", run)):
        return False
    return len(run) / len(_FRAGMENT.findall(run)) <= MAX_MEAN_FRAGMENT and _entropy(run) >= MIN_ENTROPY_BITS


def looks_like_key(text: str, *, in_url: bool = True) -> bool:
    """Whether ``text`` (a path segment, a parameter's value, a setting) holds something
    shaped like a key: a known prefix, ``Bearer TOKEN``, or (``in_url``) a long hexadecimal
    run, or a long run of letters and digits mixed at random (outside URLs: only one
    mixing lower case, upper case and digits, so that a commit hash stays readable)."""
    if not isinstance(text, str) or not text:
        return False
    if _PREFIXED_IN_TEXT.search(text) or _BEARER.search(text):
        return True
    for token in _TOKEN.findall(text):
        if in_url and any(re.search(r"[0-9]", h) and re.search(r"[a-fA-F]", h) for h in _HEX_RUN.findall(token)):
            return True
        # a key drawn from letters, digits, "-" and "_" splits into runs at those characters
        if _random_token(token, any_case=in_url):
            return True
    return False


def _words(name: str) -> list[str]:
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]


def secret_name(name: str) -> bool:
    """Whether a setting or URL parameter called ``name`` holds a secret (see the module
    docstring); the name of an environment variable (``api_key_env``) is not one."""
    name = str(name)
    if _ENV_NAME.search(name):
        return False
    if _SECRET_PART.search(name):
        return True
    words = _words(name)
    if "_".join(words) in _SECRET_EXACT:
        return True
    for i, w in enumerate(words):
        if w == "token" and i == len(words) - 1 and (i == 0 or words[i - 1] not in _TOKEN_NOT_SECRET):
            return True
    return False


def _split_url(url: str) -> tuple[str, str, str, str | None, str | None]:
    """scheme://, authority, path, query (None: no '?'), fragment (None: no '#')."""
    scheme, _, rest = url.partition("://")
    m = re.match(r"[^/?#]*", rest)
    authority, rest = rest[:m.end()], rest[m.end():]
    rest, hash_, fragment = rest.partition("#")
    path, q, query = rest.partition("?")
    return scheme + "://", authority, path, (query if q else None), (fragment if hash_ else None)


def _param_credential(name: str, value: str) -> bool:
    name, value = unquote(name).strip(), unquote(value).strip()
    return bool(value) and (secret_name(name) or looks_like_key(value))


def _params(text: str, where: str) -> tuple[str, str | None]:
    """``text`` (a query, a fragment, a segment's ``;`` parameters) with credentials
    blanked, and the first credential's description (None: none)."""
    found = None
    out = []
    for item in re.split(r"([&;])", text):
        if item in ("&", ";"):
            out.append(item)
            continue
        name, eq, value = item.partition("=")
        if eq and _param_credential(name, value):
            found = found or f"{where} parameter {unquote(name).strip()!r}"
            out.append(f"{name}={REDACTED}")
        elif not eq and looks_like_key(unquote(item)):
            found = found or f"the {where}"
            out.append(REDACTED)
        else:
            out.append(item)
    return "".join(out), found


def _scan_url(url: str) -> tuple[str, str | None]:
    scheme, authority, path, query, fragment = _split_url(url)
    found = None
    userinfo, at, host = authority.rpartition("@")
    if at:
        found = "user information (" + ("user:password@" if ":" in userinfo else "a user name@") + ")"
        authority = f"{REDACTED}@{host}"
    if any(_PREFIXED.fullmatch(label) for label in re.split(r"[.:]", host)):
        found = found or "the host name"
        authority = (f"{REDACTED}@" if at else "") + REDACTED
    segments = []
    for i, segment in enumerate(path.split("/")):
        head, semi, params = segment.partition(";")
        if looks_like_key(unquote(head)):
            found = found or f"path segment {i}"
            head = REDACTED
        if semi:
            params, f = _params(params, "';' path")
            found = found or f
        segments.append(head + semi + params)
    out = scheme + authority + "/".join(segments)
    if query is not None:
        query, f = _params(query, "query")
        found = found or f
        out += "?" + query
    if fragment is not None:
        fragment, f = _params(fragment, "fragment")
        found = found or f
        out += "#" + fragment
    return out, found


def url_credential(url: str) -> str | None:
    """Where ``url`` carries a credential (``"user information (a user name@)"``,
    ``"query parameter 'code'"``, ``"path segment 2"`` ...), or None. Never the credential."""
    return _scan_url(url)[1] if isinstance(url, str) else None


def find_credential(text: str) -> str | None:
    """Where ``text`` (a policy spec, an option's value) carries a credential: in a URL it
    holds (:func:`url_credential`), or a key shape outside URLs (a known prefix,
    ``Bearer TOKEN``, a random-looking run mixing cases and digits). None: nothing."""
    if not isinstance(text, str):
        return None
    for m in _URL.finditer(text):
        where = url_credential(m.group())
        if where:
            return f"the URL's {where}"
    rest = _URL.sub(" ", text)
    if _PREFIXED_IN_TEXT.search(rest) or _BEARER.search(rest):
        return "a key (a known key prefix)"
    if looks_like_key(rest, in_url=False):
        return "a key (a long random-looking token)"
    return None


def redact_url(url: str) -> str:
    """``url`` with every credential :func:`url_credential` finds replaced by ``[REDACTED]``."""
    return _scan_url(url)[0]


def redact_text(text: str) -> str:
    """``text`` with the credentials of every URL in it blanked, and key-shaped tokens
    outside URLs (a known prefix, ``Bearer TOKEN``, a random-looking run mixing lower
    case, upper case and digits) replaced by ``[REDACTED]``."""
    if not isinstance(text, str):
        return text
    if "://" in text:
        text = _URL.sub(lambda m: redact_url(m.group()), text)
    text = _PREFIXED_IN_TEXT.sub(REDACTED, text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _TOKEN.sub(lambda m: REDACTED if _random_token(m.group(), any_case=False) else m.group(), text)
