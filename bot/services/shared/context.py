"""Who is acting and where: the only facts about Discord that services need."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

__all__ = ["Actor", "Confirm", "Place", "Reply", "Sent"]

V_contra = TypeVar("V_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a command was used.

    ``chain`` lists the ids a campaign may be bound to, most specific first: the thread or
    forum post, its parent channel or forum, and the category above it.  A campaign bound to
    any of them applies.
    """

    guild_id: int
    channel_id: int
    chain: tuple[int, ...]

    @classmethod
    def simple(cls, guild_id: int, channel_id: int) -> Place:
        return cls(guild_id, channel_id, (channel_id,))


@dataclass(frozen=True, slots=True)
class Actor:
    """The member using a command.

    ``is_admin`` is true for members with Administrator or Manage Server: they can always act
    as referee, so a group is never locked out of its own campaign.
    """

    user_id: int
    name: str
    role_ids: frozenset[int] = frozenset()
    is_admin: bool = False
    can_manage_channels: bool = False


class Confirm(Protocol):
    """The cog's side of a use case that asks its user before acting (``/campaign end``,
    ``/init end``): the question gets ``params`` (what it names); True to go on.  The
    service checks what it must first, so nobody is asked a question they may not answer."""

    async def __call__(self, **params: Any) -> bool: ...


@dataclass(frozen=True, slots=True)
class Sent:
    """A message the cog sent for a use case: its id and its link (the audit row keeps it)."""

    message_id: int
    url: str = ""


class Reply(Protocol[V_contra]):
    """The cog's side of a use case whose record links to its reply (``/roll``, ``/attack``,
    ``/request check``): it sends the view and says which message it sent (None: nothing to
    link, a private reply), and the service links it in the same call."""

    async def __call__(self, view: V_contra) -> Sent | None: ...
