"""Seed 001, MUERTE DE UN PERSONAJE JUGADOR: «el jugador puede crear un nuevo personaje
empleando todos los puntos de experiencia acumulados hasta el momento».  The wizard service on
SQLite and PostgreSQL: the new draft of a player whose last character died starts with that
character's whole experience, says so, keeps it on restart, and passes it on only once."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.services.shared.errors import DomainError
from rules.systems.base import RulesError
from tests.bot.test_creation import ANA, BRUNO, GM, HERE, answer_all
from tests.bot.test_creation import services_with_campaign as _campaign_fixture
from tests.rules.rolweb.test_fight import ardelia

services_with_campaign = _campaign_fixture


def _fallen(name="Ardelia", total=130, spent=40, state="muerto"):
    sheet = ardelia() | {"name": name}
    sheet["atributos"] |= {"Astuto": 5, "Persuasivo": 8}
    sheet["xp"] = {"total": total, "gastada": spent}
    sheet["habilidades"] = {"Medicus": "adepto"} if spent else {}
    if state == "muerto":
        sheet["estado"], sheet["resistencia"] = "muerto", {"actual": 0}
    return sheet


async def test_the_dead_characters_experience_passes_to_the_new_one(services_with_campaign):
    services = services_with_campaign
    await services.characters.create(HERE, ANA, _fallen())
    creation = services.creation
    draft = await creation.start(HERE, ANA, "Brenna")
    assert draft.inherited == ("Ardelia", 130, 130)
    draft = await creation.restart(HERE, ANA, draft.draft_id, draft.version)
    assert draft.inherited == ("Ardelia", 130, 130)  # starting over keeps it
    draft = await answer_all(creation, draft)
    character = await creation.finish(HERE, ANA, draft.draft_id, draft.version)
    assert character.sheet["xp"]["total"] == 130
    again = await creation.start(HERE, ANA, "Cora")  # Brenna lives: nothing more to inherit
    assert again.inherited is None
    other = await creation.start(HERE, BRUNO, "Dax")  # Bruno never lost a character
    assert other.inherited is None


async def test_a_living_or_npc_last_character_passes_nothing(services_with_campaign):
    services = services_with_campaign
    await services.characters.create(HERE, ANA, _fallen(state="activo"))
    assert (await services.creation.start(HERE, ANA, "Brenna")).inherited is None


async def test_small_experience_never_lowers_the_starting_one(services_with_campaign):
    """A character dead with 20 XP: the new one still gets the campaign's xp_inicial 50."""
    services = services_with_campaign
    await services.characters.create(HERE, ANA, _fallen(total=20, spent=0))
    draft = await services.creation.start(HERE, ANA, "Brenna")
    assert draft.inherited == ("Ardelia", 20, 50)  # the reply says both (issue 23 §4)
    draft = await answer_all(services.creation, draft)
    character = await services.creation.finish(HERE, ANA, draft.draft_id, draft.version)
    assert character.sheet["xp"]["total"] == 50


