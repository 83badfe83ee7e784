"""The character-creation wizard: one stored draft, one step at a time.

The system decides the questions (:class:`rules.systems.base.CharacterBuilder`); this
service stores the draft after every answer (a play-by-post player may take days), logs
every roll made while building, refuses stale clicks by version, and hands the finished
sheet to :class:`CharacterService` for the final validation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.locks import lock_campaign
from bot.db.models import Campaign, CreationDraft, saved_id, utcnow
from bot.grammar import GENDER_PATH, GENDERS, gender_of
from bot.services.campaigns.service import is_referee
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.shared.versioned import delete_versioned, update_versioned
from bot.services.sheets.access import checked_name
from bot.services.sheets.changes import builder_of
from bot.services.sheets.characters import CharacterView
from bot.services.sheets.heritage import heir_of, still_heir
from bot.services.sheets.use_case import CharacterUseCase
from rules.systems.base import (
    CharacterBuilder,
    CreationStep,
    DerivedValue,
    FieldSpec,
    GameSystem,
    LoggedRoll,
    Problem,
    RulesError,
    capabilities,
)
from rules.text import fold

__all__ = ["CreationService", "DraftView", "HEIR", "MAX_OPEN_DRAFTS"]

#: Open drafts a member may keep per campaign (finish or cancel one to start another).
MAX_OPEN_DRAFTS = 10
#: Where a draft keeps the dead character whose experience it took over (next to ``draft``).
HEIR = "herencia"


@dataclass(frozen=True, slots=True)
class DraftView:
    draft_id: int
    version: int
    name: str
    system: str
    is_npc: bool
    step: CreationStep | None
    notes: tuple[Problem, ...]
    problems: tuple[Problem, ...]
    done: tuple[str, ...]
    #: (dead character's name, experience) this draft took over (rolweb, seed 001).
    #: (dead character, the XP it passes on, the XP this one starts with: never less than
    #: the campaign's starting XP, XpInheritance.starting_xp)
    inherited: tuple[str, int, int] | None = None
    gender: str | None = None  # chosen on the last screen (optional), for agreement
    #: At the last step (``step is None``): the sheet exactly as «Guardar» will store it, with
    #: the system's fields and derived values, so the wizard can show it before saving.
    sheet: Mapping[str, Any] = field(default_factory=dict)
    fields: tuple[FieldSpec, ...] = ()
    derived: tuple[DerivedValue, ...] = ()
    system_name: str = ""


class CreationService(CharacterUseCase):
    async def resume(
        self, place: Place, actor: Actor, *, npc: bool = False, name: str | None = None
    ) -> DraftView | None:
        """The actor's open draft in this campaign, if one is waiting (newest first).

        With ``name``, the draft of that name (compared folded: «ÑUÑO» is «nuno») comes
        first; the caller asks before replacing a draft whose name was typed differently."""
        context = await self.characters.contexts.load(place)
        async with self.sessions() as session:
            drafts = (
                await session.exec(
                    select(CreationDraft)
                    .where(
                        CreationDraft.guild_id == context.campaign.guild_id,
                        CreationDraft.campaign_id == context.campaign.id,
                        CreationDraft.user_id == actor.user_id,
                        CreationDraft.is_npc == npc,
                        CreationDraft.status == "open",
                    )
                    .order_by(col(CreationDraft.id).desc())
                )
            ).all()
        if not drafts:
            return None
        wanted = None if name is None else fold(name)
        named = [d for d in drafts if fold(str(d.sheet.get("draft", {}).get("name", ""))) == wanted]
        draft = (named or drafts)[0]
        return self._view(draft, context.system, builder_of(context.system), context.settings, ())

    async def start(
        self,
        place: Place,
        actor: Actor,
        name: str,
        *,
        npc: bool = False,
        replacing: tuple[int, int] | None = None,
    ) -> DraftView:
        """A new draft; ``replacing`` (draft id, version) abandons that open draft of the
        actor in the same transaction, so the old one is gone only if the new one exists
        (and only as the actor last saw it)."""
        context = await self.characters.contexts.load(place)
        old = None
        if replacing is not None:
            old = (await self._load(place, actor, replacing[0], replacing[1]))[4]
        if npc and not is_referee(context.campaign, actor):
            raise NotAllowed("sheet.error.npc_gm_only")
        name = checked_name(name)
        builder = builder_of(context.system)
        sheet = context.system.new_sheet(name, context.settings)
        state: dict[str, Any] = {"draft": sheet, "done": []}
        heir = (
            None
            if npc
            else await heir_of(
                self.sessions, context.campaign, context.system, context.settings, actor.user_id
            )
        )
        inheritance = capabilities(context.system).xp_inheritance
        if heir is not None and inheritance is not None:
            state["draft"] = inheritance.inherit_xp(sheet, heir["xp"], context.settings)
            state[HEIR] = heir
        draft = CreationDraft(
            guild_id=context.campaign.guild_id,
            campaign_id=saved_id(context.campaign),
            user_id=actor.user_id,
            is_npc=npc,
            sheet=state,
        )
        async with self.sessions() as session, session.begin():
            # Insert, then count in the same transaction behind the campaign's lock
            # (bot.db.locks): two wizards opened at once cannot both slip under the cap.
            await lock_campaign(session, saved_id(context.campaign))
            if old is not None:
                # SQLite may give a deleted draft's id to the next one: the creation time
                # tells the draft the actor saw from a newer one under the same id.
                await _delete_draft(session, saved_id(old), old.version, old.created_at)
            session.add(draft)
            await session.flush()
            await self._check_open_drafts(session, saved_id(context.campaign), actor.user_id, npc)
        return self._view(draft, context.system, builder, context.settings, ())

    @staticmethod
    async def _check_open_drafts(
        session: AsyncSession, campaign_id: int, user_id: int, npc: bool
    ) -> None:
        """At most :data:`MAX_OPEN_DRAFTS` unfinished characters (or NPCs) per member and
        campaign: an abandoned wizard is cheap, a script opening thousands is not.  Counted
        after the new draft's insert, so the new one is included."""
        count = (
            await session.exec(
                select(func.count())
                .select_from(CreationDraft)
                .where(
                    CreationDraft.campaign_id == campaign_id,
                    CreationDraft.user_id == user_id,
                    CreationDraft.is_npc == npc,
                    CreationDraft.status == "open",
                )
            )
        ).one()
        if count > MAX_OPEN_DRAFTS:
            raise DomainError("sheet.error.too_many_drafts", limit=MAX_OPEN_DRAFTS)

    async def _load(
        self, place: Place, actor: Actor, draft_id: int, version: int | None
    ) -> tuple[Campaign, GameSystem, CharacterBuilder, Mapping[str, Any], CreationDraft]:
        context = await self.characters.contexts.load(place)
        async with self.sessions() as session:
            draft = await session.get(CreationDraft, draft_id)
        if (
            draft is None
            or draft.guild_id != context.campaign.guild_id
            or draft.campaign_id != context.campaign.id
        ):
            raise DomainError("sheet.error.draft_gone")
        if draft.user_id != actor.user_id:
            raise NotAllowed("sheet.error.not_your_draft")
        if draft.status != "open":
            raise DomainError("sheet.error.draft_closed")
        if version is not None and draft.version != version:
            raise DomainError("sheet.error.draft_stale")
        return context.campaign, context.system, builder_of(context.system), context.settings, draft

    async def show(self, place: Place, actor: Actor, draft_id: int) -> DraftView:
        _campaign, system, builder, settings, draft = await self._load(place, actor, draft_id, None)
        return self._view(draft, system, builder, settings, ())

    async def answer(
        self,
        place: Place,
        actor: Actor,
        draft_id: int,
        version: int,
        step_key: str,
        answer: Any,
    ) -> DraftView:
        """Apply one answer; the system validates it and the draft is stored under a version check."""
        _campaign, system, builder, settings, draft = await self._load(
            place, actor, draft_id, version
        )
        state = dict(draft.sheet)
        done = tuple(state.get("done", ()))
        current = builder.creation_step(state["draft"], done, settings, npc=draft.is_npc)
        if current is None and step_key == GENDER_PATH:
            return await self._set_gender(draft, version, answer, system, builder, settings)
        if current is None or current.key != step_key:
            raise DomainError("sheet.error.draft_stale")
        if answer is None and not current.optional:
            raise DomainError("sheet.error.step_required")
        rolls: tuple[LoggedRoll, ...]
        notes: tuple[Problem, ...]
        if answer is None:
            new_sheet, rolls, notes = state["draft"], (), ()
        else:
            outcome = builder.apply_creation_step(
                state["draft"], step_key, answer, settings, self.rng, npc=draft.is_npc
            )
            new_sheet, rolls, notes = dict(outcome.draft), outcome.rolls, outcome.notes
        new_state = {**state, "draft": new_sheet, "done": [*done, step_key]}
        async with self.sessions() as session, session.begin():
            await _store_draft(session, saved_id(draft), version, new_state)
            character_name = str(new_sheet.get("name", "")) or None
            for roll in rolls:
                entry = AuditEntry(
                    kind="creation",
                    expression=roll.expression,
                    reason=roll.reason,
                    breakdown=roll.breakdown,
                    total=roll.total,
                )
                await write_audit(session, place, actor, draft.campaign_id, character_name, entry)
        draft.sheet = new_state
        draft.version += 1
        return self._view(draft, system, builder, settings, tuple(notes))

    async def _set_gender(
        self,
        draft: CreationDraft,
        version: int,
        answer: Any,
        system: GameSystem,
        builder: CharacterBuilder,
        settings: Mapping[str, Any],
    ) -> DraftView:
        """The optional grammatical gender, chosen on the wizard's last screen."""
        values = list(answer) if isinstance(answer, (list, tuple)) else []
        if len(values) != 1 or values[0] not in GENDERS:
            raise DomainError("sheet.error.step_required")
        state = dict(draft.sheet)
        new_state = {**state, "draft": {**state["draft"], GENDER_PATH: values[0]}}
        async with self.sessions() as session, session.begin():
            await _store_draft(session, saved_id(draft), version, new_state)
        draft.sheet = new_state
        draft.version += 1
        return self._view(draft, system, builder, settings, ())

    async def restart(self, place: Place, actor: Actor, draft_id: int, version: int) -> DraftView:
        """Start over with the same name (rolled scores are rolled again, and logged again)."""
        _campaign, system, builder, settings, draft = await self._load(
            place, actor, draft_id, version
        )
        name = str(draft.sheet.get("draft", {}).get("name", "")) or "?"
        new_state: dict[str, Any] = {"draft": system.new_sheet(name, settings), "done": []}
        heir = draft.sheet.get(HEIR)
        inheritance = capabilities(system).xp_inheritance
        if isinstance(heir, dict) and inheritance is not None:
            new_state["draft"] = inheritance.inherit_xp(
                new_state["draft"], int(heir["xp"]), settings
            )
            new_state[HEIR] = heir
        async with self.sessions() as session, session.begin():
            await _store_draft(session, saved_id(draft), version, new_state)
        draft.sheet = new_state
        draft.version += 1
        return self._view(draft, system, builder, settings, ())

    async def cancel(self, place: Place, actor: Actor, draft_id: int, version: int) -> None:
        await self._close(place, actor, draft_id, version)

    async def finish(
        self, place: Place, actor: Actor, draft_id: int, version: int
    ) -> CharacterView:
        """Store the character: the system validates the whole sheet one last time."""
        _campaign, system, builder, settings, draft = await self._load(
            place, actor, draft_id, version
        )
        state = dict(draft.sheet)
        if builder.creation_step(
            state["draft"], tuple(state.get("done", ())), settings, npc=draft.is_npc
        ):
            raise DomainError("sheet.error.draft_unfinished")

        heir = state.get(HEIR)

        async def close_draft(session: AsyncSession) -> None:
            if isinstance(heir, dict):
                await still_heir(session, draft.campaign_id, draft.user_id, heir)
            await _delete_draft(session, draft_id, version)

        return await self.characters.create(
            place,
            actor,
            state["draft"],
            is_npc=draft.is_npc,
            hidden=draft.is_npc,
            same_transaction=close_draft,
        )

    async def _close(self, place: Place, actor: Actor, draft_id: int, version: int) -> None:
        await self._load(place, actor, draft_id, version)
        async with self.sessions() as session, session.begin():
            await _delete_draft(session, draft_id, version)

    @staticmethod
    def _view(
        draft: CreationDraft,
        system: GameSystem,
        builder: CharacterBuilder,
        settings: Mapping[str, Any],
        notes: Iterable[Problem],
    ) -> DraftView:
        state = dict(draft.sheet)
        sheet = state["draft"]
        done = tuple(state.get("done", ()))
        step = builder.creation_step(sheet, done, settings, npc=draft.is_npc)
        problems = tuple(system.validate(sheet, settings)) if step is None else ()
        derived: tuple[DerivedValue, ...] = ()
        if step is None:
            try:
                derived = tuple(system.derived(sheet, settings))
            except RulesError as error:  # shown with its problems; «Guardar» is not offered
                problems = problems or tuple(error.problems)
        return DraftView(
            draft_id=saved_id(draft),
            version=draft.version,
            name=str(sheet.get("name", "")),
            system=system.id,
            is_npc=draft.is_npc,
            step=step,
            notes=tuple(notes),
            problems=problems,
            done=done,
            inherited=_inherited(system, settings, state.get(HEIR)),
            gender=gender_of(sheet),
            sheet=dict(sheet) if step is None else {},
            fields=tuple(system.fields(settings)) if step is None else (),
            derived=derived,
            system_name=system.name,
        )


