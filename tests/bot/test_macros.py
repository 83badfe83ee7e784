"""Macros on real databases (SQLite and PostgreSQL): named rolls per character and per
campaign, their names and limits, the fixed order [[…]] resolves a name in, and use in
typed text, /post's roll and /roll (issue 24 §4)."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlmodel import select

from bot.db.models import Macro, RollLog
from bot.services import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from tests.examples import ARDELIA

GUILD, CHANNEL = 2500, 31
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")


def sheet(name: str) -> dict:
    return dict(json.loads(json.dumps(ARDELIA)), name=name)


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, sheet("Ardelia"))
    await services.characters.create(HERE, BRUNO, sheet("Bram"))
    await services.characters.create(HERE, GM, sheet("Trasgo"), is_npc=True)
    return services


async def test_a_macro_rolls_what_it_holds_logged_as_the_expanded_expression(table):
    await table.macros.add(HERE, ANA, "ataque", "[[1d20+5]] daño [[1d8+2]]")
    named = await table.inline.roll_named(HERE, ANA, "Ataque", private=False)
    assert named.character == "Ardelia"
    assert [r.expression.replace(" ", "") for r in named.rolls] == ["1d20+5", "1d8+2"]
    assert {r.label for r in named.rolls} == {"ataque"}
    async with table.sessions() as session:
        logged = [await session.get(RollLog, r.log_id) for r in named.rolls]
    assert [(r.expression.replace(" ", ""), r.reason, r.character_name) for r in logged] == [
        ("1d20+5", "ataque", "Ardelia"),
        ("1d8+2", "ataque", "Ardelia"),
    ]


async def test_a_macro_of_a_sheet_option_with_a_modifier_and_a_macro_using_another(table):
    await table.macros.add(HERE, ANA, "pilotaje", "Pilotar +2")
    await table.macros.add(HERE, ANA, "maniobra", "[[pilotaje]] y [[1d6]]")
    named = await table.inline.roll_named(HERE, ANA, "maniobra", private=False)
    assert [r.sheet for r in named.rolls] == [True, False]
    async with table.sessions() as session:
        check = await session.get(RollLog, named.rolls[0].log_id)
    assert check.kind == "check" and "pilotaje" in check.reason
    # a loop ends at the depth limit, before anything is rolled
    await table.macros.add(HERE, ANA, "bucle", "[[bucle]]")
    with pytest.raises(DomainError) as deep:
        await table.inline.roll_named(HERE, ANA, "bucle", private=False)
    assert deep.value.key == "macro.error.too_deep"


async def test_names_are_checked_and_never_a_sheet_options(table):
    for bad in ("1d20", "d6", "9vidas", "a" * 33, "con/barra", "Narrador"):
        with pytest.raises(DomainError) as refused:
            await table.macros.add(HERE, ANA, bad, "1d20")
        assert refused.value.key == "macro.error.bad_name", bad
    for taken in ("Pilotar", "pilotar", "Físico"):
        with pytest.raises(DomainError) as refused:
            await table.macros.add(HERE, ANA, taken, "1d20")
        assert refused.value.key == "macro.error.option_name", taken
    with pytest.raises(DomainError) as refused:  # a campaign macro: every sheet's options
        await table.macros.add(HERE, GM, "Advertir/Notar", "1d20", campaign_wide=True)
    assert refused.value.key in ("macro.error.option_name", "macro.error.bad_name")
    for body in ("", "[[1d20", "x" * 201, "[[privada: 1d20]]"):
        with pytest.raises(DomainError):
            await table.macros.add(HERE, ANA, "mala", body)


async def test_who_adds_what_and_the_order_a_name_resolves_in(table):
    with pytest.raises(NotReferee):
        await table.macros.add(HERE, ANA, "emboscada", "3d6", campaign_wide=True)
    with pytest.raises(NotAllowed):
        await table.macros.add(HERE, BRUNO, "robo", "1d20", character="Ardelia")
    await table.macros.add(HERE, GM, "emboscada", "3d6", campaign_wide=True)
    await table.macros.add(HERE, GM, "golpe", "1d4", campaign_wide=True)
    await table.macros.add(HERE, ANA, "golpe", "1d12")  # hers first, then the campaign's
    named = await table.inline.roll_named(HERE, ANA, "golpe", private=False)
    assert named.rolls[0].expression == "1d12"
    named = await table.inline.roll_named(HERE, BRUNO, "golpe", private=False)
    assert named.rolls[0].expression == "1d4"
    book = await table.macros.book(HERE, ANA, None)
    assert [m.name for m in book.own] == ["golpe"]
    assert [m.name for m in book.shared] == ["emboscada", "golpe"]
    with pytest.raises(DomainError) as unknown:  # neither a macro nor an option: both listed
        await table.inline.roll_named(HERE, ANA, "bailar", private=False)
    assert unknown.value.key == "inline.error.unknown"
    assert "golpe" in unknown.value.params["macros"]
    assert "Pilotar" in unknown.value.params["options"]
    gone = await table.macros.remove(HERE, ANA, "Golpe")
    assert gone.name == "golpe"
    with pytest.raises(DomainError):
        await table.macros.remove(HERE, ANA, "golpe")


async def test_adding_the_same_name_at_once_leaves_one_macro(table):
    results = await asyncio.gather(
        *(table.macros.add(HERE, ANA, "carrera", f"1d{n}") for n in (4, 6, 8, 10)),
        return_exceptions=True,
    )
    assert all(not isinstance(r, Exception) for r in results), results
    assert sum(1 for _, replaced in results if not replaced) == 1
    async with table.sessions() as session:
        rows = (await session.exec(select(Macro).where(Macro.guild_id == GUILD))).all()
    assert len(rows) == 1 and rows[0].version == 4


async def test_a_macro_in_posts_roll_and_the_limit_of_rolls(table):
    await table.macros.add(HERE, ANA, "ataque", "[[1d20+5]] daño [[1d8+2]]")
    speaker = await table.posting.speaker(HERE, ANA, None)
    rolls = await table.posting.roll(HERE, ANA, speaker, "ataque")
    assert [r.expression.replace(" ", "") for r in rolls] == ["1d20+5", "1d8+2"]
    await table.macros.add(HERE, ANA, "lluvia", " ".join(["[[1d6]]"] * 6))
    with pytest.raises(DomainError) as many:  # 12 rolls: refused before any is rolled
        await table.posting.roll_written(HERE, ANA, speaker, ["lluvia", "lluvia"])
    assert many.value.key == "typing.error.too_many_rolls"
