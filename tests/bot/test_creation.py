"""The creation-wizard service against a real database, driven by the rolweb builder."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import select

from bot.db.models import CreationDraft, RollLog
from bot.services import Place
from bot.services.shared.errors import DomainError, NotAllowed
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, CHANNEL, GM, GUILD, HERE

FIRST = {"Ágil": "13", "Astuto": "8", "Atento": "10", "Diestro": "11"}
SECOND = {"Discreto": "10", "Fuerte": "12", "Persuasivo": "9", "Tenaz": "7"}


@pytest.fixture
async def services_with_campaign(services):
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="rolweb", target_id=CHANNEL, kind="channel"
    )
    return services


async def answer_all(creation, draft, actor=ANA):
    """Answer every remaining step with the first option or the standard values; skip optional ones."""
    while draft.step is not None:
        step = draft.step
        if step.key == "atributos_1":
            answer = FIRST
        elif step.key == "atributos_2":
            answer = SECOND
        elif step.optional:
            answer = None
        elif step.kind == "choose":
            answer = [step.options[0].value]
        else:
            answer = {}
        draft = await creation.answer(HERE, actor, draft.draft_id, draft.version, step.key, answer)
    return draft


async def test_a_draft_is_stored_step_by_step_and_finished_into_a_character(services_with_campaign):
    creation = services_with_campaign.creation
    draft = await creation.start(HERE, ANA, "Eira")
    assert draft.step.key == "atributos_1" and draft.done == ()
    draft = await creation.answer(HERE, ANA, draft.draft_id, draft.version, "atributos_1", FIRST)
    assert draft.done == ("atributos_1",) and draft.version == 2
    assert (await creation.resume(HERE, ANA)).draft_id == draft.draft_id
    draft = await answer_all(creation, draft)
    assert draft.problems == ()
    character = await creation.finish(HERE, ANA, draft.draft_id, draft.version)
    assert character.name == "Eira" and character.sheet["atributos"]["Fuerte"] == 12
    assert await creation.resume(HERE, ANA) is None  # the draft is closed
    with pytest.raises(DomainError) as closed:
        await creation.show(HERE, ANA, draft.draft_id)
    assert closed.value.key == "sheet.error.draft_gone"
    async with services_with_campaign.sessions() as session:  # deleted, not kept forever
        assert await session.get(CreationDraft, draft.draft_id) is None


async def test_a_wrong_answer_changes_nothing(services_with_campaign):
    creation = services_with_campaign.creation
    draft = await creation.start(HERE, ANA, "Eira")
    with pytest.raises(RulesError):
        await creation.answer(
            HERE, ANA, draft.draft_id, draft.version, "atributos_1", {**FIRST, "Ágil": "16"}
        )
    again = await creation.show(HERE, ANA, draft.draft_id)
    assert (again.version, again.done) == (draft.version, ())


async def test_stale_versions_wrong_steps_and_strangers_are_refused(services_with_campaign):
    creation = services_with_campaign.creation
    draft = await creation.start(HERE, ANA, "Eira")
    with pytest.raises(DomainError) as wrong_step:
        await creation.answer(HERE, ANA, draft.draft_id, draft.version, "atributos_2", SECOND)
    assert wrong_step.value.key == "sheet.error.draft_stale"
    with pytest.raises(NotAllowed):
        await creation.answer(HERE, BRUNO, draft.draft_id, draft.version, "atributos_1", FIRST)
    with pytest.raises(DomainError) as required:
        await creation.answer(HERE, ANA, draft.draft_id, draft.version, "atributos_1", None)
    assert required.value.key == "sheet.error.step_required"
    # two answers to the same version at once: exactly one is applied
    results = await asyncio.gather(
        creation.answer(HERE, ANA, draft.draft_id, draft.version, "atributos_1", FIRST),
        creation.answer(HERE, ANA, draft.draft_id, draft.version, "atributos_1", FIRST),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    assert len(applied) == 1
    assert [e.key for e in results if isinstance(e, DomainError)] == ["sheet.error.draft_stale"]


async def test_npc_drafts_are_for_referees_and_restart_keeps_the_name(services_with_campaign):
    creation = services_with_campaign.creation
    with pytest.raises(NotAllowed):
        await creation.start(HERE, ANA, "Trasgo", npc=True)
    draft = await creation.start(HERE, GM, "Trasgo", npc=True)
    assert draft.is_npc
    draft = await creation.answer(HERE, GM, draft.draft_id, draft.version, draft.step.key, FIRST)
    restarted = await creation.restart(HERE, GM, draft.draft_id, draft.version)
    assert restarted.done == () and restarted.name == "Trasgo"
    await creation.cancel(HERE, GM, restarted.draft_id, restarted.version)
    assert await creation.resume(HERE, GM, npc=True) is None
    async with services_with_campaign.sessions() as session:  # a cancelled draft is deleted
        assert await session.get(CreationDraft, restarted.draft_id) is None


async def test_finishing_early_is_refused(services_with_campaign):
    creation = services_with_campaign.creation
    draft = await creation.start(HERE, ANA, "Eira")
    with pytest.raises(DomainError) as early:
        await creation.finish(HERE, ANA, draft.draft_id, draft.version)
    assert early.value.key == "sheet.error.draft_unfinished"


async def test_rolls_made_while_building_are_logged(services_with_campaign):
    """S&W rolls 3d6 in order: each roll lands in the audit log under the character's name."""
    services = services_with_campaign
    place = Place(GUILD, 12, (12,))
    await services.campaigns.create(
        place, GM, name="S&W", system="swc", target_id=12, kind="channel"
    )
    draft = await services.creation.start(place, ANA, "Borin")
    assert draft.step.kind == "roll"
    await services.creation.answer(place, ANA, draft.draft_id, draft.version, draft.step.key, {})
    async with services.sessions() as session:
        rows = (await session.exec(select(RollLog).where(RollLog.kind == "creation"))).all()
    assert len(rows) >= 6 and all(r.character_name == "Borin" and r.channel_id == 12 for r in rows)


