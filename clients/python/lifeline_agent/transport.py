"""HTTP to Lifeline with the standard library: one request, its outcome, and the retry policy."""

from __future__ import annotations

import email.utils
import json
import random
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message
from typing import Any, Callable, Mapping, Optional, Tuple

from ._util import LOG

USER_AGENT = "lifeline-agent/0.1 (python)"

#: One reason in an answer: (index of the item, its id, the reason), index and id when the answer names them.
Reason = Tuple[Optional[int], Optional[str], str]


class Response:
    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: Message | Mapping[str, str] | None, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        try:
            return json.loads(self.body.decode("utf-8")) if self.body else None
        except (ValueError, UnicodeDecodeError):
            return None

    def header(self, name: str) -> str | None:
        if self.headers is None:
            return None
        return self.headers.get(name)


class TransportError(Exception):
    """No answer from Lifeline: refused, reset, timed out, unresolvable."""


class Http:
    """A tiny client for one Lifeline: bearer token, JSON bodies, a timeout on every request, no retries here."""

    def __init__(self, base_url: str, token_provider: Callable[[], str | None] | None, timeout: float = 10.0,
                 ca_file: str | None = None, insecure: bool = False) -> None:
        self.base_url = base_url.rstrip("/")
        self._token_provider = token_provider
        self._token: str | None = None
        self.timeout = timeout
        ctx = None
        if self.base_url.startswith("https:"):
            ctx = ssl.create_default_context(cafile=ca_file) if ca_file else ssl.create_default_context()
            if insecure:
                ctx.check_hostname = False
                ctx.verify_mode = ssl.CERT_NONE
        handlers: list[urllib.request.BaseHandler] = []
        if ctx is not None:
            handlers.append(urllib.request.HTTPSHandler(context=ctx))
        self._opener = urllib.request.build_opener(*handlers)

    def url(self, path: str, query: Mapping[str, str] | None = None) -> str:
        u = self.base_url + path
        if query:
            u += "?" + urllib.parse.urlencode(query)
        return u

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str | None = None,
                query: Mapping[str, str] | None = None, timeout: float | None = None,
                headers: Mapping[str, str] | None = None) -> Response:
        """One request. Answers every HTTP status as a :class:`Response`; raises :class:`TransportError` otherwise.
        ``headers``: extra request headers (the agent's key on command calls)."""
        for attempt in (0, 1):
            if self._token is None or attempt == 1:
                self._token = self._token_provider() if self._token_provider else None
            req = urllib.request.Request(self.url(path, query), data=body, method=method)
            req.add_header("User-Agent", USER_AGENT)
            req.add_header("Accept", "application/json")
            if self._token:
                req.add_header("Authorization", "Bearer " + self._token)
            if content_type:
                req.add_header("Content-Type", content_type)
            for k, v in (headers or {}).items():
                req.add_header(k, v)
            try:
                with self._opener.open(req, timeout=self.timeout if timeout is None else timeout) as r:
                    resp = Response(r.status, r.headers, r.read())
            except urllib.error.HTTPError as e:
                try:
                    data = e.read()
                except Exception:  # noqa: BLE001 - a broken error body is still an answer
                    data = b""
                resp = Response(e.code, e.headers, data)
            except (urllib.error.URLError, OSError, ValueError) as e:
                reason = getattr(e, "reason", e)
                raise TransportError("%s %s: %s" % (method, path, reason))
            except Exception as e:  # http.client.HTTPException and friends
                raise TransportError("%s %s: %s" % (method, path, e))
            # A token file may have been rotated (a Kubernetes Secret): read it again once on 401.
            if resp.status == 401 and attempt == 0 and self._token_provider is not None:
                fresh = self._token_provider()
                if fresh and fresh != self._token:
                    self._token = fresh
                    continue
            return resp
        return resp


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds: a number of seconds or an HTTP date. None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        t = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    now = time.time() if now is None else now
    return max(0.0, t.timestamp() - now)


class Backoff:
    """Exponential backoff with jitter: attempt n waits a random time in [d/2, d], d = min(cap, base * 2^n).
    A server's ``Retry-After`` is honoured (never retried sooner), capped at ``max_retry_after``."""

    def __init__(self, base: float = 0.5, cap: float = 30.0, max_retry_after: float = 300.0,
                 rng: random.Random | None = None) -> None:
        self.base = base
        self.cap = cap
        self.max_retry_after = max_retry_after
        self._rng = rng or random.Random()

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        d = min(self.cap, self.base * (2.0 ** min(attempt, 30)))
        d = d / 2 + self._rng.random() * d / 2
        if retry_after is not None:
            d = max(d, min(retry_after, self.max_retry_after))
        return d


# Outcomes of one delivery attempt.
DELIVERED = "delivered"
RETRY = "retry"
GIVE_UP = "give_up"


def classify(status: int) -> str:
    """What to do after an HTTP status: 2xx delivered; 408, 429 and 5xx retried; any other 4xx given up."""
    if 200 <= status < 300:
        return DELIVERED
    if status in (408, 429) or status >= 500:
        return RETRY
    return GIVE_UP


def problem_summary(resp: Response | None) -> list[Reason]:
    """The reasons in an answer: per-item errors, or a problem document's detail."""
    doc = resp.json() if resp is not None else None
    reasons: list[Reason] = []
    if isinstance(doc, dict):
        errors = doc.get("errors")
        if not isinstance(errors, list) and isinstance(doc.get("rejected"), list):
            errors = doc.get("rejected")
        if isinstance(errors, list):
            for e in errors:
                if isinstance(e, dict):
                    reasons.append((e.get("index"), e.get("id"), e.get("reason") or e.get("detail") or str(e)))
        if not reasons and doc.get("detail"):
            reasons.append((None, None, str(doc.get("detail"))))
    elif resp is not None and resp.body:
        reasons.append((None, None, resp.body[:300].decode("utf-8", "replace")))
    return reasons


def counts(resp: Response | None) -> tuple[int, int, int]:
    """(accepted, duplicates, rejected) from an ingest answer; zeros when unreadable."""
    doc = resp.json() if resp is not None else None
    if not isinstance(doc, dict):
        return 0, 0, 0
    rejected = doc.get("rejected", 0)
    if isinstance(rejected, list):
        rejected = len(rejected)
    try:
        return int(doc.get("accepted") or 0), int(doc.get("duplicates") or 0), int(rejected or 0)
    except (TypeError, ValueError):
        LOG.debug("unreadable ingest answer %r", doc)
        return 0, 0, 0
