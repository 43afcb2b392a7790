"""What the training loop is asked to do at an agreed step."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from ._util import parse_rfc3339

if TYPE_CHECKING:
    from .coord import Plan


class Task:
    """What the training loop has to do at this step, returned by :meth:`Agent.step`.

    ``kind`` is ``"save"`` (save a checkpoint of this step, reason ``periodic``, ``command``, ``prepare_exit`` or
    ``signal``) or ``"restore"`` (load ``checkpoint_id``). Every rank gets the same task at the same step. Finish it
    with :meth:`Agent.complete` (or let :meth:`Agent.run` do both): that acknowledges the commands behind it, and
    then holds (``hold``) or ends the process (``exit``, after a signal) when that is what was asked.
    """

    __slots__ = ("kind", "reason", "step", "hold", "exit", "deadline", "checkpoint_id", "uri", "plan", "storage")

    def __init__(self, plan: Plan, step: int, exit_after: bool = False) -> None:
        self.plan = plan
        self.kind: str = plan.kind
        self.reason: str = plan.reason
        self.step = step
        self.hold: bool = plan.hold and not exit_after
        self.exit = exit_after
        self.deadline: datetime.datetime | None = parse_rfc3339(plan.deadline) if plan.deadline else None
        self.checkpoint_id: str | None = plan.checkpoint_id
        self.uri: str | None = plan.uri
        self.storage: str | None = plan.storage     # "durable": the save must outlive the loss of a node

    def __repr__(self) -> str:
        return "Task(%s %s at step %s%s%s)" % (self.kind, self.reason, self.step, ", hold" if self.hold else "",
                                              ", exit" if self.exit else "")
