"""Checks from a sheet against a real database: judged by the system, logged with the name."""

from __future__ import annotations

import json

import pytest
from sqlmodel import select

from bot.db.models import RollLog
from bot.services.play.checks import CheckOrder, parse_circumstances
from bot.services.shared.audience import Part, Reader, show, sight
from bot.services.shared.errors import DomainError, NotAllowed
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, GM, HERE, estrellas
from tests.examples import ARDELIA


@pytest.fixture
async def ardelia(services):
    await estrellas(services)
    return services


def test_circumstances_are_parsed_and_capped():
    assert parse_circumstances(" Token, amenaza:Veneno ;dividir_acciones") == {
        "token",
        "amenaza:veneno",
        "dividir_acciones",
    }
    assert parse_circumstances(None) == frozenset()
    with pytest.raises(DomainError):
        parse_circumstances(",".join(f"c{i}" for i in range(9)))


async def test_a_check_is_judged_and_logged_with_the_character(ardelia):
    view = await ardelia.checks.check(HERE, ANA, CheckOrder("habilidad:Pilotar", difficulty=15))
    result = view.result
    assert view.character_name == "Ardelia"
    # seeded (Services(rng=Random(1234)) in tests/conftest.py): the exact roll, on every backend
    assert (result.total, result.outcome, result.target) == (15, "success", 15)
    assert result.probability is not None
    async with ardelia.sessions() as session:
        (row,) = (await session.exec(select(RollLog).where(RollLog.kind == "check"))).all()
    assert (row.character_name, row.total, row.user_name) == ("Ardelia", result.total, "Ana")


async def test_wounds_on_the_sheet_apply_malherido(ardelia):
    await ardelia.characters.set_field(HERE, GM, "Ardelia", "heridas", "18")
    view = await ardelia.checks.check(HERE, ANA, CheckOrder("atributo:Físico", difficulty=12))
    assert any("malherido" in note for note in view.result.notes)
    assert "1o3d10b" in view.result.expression


async def test_unknown_options_are_refused_and_nothing_is_logged(ardelia):
    with pytest.raises(RulesError):
        await ardelia.checks.check(HERE, ANA, CheckOrder("habilidad:Cocina"))
    async with ardelia.sessions() as session:
        assert (await session.exec(select(RollLog))).all() == []


async def test_the_options_come_from_the_sheet(ardelia):
    options = await ardelia.checks.options(HERE, ANA, None)
    assert "habilidad:Pilotar" in {o.key for o in options}
    assert await ardelia.checks.options(HERE, GM, None) == ()  # the GM has no active character


async def test_only_the_owner_or_the_gm_rolls_with_a_character(ardelia):
    """Acting with a character needs its owner or a referee: /check and /save alike."""
    with pytest.raises(NotAllowed) as error:
        await ardelia.checks.check(
            HERE, BRUNO, CheckOrder("habilidad:Pilotar", character="Ardelia")
        )
    assert error.value.key == "sheet.error.not_your_character"
    await ardelia.characters.create(
        HERE, GM, dict(json.loads(json.dumps(ARDELIA)), name="Capitana"), is_npc=True
    )
    with pytest.raises(NotAllowed):
        await ardelia.checks.check(HERE, ANA, CheckOrder("atributo:Físico", character="Capitana"))
    async with ardelia.sessions() as session:
        assert (await session.exec(select(RollLog))).all() == []
    assert (
        await ardelia.checks.check(HERE, GM, CheckOrder("atributo:Físico", character="Ardelia"))
    ).result
    assert (
        await ardelia.checks.check(HERE, ANA, CheckOrder("atributo:Físico"))
    ).character_name == "Ardelia"


async def test_being_the_target_needs_no_ownership_and_hides_a_hidden_npcs_numbers(ardelia):
    """A player may oppose anyone the GM names; a hidden NPC opponent is flagged so the
    player's reply shows the outcome only."""
    await ardelia.characters.create(
        HERE, BRUNO, dict(json.loads(json.dumps(ARDELIA)), name="Bram"), make_active=True
    )
    await ardelia.characters.create(
        HERE, GM, dict(json.loads(json.dumps(ARDELIA)), name="Trasgo"), is_npc=True, hidden=True
    )
    versus_bram = await ardelia.checks.check(
        HERE, ANA, CheckOrder("atributo:Físico", against="Bram")
    )
    assert versus_bram.opposed is not None and not versus_bram.opponent_hidden
    versus_trasgo = await ardelia.checks.check(
        HERE, ANA, CheckOrder("atributo:Físico", against="Trasgo")
    )
    assert versus_trasgo.opposed is not None and versus_trasgo.opponent_hidden
    gm_view = await ardelia.checks.check(
        HERE, GM, CheckOrder("atributo:Físico", character="Ardelia", against="Trasgo")
    )
    # decided once, for every reader: the GM's own roll against his hidden NPC seals its
    # numbers too (the channel reads the outcome; the GM reads them in his copy)
    assert gm_view.opponent_hidden
    assert sight(gm_view.secrecy, Reader.gm()).sealed == frozenset()
    assert Part.TOTAL in sight(gm_view.secrecy, Reader.everyone()).sealed
    # The log keeps the numbers for referees; the roller's own history shows the outcome only.
    mine = {e.log_id: e for e in (await ardelia.rolls.history(HERE, ANA)).entries}
    assert mine[versus_trasgo.log_id].total is None
    assert mine[versus_trasgo.log_id].outcome == versus_trasgo.result.outcome
    assert mine[versus_bram.log_id].total == versus_bram.result.total
    gm_sees = {e.log_id: e for e in (await ardelia.rolls.history(HERE, GM)).entries}
    assert gm_sees[versus_trasgo.log_id].total == versus_trasgo.result.total


