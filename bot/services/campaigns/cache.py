"""The per-process cache of which campaign is played where, keyed by guild.

Every command starts by finding its campaign from the channel it was used in; that lookup was
the largest single cost of a ``/roll`` (issue 14).  A guild is served by exactly one process
(one shard), and every write to ``campaign`` or ``campaign_binding`` goes through that
process's engine, so a cache per engine stays coherent if it is cleared on every such write:

* a listener on the engine marks the pooled connection when it executes an ``INSERT``,
  ``UPDATE`` or ``DELETE`` on either table, or on ``character``, ``active_character`` and
  ``scene`` for the other maps below (or any ``TRUNCATE``) (services, the guild purge, anything using the
  engine);
* when that connection goes back to the pool (after its commit or rollback), the whole cache
  is cleared and its generation bumped;
* a lookup that started before the clear does not store what it read (the generation moved).

Rows edited **by hand** (psql, sqlite3) bypass the engine: the bot keeps answering with the
cached campaign until a write through the bot touches a campaign or binding, a versioned write
on that campaign fails (the service forgets the guild and reads again), or the process
restarts.  After editing campaigns by hand, restart the bot (docs/performance.md).

Entries are *transient* ``Campaign`` objects (built from plain rows, in no session), so no
session's rollback can expire them; callers must not modify them.
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Mapping
from typing import Any

from sqlalchemy import RowMapping, event
from sqlalchemy.engine import Engine

from bot.db.models import Campaign, Character

__all__ = ["CampaignCache", "cache_for"]

#: Guilds kept at most; the oldest filled entry goes first (a few KB each).
MAX_GUILDS = 20_000
#: Characters kept at most (a sheet is a few KB): the players of a few hundred busy tables.
MAX_CHARACTERS = 2_000

_WRITES = re.compile(
    r"^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[\"`]?"
    r"(campaign|campaign_binding|character|active_character|scene)[\"`]?\s",
    re.IGNORECASE,
)
_MARK = "arbitro_campaigns_written"
_COLUMNS = tuple(Campaign.__table__.columns)  # type: ignore[attr-defined]  # set by table=True, undeclared
_CHARACTER_COLUMNS = tuple(Character.__table__.columns)  # type: ignore[attr-defined]  # likewise


class CampaignCache:
    """``guild_id`` → ``{bound target id: active campaign}`` for active bindings,
    ``campaign id`` → ``{user id: name of the member's active character}`` for the whole
    campaign (a member missing from it has none), and ``guild_id`` → ``{thread id: title}``
    of the guild's closed scenes (where nothing more is posted, rolled or requested: every
    such command asks, so the answer must cost no query).

    The second map is what signs every ``/roll``; it is read a campaign at a time, so the
    first rolls after a start or a clear cost one query per campaign, not one per member.  It
    is cleared on any write to ``character`` or ``active_character`` (a rename, a deletion,
    ``/character use``), the first on writes to ``campaign`` or ``campaign_binding``.

    Beside it, ``campaign id`` → ``{user id: id of the member's active character}`` (read with
    the names), and ``character id`` → the character's stored columns: what a ``/check``, a
    request's button or ``/sheet show`` reads (issue 26: a whole table's checks at once cost
    no query but their batched audit rows).  Both are cleared with the names, on any write to
    a character: a read never returns a sheet older than the last write this process
    committed, and every write still compares and sets the version it read itself
    (:mod:`bot.services.sheets.writes`).  Callers get a fresh copy (:meth:`character`).
    """

    def __init__(self) -> None:
        self.guilds: dict[int, Mapping[int, Campaign]] = {}
        self.actives: dict[int, Mapping[int, str]] = {}
        self.active_ids: dict[int, Mapping[int, int]] = {}
        self.sheets: dict[int, tuple[dict[str, Any], str]] = {}
        self.closed: dict[int, Mapping[int, str]] = {}
        self.generation = 0

    def get(self, guild_id: int) -> Mapping[int, Campaign] | None:
        return self.guilds.get(guild_id)

    def store(self, guild_id: int, generation: int, bound: Mapping[int, Campaign]) -> None:
        """Keep ``bound`` unless a write was committed since the lookup began."""
        if generation != self.generation:
            return
        if len(self.guilds) >= MAX_GUILDS:
            self.guilds.pop(next(iter(self.guilds)))
        self.guilds[guild_id] = bound

    def store_actives(self, campaign_id: int, generation: int, names: Mapping[int, str]) -> None:
        """Keep a campaign's active characters unless a write was committed meanwhile."""
        if generation != self.generation:
            return
        if len(self.actives) >= MAX_GUILDS * 5:
            self.actives.pop(next(iter(self.actives)))
        self.actives[campaign_id] = names

    def store_active_ids(self, campaign_id: int, generation: int, ids: Mapping[int, int]) -> None:
        """Keep a campaign's active characters' ids unless a write was committed meanwhile."""
        if generation != self.generation:
            return
        if len(self.active_ids) >= MAX_GUILDS * 5:
            self.active_ids.pop(next(iter(self.active_ids)))
        self.active_ids[campaign_id] = ids

    def store_character(self, generation: int, character: Character) -> None:
        """Keep a character as read unless a write was committed since the read began."""
        if generation != self.generation or character.id is None:
            return
        if len(self.sheets) >= MAX_CHARACTERS:
            self.sheets.pop(next(iter(self.sheets)))
        # the sheet as JSON text (what its column stores): a copy per reader costs a parse,
        # several times cheaper than copying the nested dict
        columns = {column.key: getattr(character, column.key) for column in _CHARACTER_COLUMNS}
        sheet = json.dumps(columns.pop("sheet"))
        self.sheets[character.id] = (columns, sheet)

    def character(self, character_id: int) -> Character | None:
        """A transient copy of the cached character (its own sheet: callers may change it)."""
        found = self.row(character_id)
        return Character(**found[0], sheet=found[1]) if found is not None else None

    def row(self, character_id: int) -> tuple[Mapping[str, Any], dict[str, Any]] | None:
        """The cached character's columns (read only) and a copy of its sheet, without
        building a model (a fight's health line needs no more)."""
        found = self.sheets.get(character_id)
        return (found[0], json.loads(found[1])) if found is not None else None

    def store_closed(self, guild_id: int, generation: int, scenes: Mapping[int, str]) -> None:
        """Keep a guild's closed scenes unless a write was committed meanwhile."""
        if generation != self.generation:
            return
        if len(self.closed) >= MAX_GUILDS:
            self.closed.pop(next(iter(self.closed)))
        self.closed[guild_id] = scenes

    def forget(self, guild_id: int) -> None:
        """Drop one guild (a versioned write found the row changed by someone else)."""
        self.generation += 1
        self.guilds.pop(guild_id, None)
        self.closed.pop(guild_id, None)

    def clear(self, tables: set[str] | frozenset[str] = frozenset({"campaign"})) -> None:
        """Forget what the written ``tables`` may have changed (every lookup in flight too)."""
        self.generation += 1
        if tables - {"scene"}:
            self.actives.clear()
            self.active_ids.clear()
            self.sheets.clear()
        if tables & {"campaign", "campaign_binding"}:
            self.guilds.clear()
        if tables & {"campaign", "campaign_binding", "scene"}:
            self.closed.clear()


