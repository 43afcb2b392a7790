"""Small helpers shared by the agent's modules: time stamps, names, rate-limited logging, callbacks."""

from __future__ import annotations

import collections
import datetime as _dt
import hashlib
import logging
import re
import threading
import time
from typing import Any, Callable, Mapping, TypeVar, overload

LOG = logging.getLogger("lifeline_agent")

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_ID = 256

#: The environment as the settings read it (``os.environ`` or a plain dict in tests).
Env = Mapping[str, str]
#: A function registered with :meth:`Callbacks.add`: called with one argument, its result ignored.
Callback = Callable[[Any], object]
#: The type of the callback given: :meth:`Callbacks.add` returns it, so it works as a decorator.
CallbackT = TypeVar("CallbackT", bound=Callback)

_logging_configured = False


def configure_logging(env: Env | None = None) -> None:
    """LIFELINE_LOG_LEVEL (DEBUG, INFO, WARNING...): the agent's log lines go to stderr at that level. Without it
    the agent only logs warnings, through Python's last-resort handler (or the application's logging setup)."""
    global _logging_configured
    import os
    env = os.environ if env is None else env
    level = (env.get("LIFELINE_LOG_LEVEL") or "").strip().upper()
    if not level or _logging_configured:
        return
    _logging_configured = True
    h = logging.StreamHandler()
    h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [lifeline_agent pid %(process)d] %(message)s"))
    LOG.addHandler(h)
    LOG.setLevel(getattr(logging, level, logging.INFO))
    LOG.propagate = False


def utc_now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def rfc3339(t: int | float | _dt.datetime | None = None) -> str:
    """An RFC 3339 UTC time stamp with milliseconds, e.g. ``2026-03-01T10:00:00.250Z``."""
    if t is None:
        t = utc_now()
    elif isinstance(t, (int, float)):
        t = _dt.datetime.fromtimestamp(t, _dt.timezone.utc)
    elif t.tzinfo is None:
        t = t.replace(tzinfo=_dt.timezone.utc)
    return t.astimezone(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_rfc3339(text: object) -> _dt.datetime | None:
    """Parses an RFC 3339 time stamp (``Z`` or an offset, any fraction) to an aware datetime; None when unreadable."""
    if not text or not isinstance(text, str):
        return None
    s = text.strip()
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    # Python 3.9's fromisoformat takes 3 or 6 fraction digits only.
    m = re.match(r"^(.*T\d\d:\d\d:\d\d)(\.\d+)?(.*)$", s)
    if m and m.group(2):
        frac = (m.group(2)[1:] + "000000")[:6]
        s = m.group(1) + "." + frac + m.group(3)
    try:
        t = _dt.datetime.fromisoformat(s)
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=_dt.timezone.utc)
    return t


def safe_name(text: object, default: str = "x") -> str:
    """Letters, digits, '.', '_' and '-' only: usable in file names and event ids."""
    s = _UNSAFE.sub("-", str(text or "")).strip("-.")
    return s or default


def bounded_id(text: str) -> str:
    """Event ids are at most 256 characters: a longer one keeps its head and ends with a hash of the whole."""
    if len(text) <= MAX_ID:
        return text
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return text[: MAX_ID - 17] + "~" + digest


def env_float(env: Env, name: str, default: float, minimum: float | None = None) -> float:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        v = float(raw)
    except ValueError:
        LOG.warning("%s=%r is not a number; using %s", name, raw, default)
        return default
    if minimum is not None and v < minimum:
        LOG.warning("%s=%r is below %s; using %s", name, raw, minimum, minimum)
        return minimum
    return v


def env_int(env: Env, name: str, default: int, minimum: int | None = None) -> int:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        v = int(raw)
    except ValueError:
        LOG.warning("%s=%r is not an integer; using %s", name, raw, default)
        return default
    if minimum is not None and v < minimum:
        LOG.warning("%s=%r is below %s; using %s", name, raw, minimum, minimum)
        return minimum
    return v


@overload
def env_bool(env: Env, name: str, default: bool) -> bool: ...


@overload
def env_bool(env: Env, name: str, default: None) -> bool | None: ...


def env_bool(env: Env, name: str, default: bool | None) -> bool | None:
    """The variable as a flag (``0``, ``false``, ``no``, ``off``: False), ``default`` when unset or empty."""
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() not in ("0", "false", "no", "off")


class RateLimitedLog:
    """Logs at most ``burst`` messages per ``period`` seconds and then one summary of what it left out."""

    def __init__(self, logger: logging.Logger = LOG, burst: int = 10, period: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._log = logger
        self._burst = burst
        self._period = period
        self._clock = clock
        self._lock = threading.Lock()
        self._window_start: float | None = None
        self._count = 0
        self._suppressed = 0

    def __call__(self, level: int, msg: str, *args: object) -> None:
        with self._lock:
            now = self._clock()
            if self._window_start is None or now - self._window_start >= self._period:
                if self._suppressed:
                    self._log.log(level, "(%d similar messages were not logged in the last %.0f s)",
                                  self._suppressed, self._period)
                self._window_start = now
                self._count = 0
                self._suppressed = 0
            if self._count >= self._burst:
                self._suppressed += 1
                return
            self._count += 1
        self._log.log(level, msg, *args)


class Callbacks:
    """Functions registered by name and called with one argument; one that fails is logged and the others still
    run (a trainer's callback must not break the agent)."""

    def __init__(self) -> None:
        self._by_name: collections.defaultdict[str, list[Callback]] = collections.defaultdict(list)

    def add(self, what: str, callback: CallbackT) -> CallbackT:
        self._by_name[what].append(callback)
        return callback

    def fire(self, what: str, arg: object) -> None:
        for cb in list(self._by_name.get(what, ())):
            try:
                cb(arg)
            except Exception:  # noqa: BLE001
                LOG.exception("lifeline: %s callback failed", what)
