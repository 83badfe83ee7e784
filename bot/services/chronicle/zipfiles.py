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

__all__ = ["MemberBudget", "ZipOverflow", "bad_member_name"]

#: Bytes read from a member at a time (the budget is checked after each).
CHUNK = 1024 * 1024


class ZipOverflow(Exception):
    """A member decompressed past what the budget allows."""


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

    def read(self, archive: zipfile.ZipFile, name: str) -> bytes:
        """The member's bytes; :class:`ZipOverflow` past either limit."""
        chunks: list[bytes] = []
        limit = min(self.left, self.member)
        size = 0
        with archive.open(name) as member:
            while chunk := member.read(CHUNK):
                size += len(chunk)
                if size > limit:
                    raise ZipOverflow()
                chunks.append(chunk)
        self.left -= size
        return b"".join(chunks)
