"""The free-space guard of the checkpoint helpers: a save that would not fit is refused before a byte is written.

Before a save the writer reads the free space of the file system holding the checkpoint directory
(``os.statvfs``: the blocks an unprivileged writer may still use) and compares it with what the save needs: the size
of the last checkpoint (this process's last save, else the newest checkpoint in the directory) times the margin
(``space_margin``, 1.25 by default: a model grows a little, an optimizer's state appears after its first step, the
file system keeps some room for itself). Not enough: :class:`NoSpaceError`, reported to Lifeline as
``trainer.checkpoint.failed`` with ``reason: "no_space"``, ``freeBytes`` and ``neededBytes``. With no previous
checkpoint the size is unknown and the save goes ahead; should the disk fill during a write anyway (another writer
took the space), the temporary directory is removed and the same error is raised. Either way the checkpoints already
there are untouched: a save is written under a temporary name and renamed into place only once complete.
"""

from __future__ import annotations

import errno
import math
import os

NO_SPACE = "no_space"
#: What a save needs, as a multiple of the last checkpoint's size.
SPACE_MARGIN = 1.25


class NoSpaceError(OSError):
    """A checkpoint save refused (or stopped) because the checkpoint directory's file system has too little room.
    ``free_bytes``: free when it was refused; ``needed_bytes``: what the save needed (None when the disk filled during
    the write); ``directory``: the checkpoint directory. An ``OSError`` with ``errno.ENOSPC``, so a loop that already
    catches those catches it."""

    reason = NO_SPACE

    def __init__(self, directory: str, free_bytes: int | None, needed_bytes: int | None,
                 during_write: bool = False) -> None:
        if during_write:
            text = ("no space left for the checkpoint in %s: the file system filled during the write (%s bytes free); "
                    "the previous checkpoints are intact" % (directory, free_bytes))
        else:
            text = ("not enough space for the checkpoint in %s: %s bytes free, %s needed (the last checkpoint's size "
                    "with the margin); nothing was written" % (directory, free_bytes, needed_bytes))
        OSError.__init__(self, errno.ENOSPC, text)
        self.directory = directory
        self.free_bytes = free_bytes
        self.needed_bytes = needed_bytes
        self.during_write = during_write

    def __str__(self) -> str:
        return str(self.strerror)


def disk_space(path: str) -> tuple[int, int] | None:
    """(free bytes, capacity bytes) of the file system holding ``path``, or None where it cannot be read."""
    try:
        st = os.statvfs(path)
    except (OSError, AttributeError):     # AttributeError: no statvfs on this platform
        return None
    return int(st.f_bavail) * int(st.f_frsize), int(st.f_blocks) * int(st.f_frsize)


def needed_bytes(last_bytes: int | None, margin: float) -> int | None:
    """What a save needs: the last checkpoint's size times the margin; None when the size is unknown."""
    if last_bytes is None or last_bytes <= 0:
        return None
    return int(math.ceil(last_bytes * max(1.0, margin)))


def check_space(directory: str, last_bytes: int | None, margin: float = SPACE_MARGIN) -> None:
    """Raises :class:`NoSpaceError` when the file system of ``directory`` has less free space than a save needs."""
    need = needed_bytes(last_bytes, margin)
    if need is None:
        return
    space = disk_space(directory)
    if space is not None and space[0] < need:
        raise NoSpaceError(directory, space[0], need)


def is_no_space(e: BaseException) -> bool:
    """Whether ``e`` (or what caused it) is the file system running out of space. torch.save wraps the OSError of a
    failed write in a RuntimeError, whose message is all that is left of it."""
    seen = 0
    cur: BaseException | None = e
    while cur is not None and seen < 8:
        if isinstance(cur, OSError) and cur.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if "No space left on device" in str(cur) or "Disk quota exceeded" in str(cur):
            return True
        cur = cur.__cause__ or cur.__context__
        seen += 1
    return False