def _inherited(
    system: GameSystem, settings: Mapping[str, Any], heir: Any
) -> tuple[str, int, int] | None:
    """What a draft inherits, as its view shows it: whose, how much, and what it starts with."""
    inheritance = capabilities(system).xp_inheritance
    if not isinstance(heir, dict) or inheritance is None:
        return None
    xp = int(heir["xp"])
    return str(heir["name"]), xp, inheritance.starting_xp(xp, settings)


async def _delete_draft(
    session: AsyncSession, draft_id: int, version: int, created_at: datetime | None = None
) -> None:
    """A finished or abandoned draft is deleted, under its version check.

    The character (or nothing) is what remains; keeping closed drafts only grew the table
    (issue 14 §1).  A click on the wizard of a deleted draft answers ``draft_gone``.
    """
    same_draft = [] if created_at is None else [col(CreationDraft.created_at) == created_at]
    await delete_versioned(  # reported: the click was on the wizard as it was
        session,
        CreationDraft,
        col(CreationDraft.id) == draft_id,
        version,
        *same_draft,
        stale="sheet.error.draft_stale",
    )


async def _store_draft(
    session: AsyncSession, draft_id: int, version: int, state: dict[str, Any]
) -> None:
    """A draft's new state, under its version check (a second click finds it stale)."""
    await update_versioned(  # reported: the click was on the wizard as it was
        session,
        CreationDraft,
        col(CreationDraft.id) == draft_id,
        version,
        sheet=state,
        updated_at=utcnow(),
        stale="sheet.error.draft_stale",
    )
