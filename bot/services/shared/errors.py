"""Domain errors: each carries a catalogue key and parameters, never a finished sentence."""

from __future__ import annotations

import errno
import sqlite3
from typing import Any

from rules.systems.base import RefereeOnly, RulesError

__all__ = [
    "disk_full",
    "DomainError",
    "NoCampaign",
    "NotReferee",
    "AlreadyBound",
    "CampaignEnded",
    "InvalidSetting",
    "ConcurrentChange",
    "NotAllowed",
    "refused",
]


class DomainError(Exception):
    """A request the bot refuses for a reason the user should read (translated by the cog)."""

    key = "errors.generic"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(f"{self.key} {params}")


class NoCampaign(DomainError):
    key = "campaign.error.no_campaign"


class NotReferee(DomainError):
    key = "campaign.error.not_referee"


class NotAllowed(DomainError):
    key = "errors.not_allowed"


class AlreadyBound(DomainError):
    key = "campaign.error.already_bound"


class CampaignEnded(DomainError):
    key = "campaign.error.ended"


class InvalidSetting(DomainError):
    key = "campaign.error.invalid_setting"


class ConcurrentChange(DomainError):
    key = "errors.concurrent_change"


#: PostgreSQL's SQLSTATE for "disk full" (class 53, insufficient resources).
PG_DISK_FULL = "53100"


def disk_full(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) is the database's disk being full.

    SQLite says ``SQLITE_FULL`` (its file could not grow: the disk, or ``max_page_count``),
    PostgreSQL SQLSTATE 53100 (``could not extend file``), the system ``ENOSPC``; SQLAlchemy
    wraps the driver's error in ``orig`` and asyncpg's adapter chains the original.  The
    transaction was rolled back, so nothing of the request was stored: the reply says so
    instead of the «something failed» of a bug.
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno == errno.ENOSPC:
            return True
        code = getattr(current, "sqlite_errorcode", None)
        if (
            isinstance(current, sqlite3.Error)
            and code is not None
            and code & 0xFF == sqlite3.SQLITE_FULL
        ):
            return True
        if PG_DISK_FULL in (getattr(current, "sqlstate", None), getattr(current, "pgcode", None)):
            return True
        orig = getattr(current, "orig", None)
        current = (
            orig if isinstance(orig, BaseException) else current.__cause__ or current.__context__
        )
    return False


def refused(error: RulesError) -> DomainError:
    """A refusal of the rules as the service's own (its first problem): what only the referee
    may ask (:class:`RefereeOnly`) is :class:`NotAllowed`."""
    problem = error.problems[0]
    kind = NotAllowed if isinstance(error, RefereeOnly) else DomainError
    return kind(problem.key, **problem.params)
