"""``/sheet import`` is as strict as the commands (issue 9 §4), on real databases.

Each case was accepted before: XP 9,999,999 set by a player, a Núcleo file in another
campaign's system, 200 KB of unknown keys, ``name: 12345``, ``heridas: 10**400``, a
50,000-level document, a 500-character name through ``/sheet set``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import update
from sqlmodel import select

from bot.db.models import Character, RollLog, XpAward
from bot.services import Actor
from bot.services.campaigns.service import SettingsChange
from bot.services.play.checks import CheckOrder
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.sheets.imports import MAX_DEPTH, range_problems
from bot.services.sheets.schema import SHEET_SCHEMA_VERSION
from rules.systems.base import FieldKind, FieldSpec, RulesError
from tests.bot.table import ANA, BRUNO, CHANNEL, GM, HERE
from tests.examples import ARDELIA


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    return services


def ardelia(**changes: Any) -> dict[str, Any]:
    return json.loads(json.dumps(ARDELIA)) | changes


def document(sheet: dict[str, Any], **extra: Any) -> bytes:
    doc = {"format": "arbitro.sheet", "version": 1, "system": sheet.get("system"), "npc": False}
    return json.dumps(doc | {"sheet": sheet} | extra).encode()


async def refused(table: Any, actor: Actor, payload: bytes, **kwargs: Any) -> DomainError:
    with pytest.raises(DomainError) as error:
        await table.sheet_exchange.import_sheet(HERE, actor, payload, **kwargs)
    async with table.sessions() as session:
        assert (await session.exec(select(Character))).all() == [], "nothing stored"
    return error.value


async def test_what_only_the_referee_sets_waits_for_the_referee(table):
    """Issue 23 §5: a player's new character that sets referee-only fields is stored waiting
    for the GM's approval (it was refused: the GM had to import, transfer, and the player
    then `/sheet use` it), naming the fields; the GM approves it with its values."""
    pending = await table.sheet_exchange.import_sheet(HERE, ANA, document(ardelia(px=40)))
    assert (pending.approval, pending.referee_fields, pending.sheet["px"]) == (
        "pending",
        ("PX",),
        40,
    )
    approved = await table.approvals.decide(HERE, GM, pending.id, approve=True)
    assert approved.made_active  # Ana had no character: it is her active one now
    assert (await table.characters.show(HERE, ANA)).sheet["px"] == 40
    # Creation values (or leaving the field out) are fine; the referee may set anything.
    plain = await table.sheet_exchange.import_sheet(HERE, ANA, document(ardelia(name="Cai", px=0)))
    assert (plain.approval, plain.referee_fields) == ("approved", ())
    gm = await table.sheet_exchange.import_sheet(HERE, GM, document(ardelia(name="Bea", px=40)))
    assert (gm.sheet["px"], gm.approval) == (40, "approved")


async def test_a_replaced_sheet_keeps_the_referees_fields_the_referees(table):
    await table.sheet_exchange.import_sheet(HERE, ANA, document(ardelia()))
    with pytest.raises(NotAllowed) as error:
        await table.sheet_exchange.import_sheet(
            HERE, ANA, document(ardelia(px=9_999_999)), replace=True
        )
    assert (error.value.key, error.value.params) == (
        "sheet.error.import_referee_fields",
        {"fields": "PX"},
    )


async def test_document_sheet_and_campaign_systems_must_match(table):
    error = await refused(table, ANA, document(ardelia(), system="swc"))
    assert error.key == "sheet.error.import_system_mismatch"
    # the campaign's system by its name, and the id the file must say (issue 13)
    assert error.params == {
        "document": "swc",
        "sheet": "nucleo",
        "expected": "Núcleo",
        "expected_id": "nucleo",
    }
    error = await refused(table, ANA, document(ardelia(system="swc"), system="nucleo"))
    assert error.key == "sheet.error.import_system_mismatch"


async def test_unknown_keys_are_refused_and_listed(table):
    error = await refused(table, ANA, document(ardelia(basura="x" * 100_000, otra=1)))
    assert (error.key, error.params) == (
        "sheet.error.import_unknown_keys",
        {"keys": "basura, otra"},
    )
    error = await refused(table, ANA, document(ardelia(), comentario="hola"))
    assert (error.key, error.params) == ("sheet.error.import_unknown_keys", {"keys": "comentario"})


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"name": 12345}, "sheet.error.import_name_not_text"),
        ({"name": "x" * 101}, "sheet.error.bad_name"),
        ({"heridas": "3"}, "sheet.error.import_bad_values"),
        ({"token": 1}, "sheet.error.import_bad_values"),
        ({"heridas": 10**400}, "sheet.error.import_number_range"),
        ({"equipo": {"otros": {"Cuerda": 2**40}}}, "sheet.error.import_number_range"),
        ({"notas": {"a": 1}}, "sheet.error.import_bad_values"),
    ],
)
async def test_types_are_strict_and_numbers_bounded(table, changes, key):
    error = await refused(table, GM, document(ardelia(**changes)))
    assert error.key == key


async def test_ranges_are_listed_with_the_systems_own_problems(table):
    with pytest.raises(RulesError) as error:
        await table.sheet_exchange.import_sheet(HERE, GM, document(ardelia(heridas=-1, px=-5)))
    assert {p.path for p in error.value.problems} >= {"heridas", "px"}
    # A field the system does not check itself still keeps the range /sheet set gives it.
    spec = FieldSpec("nivel", "Nivel", FieldKind.INTEGER, 1, 20)
    (problem,) = range_problems({"nivel": 106}, (spec,))
    assert (problem.key, problem.params["maximum"], problem.params["value"]) == (
        "sheet.problem.out_of_range",
        20,
        106,
    )


async def test_nesting_depth_is_refused_before_parsing(table):
    deep = b'{"format": "arbitro.sheet", "sheet": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    error = await refused(table, ANA, deep)
    assert (error.key, error.params) == ("sheet.error.import_too_deep", {"limit": MAX_DEPTH})
    quoted = json.dumps(ardelia(notas="[" * 400)).encode()  # brackets inside a string count not
    assert (await table.sheet_exchange.import_sheet(HERE, ANA, document(json.loads(quoted)))).name


async def test_names_are_at_most_100_characters_on_every_path(table):
    await table.characters.create(HERE, ANA, ardelia())
    for typed in ("x" * 101, "   "):  # a blank name said «1 a 500»
        with pytest.raises(DomainError) as error:
            await table.characters.set_field(HERE, ANA, None, "name", typed)
        assert (error.value.key, error.value.params) == ("sheet.error.bad_name", {"limit": 100})
    with pytest.raises(DomainError) as bad:
        await table.characters.update_sheet(HERE, ANA, None, lambda s, *_: s | {"name": "y" * 101})
    assert bad.value.key == "sheet.error.bad_name"
    assert (await table.characters.set_field(HERE, ANA, None, "name", "z" * 100)).name == "z" * 100


async def test_an_existing_name_is_replaced_only_when_asked_keeping_id_log_and_ledger(table):
    original = await table.characters.create(HERE, ANA, ardelia(dinero=3))
    await table.xp.grant(HERE, GM, 5, character="Ardelia", reason="sesión 1")
    await table.checks.check(HERE, ANA, CheckOrder("atributo:Carisma"))
    _filename, exported = await table.sheet_exchange.export(HERE, ANA, "Ardelia")
    edited = json.loads(exported)
    edited["sheet"]["dinero"] = 50

    with pytest.raises(DomainError) as exists:
        await table.sheet_exchange.import_sheet(HERE, ANA, json.dumps(edited).encode())
    assert (exists.value.key, exists.value.params) == (
        "sheet.error.import_exists",
        {"name": "Ardelia"},
    )
    with pytest.raises(NotAllowed):  # another player may not replace Ana's character
        await table.sheet_exchange.import_sheet(
            HERE, BRUNO, json.dumps(edited).encode(), replace=True
        )
    cheat = json.loads(json.dumps(edited))
    cheat["sheet"]["px"] = 1000
    with pytest.raises(NotAllowed) as referee_only:
        await table.sheet_exchange.import_sheet(HERE, ANA, json.dumps(cheat).encode(), replace=True)
    assert referee_only.value.key == "sheet.error.import_referee_fields"
    del edited["sheet"]["px"]  # left out: the stored XP stays

    replaced = await table.sheet_exchange.import_sheet(
        HERE, ANA, json.dumps(edited).encode(), replace=True
    )
    assert (replaced.id, replaced.sheet["dinero"], replaced.sheet["px"]) == (original.id, 50, 5)
    assert replaced.version == original.version + 2  # the grant, then the replacement
    async with table.sessions() as session:
        (award,) = (await session.exec(select(XpAward))).all()
        logged = (await session.exec(select(RollLog))).all()
    assert award.character_id == original.id
    # the roll and the grant's row (logged to be undoable) keep the character's name
    assert len(logged) == 2 and {row.character_name for row in logged} == {"Ardelia"}
    gm_edit = json.loads(json.dumps(edited))
    gm_edit["sheet"]["px"] = 7
    by_gm = await table.sheet_exchange.import_sheet(
        HERE, GM, json.dumps(gm_edit).encode(), replace=True
    )
    assert (by_gm.id, by_gm.sheet["px"]) == (original.id, 7)


async def test_a_stored_version_1_sheet_is_converted_when_read(table):
    """Migration 0008: rows written before it are version 1 and are upgraded on read."""
    await table.characters.create(HERE, ANA, ardelia())
    async with table.sessions() as session, session.begin():
        v1 = ardelia(name="  ardelia vieja ", system="swc", pnj=True)
        await session.exec(update(Character).values(sheet=v1, sheet_version=1))
    view = await table.characters.show(HERE, ANA)
    assert (view.sheet["name"], view.sheet["system"], "pnj" in view.sheet) == (
        "Ardelia",
        "nucleo",
        False,
    )
    await table.characters.adjust_money(HERE, ANA, 1)
    async with table.sessions() as session:
        row = (await session.exec(select(Character))).one()
    assert (row.sheet_version, row.sheet["system"], "pnj" in row.sheet) == (
        SHEET_SCHEMA_VERSION,
        "nucleo",
        False,
    )


async def test_characters_per_member_are_capped_by_a_campaign_setting(table):
    await table.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("personajes_por_jugador", "2"))
    )
    await table.characters.create(HERE, ANA, ardelia())
    await table.characters.create(HERE, ANA, ardelia(name="Bea"))
    with pytest.raises(DomainError) as error:
        await table.sheet_exchange.import_sheet(HERE, ANA, document(ardelia(name="Cora")))
    assert (error.value.key, error.value.params) == (
        "sheet.error.too_many_characters",
        {"limit": 2},
    )
    await table.characters.create(HERE, BRUNO, ardelia(name="Dora"))  # per member
    await table.characters.create(HERE, GM, ardelia(name="Trasgo"), is_npc=True)  # NPCs apart


async def test_simultaneous_creations_never_pass_the_cap(table):
    """Eight characters created at the same moment by one member with a cap of 2: exactly
    two are stored, the other six are refused by the cap (never by a lost race)."""
    import asyncio

    await table.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("personajes_por_jugador", "2"))
    )
    results = await asyncio.gather(
        *(table.characters.create(HERE, ANA, ardelia(name=f"Ana {i}")) for i in range(8)),
        return_exceptions=True,
    )
    stored = [r for r in results if not isinstance(r, BaseException)]
    refusals = [r for r in results if isinstance(r, BaseException)]
    assert len(stored) == 2
    assert {getattr(r, "key", repr(r)) for r in refusals} == {"sheet.error.too_many_characters"}
    async with table.sessions() as session:
        live = (
            await session.exec(select(Character).where(Character.owner_user_id == ANA.user_id))
        ).all()
    assert sorted(c.name for c in live) == sorted(view.name for view in stored)


async def test_simultaneous_drafts_never_pass_the_cap(table):
    import asyncio

    from bot.db.models import CreationDraft
    from bot.services.sheets.creation import MAX_OPEN_DRAFTS

    results = await asyncio.gather(
        *(table.creation.start(HERE, ANA, f"Borrador {i}") for i in range(MAX_OPEN_DRAFTS + 4)),
        return_exceptions=True,
    )
    refusals = [r for r in results if isinstance(r, BaseException)]
    assert len(results) - len(refusals) == MAX_OPEN_DRAFTS
    assert {getattr(r, "key", repr(r)) for r in refusals} == {"sheet.error.too_many_drafts"}
    async with table.sessions() as session:
        drafts = (
            await session.exec(select(CreationDraft).where(CreationDraft.user_id == ANA.user_id))
        ).all()
    assert len(drafts) == MAX_OPEN_DRAFTS


async def test_open_drafts_are_capped(table):
    from bot.services.sheets.creation import MAX_OPEN_DRAFTS

    for i in range(MAX_OPEN_DRAFTS):
        await table.creation.start(HERE, GM, f"Trasgo {i}", npc=True)
    with pytest.raises(DomainError) as error:
        await table.creation.start(HERE, GM, "Uno más", npc=True)
    assert error.value.key == "sheet.error.too_many_drafts"
    assert await table.creation.start(HERE, ANA, "Ardelia")  # another member, another count


@pytest.mark.parametrize(
    ("document", "key", "params"),
    [
        ({"format": "otro"}, "sheet.error.import_wrong_format", {"format": "arbitro.sheet"}),
        # the first wrong field is named, whatever else is wrong too
        (
            {"format": "arbitro.sheet", "version": "1", "npc": "sí", "x": 1},
            "sheet.error.import_wrong_version",
            {"version": "1", "expected": 1},
        ),
        (
            {"format": "arbitro.sheet", "version": 1, "sheet": {}, "b": 1, "a": 2},
            "sheet.error.import_unknown_keys",
            {"keys": "a, b"},
        ),
        ({"format": "arbitro.sheet", "version": 1, "sheet": []}, "sheet.error.import_no_sheet", {}),
        (
            {"format": "arbitro.sheet", "version": 1, "sheet": {}, "npc": "yes"},
            "sheet.error.import_npc_not_boolean",
            {},
        ),
        (
            {"format": "arbitro.sheet", "version": 1, "sheet": {}, "npc": 1},
            "sheet.error.import_npc_not_boolean",
            {},
        ),
    ],
)
def test_the_envelope_is_read_strictly_with_one_translated_message(document, key, params):
    """pydantic reads the envelope (SheetDocument); its findings become the messages users
    got before, the first wrong field first (nothing is converted: "1" is not version 1)."""
    from bot.services.sheets.imports import parse_document

    with pytest.raises(DomainError) as error:
        parse_document(json.dumps(document).encode())
    assert (error.value.key, error.value.params) == (key, params)


def test_an_exported_envelope_reads_back_as_it_was_written():
    from bot.services.sheets.imports import SheetDocument, parse_document, sheet_document

    written = sheet_document("nucleo", True, {"name": "Eira"})
    assert list(written) == ["format", "version", "system", "npc", "sheet"]
    assert parse_document(json.dumps(written).encode()) == SheetDocument(**written)