async def test_a_checks_reason_is_shown_and_logged_and_the_opponents_dice_are_shown(ardelia):
    """Issue 13 §3: `/check` takes a reason like `/roll`; an opposed check shows both sides'
    dice, except a hidden NPC's to the player (the GM's copy keeps them)."""
    from cogs.ui import render_sheet

    await ardelia.characters.create(
        HERE, BRUNO, dict(json.loads(json.dumps(ARDELIA)), name="Bram"), make_active=True
    )
    await ardelia.characters.create(
        HERE, GM, dict(json.loads(json.dumps(ARDELIA)), name="Trasgo"), is_npc=True, hidden=True
    )
    with pytest.raises(DomainError) as too_long:
        await ardelia.checks.check(HERE, ANA, CheckOrder("atributo:Físico", reason="x" * 201))
    assert too_long.value.key == "roll.error.reason_too_long"
    view = await ardelia.checks.check(
        HERE, ANA, CheckOrder("atributo:Físico", against="Bram", reason=" Forzar la puerta ")
    )
    assert view.reason == "Forzar la puerta"
    async with ardelia.sessions() as session:
        (row,) = (await session.exec(select(RollLog).where(RollLog.kind == "check"))).all()
    assert row.reason.endswith("← Bram — Forzar la puerta"), row.reason
    embed = render_sheet.check(_shown(view, Reader.everyone()), "es")["embed"]
    text = str(embed.to_dict())
    assert "Forzar la puerta" in text
    other = view.opposed.b
    assert f"`{other.expression}` {other.breakdown}" in text, text
    hidden = await ardelia.checks.check(
        HERE, ANA, CheckOrder("atributo:Físico", against="Trasgo", reason="Empujón")
    )
    player = str(
        render_sheet.check(_shown(hidden, Reader.member(ANA.user_id)), "es")["embed"].to_dict()
    )
    assert "Empujón" in player and hidden.opposed.b.breakdown not in player
    assert hidden.opposed.b.expression not in player
    gm_copy = str(render_sheet.check(_shown(hidden, Reader.gm()), "es")["embed"].to_dict())
    assert hidden.opposed.b.breakdown in gm_copy


async def test_strict_creation_refuses_a_later_raise_naming_the_setting(ardelia):
    """Issue 13 §3: with `creacion_estricta` on (the default) raising Físico breaks the 37
    points; the refusal names the rule and how the GM turns it off, and then it passes."""
    from bot.i18n import t
    from bot.services.campaigns.service import SettingsChange

    with pytest.raises(RulesError) as refused:
        await ardelia.characters.set_field(HERE, ANA, None, "atributos.Físico", "7")
    found = [p.key for p in refused.value.problems]
    assert found == ["nucleo.problem.attribute_total", "nucleo.problem.strict_creation"], found
    for locale, command in (("es", "/campaña ajustes"), ("en", "/campaign settings")):
        text = t("nucleo.problem.strict_creation", locale)
        assert "creacion_estricta" in text and command in text
    assert (await ardelia.characters.show(HERE, ANA, "Ardelia")).sheet["atributos"]["Físico"] == 6
    await ardelia.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("creacion_estricta", "no"))
    )
    raised = await ardelia.characters.set_field(HERE, ANA, None, "atributos.Físico", "7")
    assert raised.sheet["atributos"]["Físico"] == 7


def _shown(view, reader):
    """The check as ``reader`` may see it (the audience rule), as the cog renders it."""
    return show(view.secrecy, reader, lambda _seen: view)


async def test_revealing_the_npc_lifts_what_its_secrecy_sealed_and_nothing_later(ardelia):
    """Issue 22 §1: a reveal is an event.  After ``/npc reveal`` the roll against the NPC
    shows its total in the player's /history and its XP award in /xp log; hidden again, what
    is rolled afterwards is sealed again, and a private roll stays private throughout."""
    await ardelia.characters.create(
        HERE, GM, dict(json.loads(json.dumps(ARDELIA)), name="Trasgo"), is_npc=True, hidden=True
    )
    before = await ardelia.checks.check(HERE, ANA, CheckOrder("atributo:Físico", against="Trasgo"))
    await ardelia.xp.grant(HERE, GM, 4, character="Trasgo", reason="emboscada")
    private = await ardelia.checks.check(
        HERE, ANA, CheckOrder("atributo:Físico", against="Trasgo", private=True)
    )

    async def ana_sees() -> dict[int, int | None]:
        return {e.log_id: e.total for e in (await ardelia.rolls.history(HERE, ANA)).entries}

    assert (await ana_sees())[before.log_id] is None
    assert [e.value.reason for e in await ardelia.xp.log(HERE, ANA)] == []
    await ardelia.npcs.set_visibility(HERE, GM, "Trasgo", hidden=False)
    seen = await ana_sees()
    assert seen[before.log_id] == before.result.total and seen[private.log_id] is not None
    assert [e.value.reason for e in await ardelia.xp.log(HERE, ANA)] == ["emboscada"]
    bruno = {e.log_id for e in (await ardelia.rolls.history(HERE, BRUNO)).entries}
    assert private.log_id not in bruno and before.log_id in bruno  # private stays Ana's
    await ardelia.npcs.set_visibility(HERE, GM, "Trasgo", hidden=True)
    after = await ardelia.checks.check(HERE, ANA, CheckOrder("atributo:Físico", against="Trasgo"))
    seen = await ana_sees()
    assert seen[after.log_id] is None and seen[before.log_id] == before.result.total