async def test_finishing_twice_at_once_makes_one_character(services_with_campaign):
    creation = services_with_campaign.creation
    draft = await answer_all(creation, await creation.start(HERE, ANA, "Eira"))
    results = await asyncio.gather(
        creation.finish(HERE, ANA, draft.draft_id, draft.version),
        creation.finish(HERE, ANA, draft.draft_id, draft.version),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, DomainError) for r in results if isinstance(r, BaseException))
    assert [c.name for c in await services_with_campaign.characters.list(HERE, ANA)] == ["Eira"]


async def test_the_last_step_carries_the_whole_sheet_as_it_will_be_saved(services_with_campaign):
    creation = services_with_campaign.creation
    draft = await answer_all(creation, await creation.start(HERE, ANA, "Eira"))
    assert draft.step is None and draft.problems == ()
    assert draft.sheet["atributos"]["Fuerte"] == 12 and draft.system_name
    assert {spec.path for spec in draft.fields} >= {"atributos.Fuerte"}
    assert draft.derived  # Defensa, Iniciativa…: what /sheet show derives
    saved = await creation.finish(HERE, ANA, draft.draft_id, draft.version)
    assert dict(saved.sheet) == dict(draft.sheet)
    assert [(d.label, d.value) for d in saved.derived] == [
        (d.label, d.value) for d in draft.derived
    ]
    midway = await creation.start(HERE, ANA, "Otra")
    assert midway.sheet == {} and midway.fields == () and midway.derived == ()


async def test_resume_by_name_compares_folded_and_prefers_that_draft(services_with_campaign):
    creation = services_with_campaign.creation
    nuno = await creation.start(HERE, ANA, "nuno")
    await creation.start(HERE, ANA, "Eira")  # newer
    assert (await creation.resume(HERE, ANA)).name == "Eira"
    assert (await creation.resume(HERE, ANA, name="ÑUÑO")).draft_id == nuno.draft_id
    assert (await creation.resume(HERE, ANA, name="Zoe")).name == "Eira"  # none of that name


async def test_starting_a_new_draft_abandons_the_old_one_in_the_same_transaction(
    services_with_campaign,
):
    creation = services_with_campaign.creation
    old = await creation.start(HERE, ANA, "nuno")
    with pytest.raises(DomainError):  # a bad new name: the old draft stays
        await creation.start(HERE, ANA, " ", replacing=(old.draft_id, old.version))
    assert (await creation.show(HERE, ANA, old.draft_id)).version == old.version
    with pytest.raises(NotAllowed):  # nobody replaces someone else's draft
        await creation.start(HERE, BRUNO, "Otro", replacing=(old.draft_id, old.version))
    results = await asyncio.gather(
        creation.start(HERE, ANA, "ÑUÑO", replacing=(old.draft_id, old.version)),
        creation.start(HERE, ANA, "ÑUÑO", replacing=(old.draft_id, old.version)),
        return_exceptions=True,
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    assert len(made) == 1 and made[0].name == "ÑUÑO", results
    assert all(isinstance(e, DomainError) for e in results if isinstance(e, BaseException))
    async with services_with_campaign.sessions() as session:
        rows = (
            await session.exec(select(CreationDraft).where(CreationDraft.user_id == ANA.user_id))
        ).all()
    assert [r.id for r in rows] == [made[0].draft_id]