_caches: weakref.WeakKeyDictionary[Engine, CampaignCache] = weakref.WeakKeyDictionary()


def cache_for(engine: Engine) -> CampaignCache:
    """The cache of ``engine`` (its sync engine), created with its listeners on first use."""
    cache = _caches.get(engine)
    if cache is None:
        cache = _caches[engine] = CampaignCache()
        _listen(engine, cache)
    return cache


def _listen(engine: Engine, cache: CampaignCache) -> None:
    ref = weakref.ref(cache)

    def mark(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if (found := _WRITES.match(statement)) is not None:
            conn.info.setdefault(_MARK, set()).add(found.group(1).lower())
        elif statement.lstrip()[:8].upper() == "TRUNCATE":  # emptying tables: forget all
            conn.info.setdefault(_MARK, set()).add("campaign")

    def checkin(_dbapi_connection: Any, record: Any) -> None:
        tables = record.info.pop(_MARK, None)
        if tables and (live := ref()) is not None:
            live.clear(tables)

    event.listen(engine, "before_cursor_execute", mark)
    event.listen(engine, "checkin", checkin)


def campaign_of(row: Mapping[str, Any] | RowMapping) -> Campaign:
    """A transient ``Campaign`` from a plain row (no session can expire it).

    A database row's mapping (:class:`RowMapping`, also keyed by column objects) or a plain
    mapping of column names (a campaign as the caller's own update wrote it)."""
    return Campaign(**{column.key: row[column.key] for column in _COLUMNS})