async def test_two_drafts_cannot_both_take_the_experience(services_with_campaign):
    """Both drafts start as heirs; finishing them at the same moment makes one heir (the
    campaign's lock orders the two inserts) and tells the other why."""
    services = services_with_campaign
    await services.characters.create(HERE, ANA, _fallen())
    creation = services.creation
    first = await answer_all(creation, await creation.start(HERE, ANA, "Brenna"))
    second = await answer_all(creation, await creation.start(HERE, ANA, "Cora"))
    results = await asyncio.gather(
        creation.finish(HERE, ANA, first.draft_id, first.version),
        creation.finish(HERE, ANA, second.draft_id, second.version),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    made = [r for r in results if not isinstance(r, Exception)]
    assert len(made) == 1 and made[0].sheet["xp"]["total"] == 130
    assert len(errors) == 1 and isinstance(errors[0], DomainError)
    assert errors[0].key == "heritage.error.already_used"
    assert errors[0].params["name"] == "Ardelia"
    names = {c.name for c in await services.characters.list(HERE, ANA)}
    assert len(names & {"Brenna", "Cora"}) == 1


@pytest.mark.parametrize("deleted", [False, True])
async def test_a_deleted_dead_character_still_passes_its_experience(
    services_with_campaign, deleted
):
    services = services_with_campaign
    await services.characters.create(HERE, ANA, _fallen())
    if deleted:
        await services.characters.delete(HERE, ANA, "Ardelia")
    assert (await services.creation.start(HERE, ANA, "Brenna")).inherited == ("Ardelia", 130, 130)


# -- one rule for a new character's experience, imports included (issue 23 §4) ---------------


def _import_file(sheet, npc=False):
    return json.dumps(
        {"format": "arbitro.sheet", "version": 1, "system": "rolweb", "npc": npc, "sheet": sheet}
    ).encode()


def _newcomer(name="Dax", **abilities):
    sheet = ardelia() | {"name": name}
    sheet["atributos"] |= {"Astuto": 5, "Persuasivo": 8}
    sheet["habilidades"] = dict(abilities)
    return sheet


async def test_an_imported_character_pays_its_abilities_out_of_the_starting_experience(
    services_with_campaign,
):
    """An import started with 0 XP and its abilities for free; the wizard gives 50 and
    charges them.  Now both give the same: total xp_inicial, spent what the abilities cost."""
    services = services_with_campaign
    view = await services.sheet_exchange.import_sheet(
        HERE, BRUNO, _import_file(_newcomer(Medicus="principiante"))
    )
    assert view.sheet["xp"] == {"total": 50, "gastada": 10}
    # the values the rule gives may be in a player's file (an export from the wizard)
    again = _newcomer("Eco", Medicus="adepto") | {"xp": {"total": 50, "gastada": 30}}
    view = await services.sheet_exchange.import_sheet(HERE, BRUNO, _import_file(again))
    assert view.sheet["xp"] == {"total": 50, "gastada": 30}
    # abilities a new character cannot pay for are refused, with the numbers
    rich = _newcomer("Fen", Medicus="maestro", Recuperación="principiante")
    with pytest.raises(RulesError) as refused:
        await services.sheet_exchange.import_sheet(HERE, BRUNO, _import_file(rich))
    (problem,) = refused.value.problems
    assert (problem.key, problem.params) == (
        "rolweb.problem.abilities_cost_more",
        {"cost": 70, "available": 50},
    )


async def test_the_gm_imports_a_veteran_as_recorded(services_with_campaign):
    services = services_with_campaign
    veteran = _newcomer("Gala", Medicus="adepto") | {"xp": {"total": 200, "gastada": 90}}
    view = await services.sheet_exchange.import_sheet(HERE, GM, _import_file(veteran))
    assert view.sheet["xp"] == {"total": 200, "gastada": 90}
    fresh = await services.sheet_exchange.import_sheet(
        HERE, GM, _import_file(_newcomer("Hugo", Medicus="adepto"))
    )
    assert fresh.sheet["xp"] == {"total": 50, "gastada": 30}


async def test_an_imported_character_inherits_from_a_dead_one_once(services_with_campaign):
    services = services_with_campaign
    await services.characters.create(HERE, ANA, _fallen())
    view = await services.sheet_exchange.import_sheet(
        HERE, ANA, _import_file(_newcomer("Brenna", Medicus="principiante"))
    )
    assert view.sheet["xp"] == {"total": 130, "gastada": 10}
    view = await services.sheet_exchange.import_sheet(
        HERE, ANA, _import_file(_newcomer("Cora", Medicus="principiante"))
    )
    assert view.sheet["xp"] == {"total": 50, "gastada": 10}  # Brenna lives: nothing to inherit


async def test_a_players_veteran_waits_for_the_gm_with_its_own_experience(services_with_campaign):
    services = services_with_campaign
    veteran = _newcomer("Gala", Medicus="maestro") | {"xp": {"total": 200, "gastada": 60}}
    view = await services.sheet_exchange.import_sheet(HERE, BRUNO, _import_file(veteran))
    assert (view.approval, view.sheet["xp"]) == ("pending", {"total": 200, "gastada": 60})
    assert view.referee_fields == ("Experiencia", "Experiencia gastada")
