"""Who may see what: the one rule every output renders through (issue 22 §1).

Visibility is a property of the data.  Every stored record — a roll-log row, a post, an XP
award — carries its :class:`Secrecy`, decided from the campaign's rules **when it is
written** (a private roll, a GM-only post, private notes, a hidden difficulty, a hidden NPC):

* its **audience**: everyone in the campaign, its player and the GM, some members and the GM
  (a players' whisper, ``/post to:``: each member it was addressed to), or the GM only;
* its **sealed parts**: what only the GM reads even where the record is shown (the total of
  a check against a hidden NPC, a hidden difficulty, private notes);
* the **hidden NPC** it is secret because of, and what that NPC's secrecy seals (the whole
  record, or some parts).  Revealing the NPC later (``/npc reveal``) is stored as an event
  (:class:`bot.db.models.Reveal`); it lifts exactly what the NPC sealed in the records
  written before it, and nothing else (a private roll stays private).

What a reader sees is decided when rendering, by :func:`sight`, from the record's secrecy,
the :class:`Reader` and the :class:`Reveals`.  Outputs never read a record directly: they
take :class:`Shown` values, and :func:`show` is the only way to make one (its constructor
demands a key that only this module holds), so an output that reads raw records does not
type-check, and a test fails on any module that touches the key.  The audience test
(``tests/e2e/test_audience.py``) walks every output with a campaign full of sentinels.

Parts (:class:`Part`):

``record``      the whole record (only the GM knows it exists)
``total``       the total and the dice that make it (with the outcome they bound a stat)
``difficulty``  the target number or difficulty
``outcome``     success or failure (and a fumble)
``detail``      the GM's numbers a record keeps for him (an attack's hidden side)
``notes``       a post's out-of-character notes
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar, final

from bot.db.types import as_utc

__all__ = [
    "NO_REVEALS",
    "NPC_NUMBERS",
    "PLAYERS_OWN",
    "PUBLIC",
    "REQUEST_SEALS",
    "Audience",
    "Part",
    "Reader",
    "Reveals",
    "Secrecy",
    "Shown",
    "Sight",
    "show",
    "request_seals",
    "show_all",
    "sight",
]

T = TypeVar("T")
V = TypeVar("V")
V_co = TypeVar("V_co", covariant=True)


class Audience(StrEnum):
    """Who may know a record exists (stored in the ``audience`` column)."""

    EVERYONE = "everyone"  # every member of the campaign
    PLAYER = "player"  # its player (``audience_user_id``) and the GM
    MEMBERS = "members"  # the members in ``secrets["members"]`` and the GM (a whisper)
    GM = "gm"  # the GM only


class Part(StrEnum):
    """What of a record may be sealed: shown to the GM only (module docstring)."""

    RECORD = "record"
    TOTAL = "total"
    DIFFICULTY = "difficulty"
    OUTCOME = "outcome"
    DETAIL = "detail"
    NOTES = "notes"


#: What a hidden NPC seals in a roll it takes part in: the numbers that bound its stats.
NPC_NUMBERS = frozenset({Part.TOTAL, Part.DIFFICULTY, Part.DETAIL})
#: Sealed parts a record's own player still reads: what he wrote himself (his private notes).
PLAYERS_OWN = frozenset({Part.NOTES})

#: What a GM roll request's ``hidden`` mode seals in each of its rolls and in the request
#: itself (its difficulty): ``visible`` nothing, ``outcome`` the numbers, ``nothing`` the
#: outcome too; an unknown mode seals the most.
REQUEST_SEALS: Mapping[str, frozenset[Part]] = {
    "visible": frozenset(),
    "outcome": frozenset({Part.TOTAL, Part.DIFFICULTY, Part.DETAIL}),
    "nothing": frozenset({Part.TOTAL, Part.DIFFICULTY, Part.DETAIL, Part.OUTCOME}),
}


def request_seals(hidden: str) -> frozenset[Part]:
    return REQUEST_SEALS.get(hidden, REQUEST_SEALS["nothing"])


_STRICTNESS = {Audience.EVERYONE: 0, Audience.MEMBERS: 1, Audience.PLAYER: 1, Audience.GM: 2}


def _parts(values: Any) -> frozenset[Part]:
    """Stored part names back as parts; an unknown name seals the whole record (a newer
    bot's part read by an older one must not be shown)."""
    if not isinstance(values, list | tuple | frozenset | set):
        return frozenset()
    known = {p.value for p in Part}
    return frozenset(Part(v) if v in known else Part.RECORD for v in values if isinstance(v, str))


@dataclass(frozen=True, slots=True)
class Secrecy:
    """A record's visibility as decided when it was written (module docstring)."""

    audience: Audience = Audience.EVERYONE
    #: "its player": the member of Audience.PLAYER; on any record, the one who wrote it
    #: (he reads the sealed parts he wrote himself, :data:`PLAYERS_OWN`)
    player_id: int | None = None
    sealed: frozenset[Part] = frozenset()
    npc_id: int | None = None  # the hidden NPC this record is secret because of
    npc_sealed: frozenset[Part] = frozenset()  # what that NPC's secrecy seals
    #: Audience.MEMBERS: every member it was addressed to (the GM reads it anyway)
    members: frozenset[int] = frozenset()

    # -- making one ------------------------------------------------------------------

    @classmethod
    def private(cls, user_id: int) -> Secrecy:
        """A private roll or post: its player and the GM."""
        return cls(Audience.PLAYER, user_id)

    @classmethod
    def gm_only(cls) -> Secrecy:
        return cls(Audience.GM)

    @classmethod
    def addressed(cls, author_id: int, members: Iterable[int]) -> Secrecy:
        """A whisper (``/post to:``): its author and every member it was addressed to (the
        GM among them or not: he reads it anyway)."""
        return cls(Audience.MEMBERS, author_id, members=frozenset({author_id, *members}))

    def _with(self, **changes: Any) -> Secrecy:
        return replace(self, **changes)

    def written_by(self, user_id: int) -> Secrecy:
        """This secrecy, naming the member who wrote the record (he reads the sealed parts
        he wrote himself); a record for another player keeps that player."""
        if self.audience is not Audience.EVERYONE:
            return self
        return self._with(player_id=user_id)

    def narrowed(self, audience: Audience, player_id: int | None = None) -> Secrecy:
        """This secrecy, for the stricter of its audience and ``audience`` (two players'
        audiences meet at the GM only; a whisper narrowed to one of its members is his)."""
        gm = self._with(audience=Audience.GM, player_id=None, members=frozenset())
        if audience is Audience.PLAYER and self.audience is Audience.MEMBERS:
            if player_id not in self.members:
                return gm
            return self._with(audience=Audience.PLAYER, player_id=player_id, members=frozenset())
        mine, other = _STRICTNESS[self.audience], _STRICTNESS[audience]
        if audience is Audience.PLAYER and self.audience is Audience.PLAYER:
            if player_id == self.player_id:
                return self
            return gm
        if other > mine:
            if audience is Audience.PLAYER and self.player_id not in (None, player_id):
                # the record was written by someone else: the two meet at the GM only
                return gm
            return self._with(audience=audience, player_id=player_id, members=frozenset())
        return self

    def sealing(self, *parts: Part) -> Secrecy:
        """These parts sealed too (for good: no reveal lifts them)."""
        return self._with(sealed=self.sealed | frozenset(parts))

    def hiding_npc(self, npc_id: int, parts: Iterable[Part] = NPC_NUMBERS) -> Secrecy:
        """``parts`` sealed because NPC ``npc_id`` is hidden: revealing it lifts them."""
        if self.npc_id is not None and self.npc_id != npc_id:
            # two hidden NPCs: no single reveal may lift the other's secret
            return self.sealing(*self.npc_sealed, *parts)
        return self._with(npc_id=npc_id, npc_sealed=self.npc_sealed | frozenset(parts))

    # -- stored ----------------------------------------------------------------------

    def columns(self) -> dict[str, Any]:
        """The record's ``audience``, ``audience_user_id`` and ``secrets`` columns."""
        secrets: dict[str, Any] = {}
        if self.sealed:
            secrets["sealed"] = sorted(p.value for p in self.sealed)
        if self.npc_id is not None and self.npc_sealed:
            secrets["npc"] = self.npc_id
            secrets["npc_sealed"] = sorted(p.value for p in self.npc_sealed)
        if self.audience is Audience.MEMBERS:
            secrets["members"] = sorted(self.members)
        return {
            "audience": self.audience.value,
            "audience_user_id": None if self.audience is Audience.GM else self.player_id,
            "secrets": secrets,
        }

    @classmethod
    def of(cls, audience: str | None, user_id: int | None, secrets: Any) -> Secrecy:
        """Read back from the columns; an unknown audience is the GM's (never wider)."""
        try:
            kind = Audience(audience or Audience.EVERYONE)
        except ValueError:
            kind = Audience.GM
        if kind is Audience.PLAYER and user_id is None:
            kind = Audience.GM
        data = secrets if isinstance(secrets, Mapping) else {}
        members: frozenset[int] = frozenset()
        if kind is Audience.MEMBERS:
            listed = data.get("members")
            members = frozenset(
                m
                for m in (listed if isinstance(listed, list) else [])
                if isinstance(m, int) and not isinstance(m, bool)
            )
            if not members:
                kind = Audience.GM  # a whisper to nobody anyone can name: the GM's
        npc = data.get("npc")
        npc_id = npc if isinstance(npc, int) and not isinstance(npc, bool) else None
        npc_sealed = _parts(data.get("npc_sealed"))
        sealed = _parts(data.get("sealed"))
        if npc_id is None:
            sealed |= npc_sealed  # sealed by an NPC nobody can name: for good
            npc_sealed = frozenset()
        player = None if kind is Audience.GM else user_id
        return cls(kind, player, sealed, npc_id, npc_sealed, members)

    @classmethod
    def of_row(cls, row: Any) -> Secrecy:
        """From any row with the three columns (an ORM row, a Core row, a mapping)."""
        if isinstance(row, Mapping):
            return cls.of(row.get("audience"), row.get("audience_user_id"), row.get("secrets"))
        return cls.of(
            getattr(row, "audience", None),
            getattr(row, "audience_user_id", None),
            getattr(row, "secrets", None),
        )

    def export(self) -> dict[str, Any]:
        """As the chronicle's records carry it (the columns, readable by people)."""
        return self.columns()


PUBLIC = Secrecy()


class _ReaderKind(StrEnum):
    EVERYONE = "everyone"
    MEMBER = "member"
    GROUP = "group"
    GM = "gm"


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads an output: anyone in the campaign (a public reply, the players' half of
    the chronicle), one member (an ephemeral reply, his ``/history``, his ``/privacy
    export``) or the campaign's GM (a GM copy, the GM's half)."""

    kind: _ReaderKind
    user_id: int | None = None
    #: a group: the members who read the output together (a private thread's)
    group: frozenset[int] = frozenset()

    @classmethod
    def everyone(cls) -> Reader:
        return cls(_ReaderKind.EVERYONE)

    @classmethod
    def member(cls, user_id: int) -> Reader:
        return cls(_ReaderKind.MEMBER, user_id)

    @classmethod
    def gm(cls, user_id: int | None = None) -> Reader:
        return cls(_ReaderKind.GM, user_id)

    @classmethod
    def members(cls, user_ids: Iterable[int]) -> Reader:
        """Several members reading one output together (a private thread's messages): they
        see what every one of them may see."""
        return cls(_ReaderKind.GROUP, group=frozenset(user_ids))

    @classmethod
    def where_shown(cls, secrecy: Secrecy) -> Reader:
        """Who reads the messages of a record posted where its audience is (a scene, a
        GM ↔ player thread, a whisper's thread)."""
        if secrecy.audience is Audience.EVERYONE:
            return cls.everyone()
        if secrecy.audience is Audience.MEMBERS:
            return cls.members(secrecy.members)
        if secrecy.audience is Audience.PLAYER and secrecy.player_id is not None:
            return cls.member(secrecy.player_id)
        return cls.gm()

    def _may_read(self, secrecy: Secrecy) -> bool:
        """Whether this (non-GM) reader is in the record's audience."""
        if secrecy.audience is Audience.EVERYONE:
            return True
        if self.kind is _ReaderKind.EVERYONE:
            return False
        readers = self.group if self.kind is _ReaderKind.GROUP else frozenset({self.user_id})
        if not readers:
            return False
        if secrecy.audience is Audience.PLAYER:
            return readers == {secrecy.player_id}
        if secrecy.audience is Audience.MEMBERS:
            return readers <= secrecy.members
        return False

    def _wrote(self, secrecy: Secrecy) -> bool:
        """Whether this reader is the one member who wrote the record."""
        if self.kind is _ReaderKind.MEMBER:
            return self.user_id == secrecy.player_id
        return self.kind is _ReaderKind.GROUP and self.group == {secrecy.player_id}

    @classmethod
    def of(cls, user_id: int, referee: bool) -> Reader:
        """The member ``user_id``: the GM when he referees the campaign."""
        return cls.gm(user_id) if referee else cls.member(user_id)

    @property
    def is_gm(self) -> bool:
        return self.kind is _ReaderKind.GM


@dataclass(frozen=True, slots=True)
class Reveals:
    """The reveal events of a campaign: NPC id → when it was last revealed."""

    npcs: Mapping[int, datetime] = field(default_factory=dict)

    def lifts(self, secrecy: Secrecy, written_at: datetime | None) -> bool:
        """Whether a reveal of the record's NPC came after the record was written."""
        if secrecy.npc_id is None:
            return False
        revealed = self.npcs.get(secrecy.npc_id)
        if revealed is None:
            return False
        if written_at is None:
            return False  # a record without a time: keep it sealed
        return as_utc(revealed) >= as_utc(written_at)


NO_REVEALS = Reveals()


class _Key:
    """Held by this module only: :class:`Sight` and :class:`Shown` demand it."""

    __slots__ = ()


_KEY = _Key()


@final
class Sight:
    """What one reader may see of one record (made by :func:`sight` only)."""

    __slots__ = ("reader", "sealed")

    def __init__(self, reader: Reader, sealed: frozenset[Part], key: _Key) -> None:
        if key is not _KEY:
            raise TypeError("a Sight is decided by bot.services.shared.audience.sight only")
        self.reader = reader
        self.sealed = sealed

    def shows(self, part: Part) -> bool:
        return part not in self.sealed

    def value(self, part: Part, value: T) -> T | None:
        """``value`` if this reader may see ``part``, else ``None``."""
        return value if part not in self.sealed else None

    def __repr__(self) -> str:
        return f"Sight({self.reader!r}, sealed={sorted(self.sealed)})"


def sight(
    secrecy: Secrecy,
    reader: Reader,
    *,
    written_at: datetime | None = None,
    reveals: Reveals = NO_REVEALS,
) -> Sight | None:
    """**The rule.**  What ``reader`` may see of a record with ``secrecy`` (``None``:
    nothing, not even that it exists).

    The GM sees everything.  Anyone else needs the record's audience (everyone, he is its
    player, or one of the members it was addressed to), and then sees all but its sealed parts — except those its player wrote himself
    (his private notes), which he reads; what a hidden NPC sealed is lifted by a reveal of
    that NPC made after the record was written."""
    if reader.is_gm:
        return Sight(reader, frozenset(), _KEY)
    if not reader._may_read(secrecy):
        return None
    sealed = set(secrecy.sealed)
    if not reveals.lifts(secrecy, written_at):
        sealed |= secrecy.npc_sealed
    if Part.RECORD in sealed:
        return None
    if reader._wrote(secrecy):
        sealed -= PLAYERS_OWN  # what he wrote himself
    return Sight(reader, frozenset(sealed), _KEY)


@final
class Shown(Generic[V_co]):
    """A record's projection for one reader: what outputs take (made by :func:`show` only)."""

    __slots__ = ("_value", "sight")

    def __init__(self, value: V_co, seen: Sight, key: _Key) -> None:
        if key is not _KEY:
            raise TypeError("a Shown value is made by bot.services.shared.audience.show only")
        self._value = value
        self.sight = seen

    @property
    def value(self) -> V_co:
        return self._value

    def __repr__(self) -> str:
        return f"Shown({self._value!r}, {self.sight!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shown) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


def show(
    secrecy: Secrecy,
    reader: Reader,
    project: Callable[[Sight], V],
    *,
    written_at: datetime | None = None,
    reveals: Reveals = NO_REVEALS,
) -> Shown[V] | None:
    """The record as ``reader`` may see it: ``project`` builds the output's view from the
    :class:`Sight` (blanking what it seals); ``None`` when the reader may not see it."""
    seen = sight(secrecy, reader, written_at=written_at, reveals=reveals)
    if seen is None:
        return None
    return Shown(project(seen), seen, _KEY)


def show_all(
    records: Iterable[T],
    reader: Reader,
    secrecy: Callable[[T], Secrecy],
    project: Callable[[T, Sight], V],
    *,
    written_at: Callable[[T], datetime | None] = lambda _record: None,
    reveals: Reveals = NO_REVEALS,
) -> list[Shown[V]]:
    """:func:`show` of each record, in order, leaving out those the reader may not see."""
    shown: list[Shown[V]] = []
    for record in records:
        seen = sight(secrecy(record), reader, written_at=written_at(record), reveals=reveals)
        if seen is not None:
            shown.append(Shown(project(record, seen), seen, _KEY))
    return shown
