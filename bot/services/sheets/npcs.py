"""The referee's NPC use cases: copies of a stat block ("5 trasgos") and hiding or revealing.

Reading, editing and deleting an NPC are the same use cases as for any character
(:mod:`bot.services.sheets.characters`); only what exists for NPCs alone lives here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from bot.db.models import Character, Reveal, saved_id, utcnow
from bot.services.campaigns.service import is_referee
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import ConcurrentChange, DomainError, NotAllowed
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import update_versioned
from bot.services.sheets.access import (
    MAX_NAME,
    CharacterView,
    character_view,
    find_character,
    fits_key,
    name_key,
)
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.schema import upgraded_sheet
from rules.systems.base import GameSystem, LoggedRoll, capabilities

__all__ = ["MAX_COPIES", "NpcCopy", "NpcService", "copy_name"]

MAX_COPIES = 20


@dataclass(frozen=True, slots=True)
class NpcCopy:
    id: int
    name: str
    hidden: bool
    #: The hit points this copy rolled (S&W monsters), None where nothing was rolled.
    hit_points: int | None = None


def copy_name(base: str, number: int) -> str:
    """«Goblin 3»: the base is shortened, never the number, so copies stay distinct.

    Cutting the whole string to :data:`MAX_NAME` instead turned every number of a 99-character
    name back into the same name, and the copy loop never ended.  The *key* must keep the
    number too: «ß» folds to «ss», so a name of 60 of them has a 120-character key, cut to
    100, and every copy had the template's key («0 copias: .»); the base is shortened until
    the copy's key fits whole.
    """
    suffix = f" {number}"
    shortened = base.strip()[: MAX_NAME - len(suffix)].rstrip()
    while shortened and not fits_key(shortened + suffix):
        shortened = shortened[:-1].rstrip()
    return shortened + suffix


class NpcService:
    """Copies and visibility of NPCs; the referee's alone."""

    def __init__(self, characters: CharacterService, rng: random.Random | None = None) -> None:
        self.characters = characters
        self.sessions = characters.sessions
        self.rng = rng or random.SystemRandom()

    async def copies(
        self, place: Place, actor: Actor, template_name: str, count: int
    ) -> tuple[NpcCopy, ...]:
        """Copies of one NPC stat block ("5 goblins"): «Goblin 1» … «Goblin 5».

        Where the system rolls an NPC's numbers (S&W hit points from Hit Dice,
        :class:`rules.systems.base.CopyRolls`), each copy rolls its own, logged under its
        name (privately when the template is hidden: its hit points are the GM's)."""
        context = await self.characters.contexts.load(place)
        if not is_referee(context.campaign, actor):
            raise NotAllowed("sheet.error.npc_gm_only")
        if not 1 <= count <= MAX_COPIES:
            raise DomainError("sheet.error.bad_copies", limit=MAX_COPIES)
        async with self.sessions() as session, session.begin():
            template = await find_character(
                session, context.campaign, actor, template_name, npc=True
            )
            existing = {
                c.name_key
                for c in (
                    await session.exec(
                        select(Character).where(
                            Character.campaign_id == context.campaign.id,
                            col(Character.deleted_at).is_(None),
                        )
                    )
                ).all()
            }
            made: list[Character] = []
            rolled_hp: dict[str, int] = {}
            logs: list[tuple[str, AuditEntry]] = []
            for name in _free_names(template.name, existing, count):
                sheet, rolls = self._rolled(context.system, template, name, context.settings)
                if rolls:
                    rolled_hp[name] = rolls[-1].total
                logs += [
                    (
                        name,
                        AuditEntry(
                            kind="creation",
                            expression=logged.expression,
                            reason=logged.reason,
                            breakdown=logged.breakdown,
                            total=logged.total,
                            private=template.hidden,
                        ),
                    )
                    for logged in rolls
                ]
                copy = _copy_of(template, name, sheet)
                session.add(copy)
                made.append(copy)
            try:
                await session.flush()
            except IntegrityError:  # another command took one of the names meanwhile
                raise ConcurrentChange() from None
            for name, entry in logs:  # with the copies: both happen or neither does
                await write_audit(session, place, actor, saved_id(context.campaign), name, entry)
        return tuple(NpcCopy(saved_id(c), c.name, c.hidden, rolled_hp.get(c.name)) for c in made)

    def _rolled(
        self, system: GameSystem, template: Character, name: str, settings: Mapping[str, Any]
    ) -> tuple[dict[str, Any], tuple[LoggedRoll, ...]]:
        """The copy's sheet, with what the system rolls again for each copy (its rolls)."""
        sheet = upgraded_sheet(template)
        sheet["name"] = name
        copies = capabilities(system).copy_rolls
        if copies is None:
            return sheet, ()
        rolled, rolls = copies.roll_copy(sheet, settings, self.rng)
        return dict(rolled), rolls

    async def set_visibility(
        self, place: Place, actor: Actor, name: str, hidden: bool
    ) -> CharacterView:
        context = await self.characters.contexts.load(place)
        if not is_referee(context.campaign, actor):
            raise NotAllowed("sheet.error.npc_gm_only")
        # A versioned compare-and-set like every other write: two referees hiding and
        # revealing at once each get a version of their own; the loser re-reads and retries.

        async def attempt() -> CharacterView:
            async with self.sessions() as session, session.begin():
                character = await find_character(session, context.campaign, actor, name, npc=True)
                seen, was_hidden = character.version, character.hidden
                await update_versioned(
                    session,
                    Character,
                    col(Character.id) == character.id,
                    seen,
                    hidden=hidden,
                    updated_at=utcnow(),
                )
                if was_hidden and not hidden:
                    # the reveal is an event: it lifts what the NPC's secrecy sealed in the
                    # records written until now (bot.services.shared.audience)
                    session.add(
                        Reveal(
                            guild_id=context.campaign.guild_id,
                            campaign_id=saved_id(context.campaign),
                            character_id=saved_id(character),
                            by_user_id=actor.user_id,
                        )
                    )
            character.hidden, character.version = hidden, seen + 1
            return character_view(context, character)

        return await retrying(attempt)


def _free_names(template: str, taken: set[str], count: int) -> list[str]:
    """``count`` copy names («Goblin 1» …) the campaign has not taken (``taken`` holds the
    name keys; each existing name can block at most one number, so the range suffices)."""
    names: list[str] = []
    for number in range(1, count + len(taken) + 2):
        if len(names) == count:
            break
        name = copy_name(template, number)
        if name_key(name) in taken:
            continue
        taken.add(name_key(name))
        names.append(name)
    return names


def _copy_of(template: Character, name: str, sheet: dict[str, Any]) -> Character:
    """A new NPC row copying ``template`` (its owner, system, visibility) as ``name``."""
    return Character(
        guild_id=template.guild_id,
        campaign_id=template.campaign_id,
        owner_user_id=template.owner_user_id,
        name=name,
        name_key=name_key(name),
        system=template.system,
        sheet=sheet,
        is_npc=True,
        hidden=template.hidden,
        template_id=template.id,
    )
