"""Reading an uploaded zip without trusting it: what both imports share.

``/campaign import`` reads two kinds of zip, Árbitro's own chronicle
(:mod:`bot.services.chronicle.archive`) and the saved pages of a Comunidad Umbría game
(:mod:`bot.services.chronicle.umbria.reader`).  Both check member names before reading
anything (no absolute path, no ``..``, no drive letter: nothing can point outside the zip)
and read members through one :class:`MemberBudget`, which counts the bytes actually
decompressed — a zip's headers can lie about sizes, so a bomb stops at the budget, not at
what it declared.

Pure: no database, no Discord, no event loop (it runs in the bot's worker process).
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator

__all__ = ["LineTooLong", "MemberBudget", "ZipOverflow", "bad_member_name"]

#: Bytes read from a member at a time (the budget is checked after each).
CHUNK = 1024 * 1024


class ZipOverflow(Exception):
    """A member decompressed past what the budget allows."""


class LineTooLong(Exception):
    """A line of a member streamed by :meth:`MemberBudget.lines` passed its byte limit."""


def bad_member_name(name: str) -> bool:
    """Whether a member's name could point outside the zip (or is no name at all)."""
    parts = name.split("/")
    return (
        not name
        or name.startswith("/")
        or "\\" in name
        or "\x00" in name
        or ":" in parts[0]
        or any(part in ("", ".", "..") for part in parts[:-1])
        or parts[-1] in (".", "..")
    )


class MemberBudget:
    """Reads members counting the bytes actually decompressed, against a total budget and a
    per-member limit fixed before the first byte is read."""

    def __init__(self, total: int, member: int) -> None:
        self.left = total
        self.member = member

    def read(self, archive: zipfile.ZipFile, name: str, limit: int | None = None) -> bytes:
        """The member's bytes; :class:`ZipOverflow` past either limit (or ``limit``)."""
        chunks: list[bytes] = []
        limit = min(self.left, self.member, self.member if limit is None else limit)
        size = 0
        with archive.open(name) as member:
            while chunk := member.read(CHUNK):
                size += len(chunk)
                if size > limit:
                    raise ZipOverflow()
                chunks.append(chunk)
        self.left -= size
        return b"".join(chunks)

    def lines(self, archive: zipfile.ZipFile, name: str, longest: int) -> Iterator[bytes]:
        """The member's lines (each with its ``\\n``), decompressed as they are read: the
        member is never held whole, whatever its size.  :class:`ZipOverflow` past the
        budget, :class:`LineTooLong` for a line of more than ``longest`` bytes (read no
        further than that: a member of one endless line stops there)."""
        limit = min(self.left, self.member)
        size = 0
        with archive.open(name) as member:
            while line := member.readline(longest + 1):
                size += len(line)
                if size > limit:
                    raise ZipOverflow()
                self.left -= len(line)
                if len(line) > longest:
                    raise LineTooLong()
                yield line
