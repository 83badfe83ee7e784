"""Character use cases against a real SQLite file: ownership, versions, soft delete, files."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.services.shared.errors import ConcurrentChange, DomainError, NotAllowed
from bot.services.sheets.characters import name_key
from rules import systems
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, CHANNEL, GM, HERE


def rolweb_sheet(name="Eira", **attributes):
    from bot.services.campaigns.settings import resolved_settings

    system = systems.get("rolweb")
    sheet = system.new_sheet(name, resolved_settings(system.settings(), {}))
    sheet["atributos"].update(attributes)
    return sheet


@pytest.fixture
async def campaign(services):
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="rolweb", target_id=CHANNEL, kind="channel"
    )
    return services


def test_name_key_ignores_case_and_accents():
    assert name_key("  Ardélia ") == name_key("ARDELIA") == "ardelia"


async def test_create_show_and_active_character(campaign):
    view = await campaign.characters.create(HERE, ANA, rolweb_sheet())
    assert view.owner_user_id == ANA.user_id and not view.is_npc
    assert (await campaign.characters.show(HERE, ANA)).name == "Eira"  # the active one
    with pytest.raises(DomainError) as error:
        await campaign.characters.show(HERE, BRUNO)
    assert error.value.key == "sheet.error.no_active"
    assert {d.key for d in view.derived} >= {"resistencia", "umbral_de_dolor", "defensa"}


async def test_illegal_sheets_are_refused_with_every_problem(campaign):
    with pytest.raises(RulesError) as error:
        await campaign.characters.create(HERE, ANA, dict(rolweb_sheet(Ágil=30), estado="volando"))
    assert len(error.value.problems) >= 2
    with pytest.raises(DomainError) as wrong:
        await campaign.characters.create(HERE, ANA, dict(rolweb_sheet(), system="nucleo"))
    assert wrong.value.key == "sheet.error.wrong_system"
    # the systems by their names, never their ids (issue 13)
    assert wrong.value.params == {"system": "Núcleo", "expected": "Partida Rol por web"}


async def test_names_are_unique_per_campaign(campaign):
    await campaign.characters.create(HERE, ANA, rolweb_sheet("Eira"))
    with pytest.raises(DomainError) as error:
        await campaign.characters.create(HERE, GM, rolweb_sheet("EÍRA"))
    assert error.value.key == "sheet.error.name_taken"
    with pytest.raises(DomainError) as error:
        await campaign.characters.create(HERE, BRUNO, rolweb_sheet("EÍRA"))
    assert error.value.key == "sheet.error.name_unavailable"


async def test_a_hidden_npcs_name_is_refused_without_confirming_it_exists(campaign):
    """Creating, importing or renaming onto a hidden NPC's name answers a player exactly as
    any other taken name would: the refusal names no NPC and differs from nothing else."""
    await campaign.characters.create(HERE, GM, rolweb_sheet("Trasgo"), is_npc=True, hidden=True)
    await campaign.characters.create(HERE, ANA, rolweb_sheet("Eira"))
    refusals = []
    for attempt in (
        campaign.characters.create(HERE, BRUNO, rolweb_sheet("trasgo")),
        campaign.sheet_exchange.import_sheet(
            HERE,
            BRUNO,
            json.dumps(
                {
                    "format": "arbitro.sheet",
                    "version": 1,
                    "system": "rolweb",
                    "sheet": rolweb_sheet("Trasgo"),
                }
            ).encode(),
        ),
        campaign.characters.set_field(HERE, ANA, "Eira", "name", "Trasgo"),
        campaign.characters.create(HERE, BRUNO, rolweb_sheet("Eira")),  # a visible one
    ):
        with pytest.raises(DomainError) as error:
            await attempt
        refusals.append(error.value.key)
    assert refusals == ["sheet.error.name_unavailable"] * 4
    assert (await campaign.characters.show(HERE, ANA, "Eira")).name == "Eira"


async def test_only_the_owner_or_a_referee_edits(campaign):
    await campaign.characters.create(HERE, ANA, rolweb_sheet())
    with pytest.raises(NotAllowed):
        await campaign.characters.set_field(HERE, BRUNO, "Eira", "resistencia.actual", "5")
    view = await campaign.characters.set_field(HERE, GM, "Eira", "resistencia.actual", "5")
    assert view.sheet["resistencia"]["actual"] == 5
    with pytest.raises(NotAllowed) as refused:  # players cannot award themselves experience
        await campaign.characters.set_field(HERE, ANA, None, "xp.total", "30")
    assert refused.value.key == "sheet.error.referee_field"
    view = await campaign.characters.set_field(HERE, GM, "Eira", "xp.total", "30")
    assert view.sheet["xp"]["total"] == 30
    with pytest.raises(RulesError) as error:  # 81 points: the system refuses and names why
        await campaign.characters.set_field(HERE, ANA, None, "atributos.Ágil", "11")
    assert error.value.problems[0].key == "rolweb.problem.pool_mismatch"
    with pytest.raises(DomainError):
        await campaign.characters.set_field(HERE, ANA, None, "no.existe", "1")


async def test_concurrent_edits_are_never_lost(campaign):
    await campaign.characters.create(HERE, ANA, rolweb_sheet())

    def bump(sheet, _system, _settings):
        sheet = json.loads(json.dumps(sheet))
        sheet["xp"]["total"] += 1
        return sheet

    results = await asyncio.gather(
        *(campaign.characters.update_sheet(HERE, ANA, None, bump) for _ in range(3)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    assert all(isinstance(r, ConcurrentChange) for r in results if isinstance(r, Exception))
    final = await campaign.characters.show(HERE, ANA)
    assert final.sheet["xp"]["total"] == len(applied)
    assert final.version == 1 + len(applied)


async def test_soft_delete_and_restore(campaign):
    await campaign.characters.create(HERE, ANA, rolweb_sheet())
    with pytest.raises(NotAllowed):
        await campaign.characters.delete(HERE, BRUNO, "Eira")
    await campaign.characters.delete(HERE, ANA, "Eira")
    with pytest.raises(DomainError):
        await campaign.characters.show(HERE, ANA, "Eira")
    assert [c.name for c in await campaign.characters.list(HERE, GM, deleted=True)] == ["Eira"]
    with pytest.raises(NotAllowed):
        await campaign.characters.restore(HERE, ANA, "Eira")
    restored = await campaign.characters.restore(HERE, GM, "eira")
    assert restored.name == "Eira"


async def test_export_import_round_trip(campaign):
    await campaign.characters.create(HERE, ANA, rolweb_sheet())
    filename, payload = await campaign.sheet_exchange.export(HERE, ANA, None)
    assert filename == "eira.json"
    document = json.loads(payload)
    document["sheet"]["name"] = "Eira II"
    view = await campaign.sheet_exchange.import_sheet(HERE, BRUNO, json.dumps(document).encode())
    assert (
        view.owner_user_id == BRUNO.user_id
        and view.sheet["atributos"] == document["sheet"]["atributos"]
    )
    for bad, key in (
        (b"\xff", "formats.json.not_utf8"),
        (b'{"format": "arbitro.sheet",\n "version" 1}', "formats.json.invalid_file"),
        (b"[]", "sheet.error.import_wrong_format"),
        (
            json.dumps({"format": "arbitro.sheet", "version": 9}).encode(),
            "sheet.error.import_wrong_version",
        ),
        (
            json.dumps({"format": "arbitro.sheet", "version": 1}).encode(),
            "sheet.error.import_no_sheet",
        ),
    ):
        with pytest.raises(DomainError) as error:
            await campaign.sheet_exchange.import_sheet(HERE, ANA, bad)
        assert error.value.key == key


async def test_npcs_are_the_gms_and_hidden_ones_are_invisible(campaign):
    with pytest.raises(NotAllowed):
        await campaign.characters.create(HERE, ANA, rolweb_sheet("Trasgo"), is_npc=True)
    await campaign.characters.create(HERE, GM, rolweb_sheet("Trasgo"), is_npc=True, hidden=True)
    copies = await campaign.npcs.copies(HERE, GM, "Trasgo", 3)
    assert [c.name for c in copies] == ["Trasgo 1", "Trasgo 2", "Trasgo 3"]
    more = await campaign.npcs.copies(HERE, GM, "Trasgo", 1)
    assert [c.name for c in more] == ["Trasgo 4"]
    assert await campaign.characters.list(HERE, ANA, npcs=True) == ()
    assert len(await campaign.characters.list(HERE, GM, npcs=True)) == 5
    assert await campaign.characters.names(HERE, ANA, "tra") == []
    await campaign.npcs.set_visibility(HERE, GM, "Trasgo 2", hidden=False)
    assert await campaign.characters.names(HERE, ANA, "tra") == ["Trasgo 2"]


async def test_a_player_sheet_never_keeps_the_npc_flag(campaign):
    loose = dict(rolweb_sheet("Tramposo"), pnj=True)
    view = await campaign.characters.create(HERE, ANA, loose)
    assert "pnj" not in view.sheet

    def sneak(sheet, _system, _settings):
        return dict(sheet, pnj=True)

    edited = await campaign.characters.update_sheet(HERE, ANA, None, sneak)
    assert "pnj" not in edited.sheet


async def test_simultaneous_reveals_and_hides_each_get_a_version(campaign):
    """``/npc reveal`` is a versioned compare-and-set: ten referees' clicks at once give ten
    versions, not several states sharing one (the write used to bump a version it read)."""
    import asyncio

    from sqlmodel import select

    from bot.db.models import Character

    start = await campaign.characters.create(
        HERE, GM, rolweb_sheet("Trasgo"), is_npc=True, hidden=True
    )
    views = await asyncio.gather(
        *(campaign.npcs.set_visibility(HERE, GM, "Trasgo", hidden=bool(i % 2)) for i in range(10))
    )
    assert sorted(v.version for v in views) == list(range(start.version + 1, start.version + 11))
    async with campaign.sessions() as session:
        stored = (await session.exec(select(Character).where(Character.name == "Trasgo"))).one()
    assert stored.version == start.version + 10
    last = max(views, key=lambda v: v.version)
    assert stored.hidden == last.hidden
