"""Which launch of a job a process belongs to.

torchrun's run id (``--rdzv-id``) names a job, not one launch of it: stop a job and start it again with the same
rdzv id (a whole-job relaunch, a recreated pod) and torchelastic numbers its rendezvous rounds from 0 again, each
agent counts its restarts from 0 again, and the trainers reach the same steps again. Event ids built from those
numbers alone would be the first launch's ids, and Lifeline would drop the new launch's events as duplicates. So
every id the agent makes carries the launch:

* the wrapper (``python -m lifeline_agent.run``) makes a launch id when it starts (:func:`new_launch_id`), adds it
  to every torchelastic line it forwards (field ``lifeline_launch``) and exports it to its workers as
  ``LIFELINE_LAUNCH``;
* a worker reads ``LIFELINE_LAUNCH``; under plain torchrun it falls back to the directory torchrun made for this
  agent's logs and error files (``TORCHELASTIC_ERROR_FILE``: ``<log dir>/<run id>_<random>/attempt_<n>/<local
  rank>/error.json``: torch makes a new ``<run id>_<random>`` directory at every agent start; early torchelastic
  versions used a ``--log-dir`` as it was given), else there is no launch and ids are as without one.

A launch id is 8 hex digits: one job sees few launches, so 32 random bits do not repeat among them, and it stays
short in checkpoint names.
"""

from __future__ import annotations

import binascii
import hashlib
import os
import re

from ._util import Env

LAUNCH_ENV = "LIFELINE_LAUNCH"
_VALID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_HEX8 = re.compile(r"^[0-9a-f]{8}$")
_ATTEMPT = re.compile(r"^attempt_\d+$")


def new_launch_id() -> str:
    """A fresh launch id: 8 random hex digits."""
    return binascii.hexlify(os.urandom(4)).decode("ascii")


def valid(launch: object) -> bool:
    return isinstance(launch, str) and bool(_VALID.match(launch))


def launch_of(env: Env | None = None) -> str | None:
    """This process's launch: ``LIFELINE_LAUNCH`` when it is one (letters, digits, ``. _ -``, at most 64), else one
    derived from torchrun's per-agent error-file directory, else None."""
    env = os.environ if env is None else env
    raw = (env.get(LAUNCH_ENV) or "").strip()
    if valid(raw):
        return raw
    return _from_error_file(env.get("TORCHELASTIC_ERROR_FILE"))


def agent_dir(path: str | None) -> str | None:
    """``<dir>`` of ``<dir>/attempt_<n>/<local rank>/error.json`` (``TORCHELASTIC_ERROR_FILE``): made once per
    torchrun agent start, the same for every worker it restarts. None when ``path`` is not such a file."""
    if not path:
        return None
    parts = os.path.normpath(path).split(os.sep)
    for i in range(len(parts) - 1, 0, -1):
        if _ATTEMPT.match(parts[i]):
            return os.sep.join(parts[:i])
    return None


def _from_error_file(path: str | None) -> str | None:
    """The hash of :func:`agent_dir`."""
    d = agent_dir(path)
    return hashlib.sha256(d.encode("utf-8")).hexdigest()[:8] if d else None


def tag(launch: str | None) -> str | None:
    """The launch as it appears in checkpoint names: 8 hex digits (the launch itself when it is a wrapper's id, else
    its hash); None without a launch."""
    if launch is None:
        return None
    if _HEX8.match(launch):
        return launch
    return hashlib.sha256(launch.encode("utf-8")).hexdigest()[:8]
