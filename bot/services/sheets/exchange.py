"""``/sheet export`` and ``/sheet import``: a character as a versioned JSON document.

The document's format is :mod:`bot.services.sheets.imports` (parsing and strict checks) and
``docs/sheet-format.md``; this service decides what an import may do — create a character,
or replace one through the versioned write path — and who may do it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, Character, saved_id
from bot.grammar import sheet_fields
from bot.services.campaigns.service import is_referee
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.sheets.access import CharacterView, name_clash, name_key, player_sheet
from bot.services.sheets.changes import ReplaceSheet
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.guarded import guarded_paths, is_set, keep_guarded
from bot.services.sheets.heritage import heir_of, still_heir
from bot.services.sheets.imports import (
    check_sheet,
    keep_referee_fields,
    parse_document,
    range_problems,
    referee_changes,
    sheet_document,
)
from bot.services.sheets.schema import upgraded_sheet
from rules.systems.base import (
    FieldSpec,
    GameSystem,
    RulesError,
    Settings,
    XpInheritance,
    capabilities,
)

__all__ = ["SheetExchangeService", "sheet_document"]


class SheetExchangeService:
    """Export and import of sheets, as strict as the commands that set each field."""

    def __init__(self, characters: CharacterService) -> None:
        self.characters = characters
        self.sessions = characters.sessions
        self.contexts = characters.contexts
        self.writer = characters.writer

    async def export(self, place: Place, actor: Actor, name: str | None) -> tuple[str, bytes]:
        """The character as a versioned JSON document (``docs/sheet-format.md``)."""
        view = await self.characters.show(place, actor, name)
        document = sheet_document(view.system, view.is_npc, view.sheet)
        filename = f"{name_key(view.name).replace(' ', '_') or 'personaje'}.json"
        return filename, json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")

    @staticmethod
    def _new_character_xp(
        system: XpInheritance,
        sheet: Mapping[str, Any],
        filled: Mapping[str, Any],
        heir: Mapping[str, Any] | None,
        settings: Mapping[str, Any],
        changed: tuple[str, ...],
        guarded: tuple[FieldSpec, ...],
        *,
        referee: bool,
    ) -> tuple[tuple[str, ...], Mapping[str, Any]]:
        """A new character's experience by the system's one rule, and the referee-only fields
        the player's file still sets: the values the rule gives are not the player's doing;
        other ones (a veteran's experience) stay in the file and wait for the GM."""
        inherited = int(heir["xp"]) if heir is not None else None
        if changed:
            try:
                ruled = system.new_character_xp(filled, inherited, settings, referee=False)
            except RulesError:
                pass  # the file's own experience may pay for it: the GM decides
            else:
                by_rule = referee_changes(sheet, ruled, guarded)
                changed = tuple(label for label in changed if label in by_rule)
        if changed:  # waiting for the GM: the file's experience, which the GM approves or not
            return changed, system.new_character_xp(filled, inherited, settings, referee=True)
        return changed, system.new_character_xp(filled, inherited, settings, referee=referee)

    async def import_sheet(
        self, place: Place, actor: Actor, payload: bytes, *, replace: bool = False
    ) -> CharacterView:
        """Store an exported document as strictly as the commands would (docs/sheet-format.md).

        Every problem is listed and nothing is half-saved.  A name already in the campaign is
        refused unless ``replace``: then its owner or the referee replaces that character's
        sheet through the versioned write, keeping its id, its log and its XP ledger.  A
        player cannot set what ``/sheet set`` reserves to the referee: those fields must keep
        their creation values (a new character) or the stored ones (a replaced one).
        """
        document = parse_document(payload)
        context = await self.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        sheet = check_sheet(document, campaign.system, system, settings)
        referee = is_referee(campaign, actor)
        is_npc = document.npc and referee
        specs = tuple(sheet_fields(system, settings))
        existing = await self._named(saved_id(campaign), sheet["name"])
        if existing is not None:
            _may_replace(existing, campaign, actor, sheet["name"], referee=referee, replace=replace)
        guarded = () if referee else tuple(s for s in specs if s.referee_only)
        # The referee-only fields a player's file may not change: a new character's must keep
        # their creation values (missing ones take them); a replaced one's, the stored ones.
        baseline = (
            upgraded_sheet(existing)
            if existing is not None
            else system.new_sheet(sheet["name"], settings)
        )
        npc_sheet = existing.is_npc if existing is not None else is_npc
        filled: Mapping[str, Any] = keep_referee_fields(sheet, baseline, guarded)
        health = guarded_paths(system, settings, referee=referee) if existing is not None else ()
        health_set = tuple(p for p in health if is_set(sheet, p))
        filled = keep_guarded(filled, baseline, health)  # left out: the stored health stays
        # A player's file may hold a referee-only field's creation value (or leave it out);
        # anything else is the referee's to set.
        changed = referee_changes(sheet, baseline, guarded)
        if changed and existing is not None:
            # a stored character's referee-only fields stay the referee's to change
            raise NotAllowed("sheet.error.import_referee_fields", fields=", ".join(changed))
        heir: dict[str, Any] | None = None
        inheritance = capabilities(system).xp_inheritance
        if existing is None and not npc_sheet and inheritance is not None:
            # One rule for a new character's experience, as the wizard gives it (issue 23 §4):
            # the campaign's starting XP or a dead character's, its abilities paid from it.
            heir = await heir_of(self.sessions, campaign, system, settings, actor.user_id)
            changed, filled = self._new_character_xp(
                inheritance, sheet, filled, heir, settings, changed, guarded, referee=referee
            )
        sheet = dict(filled)
        _require_valid(system, sheet if npc_sheet else player_sheet(sheet), settings, specs)
        if existing is None:
            return await self._create(place, actor, sheet, is_npc, heir, changed, campaign)
        # Through the versioned write: the guarded fields are checked again on the version
        # it replaces, so a grant made since the file was read is neither lost nor undone.
        change = ReplaceSheet(sheet, guarded, health=health, health_set=health_set)
        applied = await self.writer.apply(
            place, actor, change, character_id=existing.id, name=existing.name
        )
        return applied.view

    async def _create(
        self,
        place: Place,
        actor: Actor,
        sheet: dict[str, Any],
        is_npc: bool,
        heir: dict[str, Any] | None,
        changed: tuple[str, ...],
        campaign: Campaign,
    ) -> CharacterView:
        """A new character from the file, still the heir it inherited from (if any)."""

        async def still_the_heir(session: AsyncSession) -> None:
            if heir is not None:
                await still_heir(session, saved_id(campaign), actor.user_id, heir)

        # A player's new character that sets referee-only fields is not refused: it waits
        # for the GM's approval (issue 23 §5), like every new one where the campaign asks.
        view = await self.characters.create(
            place,
            actor,
            sheet,
            is_npc=is_npc,
            hidden=is_npc,
            same_transaction=still_the_heir,
            needs_approval=bool(changed),
        )
        return dataclasses.replace(view, referee_fields=changed) if changed else view

    async def _named(self, campaign_id: int, name: str) -> Character | None:
        """The campaign's character of that name (not deleted), if any."""
        async with self.sessions() as session:
            return (
                await session.exec(
                    select(Character).where(
                        Character.campaign_id == campaign_id,
                        Character.name_key == name_key(name),
                        col(Character.deleted_at).is_(None),
                    )
                )
            ).first()


def _require_valid(
    system: GameSystem, sheet: Mapping[str, Any], settings: Settings, specs: tuple[FieldSpec, ...]
) -> None:
    """Every problem at once, the system's and the fields' ranges (RulesError)."""
    problems = list(system.validate(sheet, settings))
    seen = {p.path for p in problems}
    problems += [p for p in range_problems(sheet, specs) if p.path not in seen]
    if problems:
        raise RulesError(problems)


def _may_replace(
    existing: Character,
    campaign: Campaign,
    actor: Actor,
    name: str,
    *,
    referee: bool,
    replace: bool,
) -> None:
    """A name already taken: only ``replace`` replaces it, and only its owner or the referee."""
    if not referee and existing.owner_user_id != actor.user_id:
        # A player can only replace his own character: any other holder of the name (a
        # hidden NPC included) gets the one answer that confirms nothing (name_clash).
        raise name_clash(campaign, actor, name)
    if not replace:
        raise DomainError("sheet.error.import_exists", name=existing.name)
    if not referee and existing.is_npc:
        raise NotAllowed("sheet.error.not_owner", name=existing.name)
