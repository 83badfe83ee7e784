"""Issue 11 §2-§3 on real databases: health in the tracker, the dead skipped once, the healed
back in their place, dying characters refused, and timed effects that tick at their owner's
turn (SQLite, and PostgreSQL when ARBITRO_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlmodel import select

from bot.services.play.checks import CheckOrder
from bot.services.play.combat_views import combat_for
from bot.services.play.spells import CastOrder
from bot.services.shared.audience import Reader
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.sheets.changes import AddEffect, Damage
from bot.words import problem_text
from cogs.ui import render_combat, render_effects
from rules import systems
from rules.combat import effects
from rules.combat.effects import Effect, Modifier, TurnAction
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, CHANNEL, GM, HERE
from tests.examples import ARDELIA
from tests.rules.nucleo.conftest import ScriptedRandom

EVERYONE = Reader.everyone()


def ardelia(name: str = "Ardelia") -> dict:
    return dict(json.loads(json.dumps(ARDELIA)), name=name)


@pytest.fixture
async def fight(services):
    """Núcleo: Ardelia (Ana), Bram (Bruno), the hidden NPC Capitán; order Ardelia, Bram,
    Capitán by typed initiative."""
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, ardelia())
    await services.characters.create(HERE, BRUNO, ardelia("Bram"))
    await services.characters.create(HERE, GM, ardelia("Capitán"), is_npc=True, hidden=True)
    await services.combat.start(HERE, GM)
    await services.combat.join(HERE, ANA)
    await services.combat.join(HERE, BRUNO)
    await services.combat.add(HERE, GM, "Capitán", initiative=5)
    await services.combat.move(HERE, GM, "Ardelia", 20)
    await services.combat.move(HERE, GM, "Bram", 10)
    return services


def _line(view, name):
    return next(line for line in view.lines if line.name == name)


async def test_panel_shows_states_and_keeps_a_hidden_npcs_numbers_for_the_gm(fight):
    await fight.combat.damage(HERE, GM, "Capitán", 5)
    view = await fight.combat.show(HERE, ANA)
    assert not view.referee
    ardelia_line, capitan = _line(view, "Ardelia"), _line(view, "Capitán")
    assert (ardelia_line.state, ardelia_line.hit_points, ardelia_line.secret) == (
        "normal",
        (24, 24),
        False,
    )
    assert capitan.secret and capitan.hit_points == (19, 24)
    public = render_combat.panel(combat_for(view, EVERYONE), "es")["embed"].description
    assert "Bram (10) · normal (24/24)" in public
    assert public.endswith("• Capitán (?) · normal") and "19/24" not in public
    assert (
        render_combat.secret_numbers(combat_for(view, Reader.gm()), "es")
        == "🔒 Capitán: normal (19/24)"
    )
    assert (await fight.combat.show(HERE, GM)).referee
    # once revealed, everyone reads its numbers
    await fight.npcs.set_visibility(HERE, GM, "Capitán", False)
    view = await fight.combat.show(HERE, ANA)
    assert "(19/24)" in render_combat.panel(combat_for(view, EVERYONE), "es")["embed"].description


async def test_damage_and_heal_say_what_is_left_and_return_their_log_row(fight):
    hurt = await fight.combat.damage(HERE, GM, "Bram", 21)
    assert (hurt.label, hurt.hit_points, hurt.secret) == ("malherido", (3, 24), False)
    assert hurt.log_id
    text = render_combat.health(hurt, "es")["embed"].description
    assert "Estado: malherido (3/24)" in text
    # the panel names the state in the reader's language (was: the rules' Spanish word)
    panel = await fight.combat.show(HERE, ANA)
    assert (
        "Bram (10) · badly wounded (3/24)"
        in render_combat.panel(combat_for(panel, EVERYONE), "en")["embed"].description
    )
    hidden = await fight.combat.damage(HERE, GM, "Capitán", 4)
    shown = render_combat.health(hidden, "es")["embed"].description
    assert "20" not in shown and "Estado: normal" in shown
    assert render_combat.health_secret(hidden, "es") == "🔒 Capitán: normal (20/24)"
    healed = await fight.combat.heal(HERE, GM, "Bram", 21)
    assert healed.hit_points == (24, 24) and healed.log_id > hurt.log_id


async def test_the_fallen_are_skipped_once_and_the_healed_act_again_in_their_place(fight):
    first = await fight.combat.next(HERE, GM)
    assert first.current.name == "Ardelia"
    down = await fight.combat.damage(HERE, GM, "Bram", 30)
    assert down.label == "inconsciente"
    view = await fight.combat.next(HERE, GM)
    assert view.current.name == "Capitán"
    assert [c.name for c in view.turn.left] == ["Bram"]
    assert (
        "Bram queda fuera del orden de turnos (inconsciente)."
        in (render_combat.panel(combat_for(view, EVERYONE), "es")["content"])
    )
    view = await fight.combat.next(HERE, GM)  # round 2: Ardelia
    view = await fight.combat.next(HERE, GM)  # Bram still down: skipped, not reported again
    assert view.current.name == "Capitán" and view.turn.left == ()
    await fight.combat.heal(HERE, GM, "Bram", 30)
    view = await fight.combat.next(HERE, GM)
    view = await fight.combat.next(HERE, GM)
    assert (view.round, view.current.name) == (3, "Bram")


async def test_a_dying_character_may_roll_only_its_death_test(services):
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="rolweb", target_id=CHANNEL, kind="channel"
    )
    system = systems.get("rolweb")
    from bot.services.campaigns.settings import resolved_settings

    sheet = system.new_sheet("Eira", resolved_settings(system.settings(), {}))
    await services.characters.create(HERE, ANA, sheet)
    await services.combat.start(HERE, GM)
    await services.combat.join(HERE, ANA)
    await services.combat.add(HERE, GM, "Lobos", initiative=3)
    await services.combat.move(HERE, GM, "Eira", 12)
    dying = await services.combat.damage(HERE, GM, "Eira", 100)
    assert dying.label == "moribundo"
    view = await services.combat.next(HERE, GM)
    assert view.current.name == "Eira" and view.current.turn_test == "muerte"
    content = render_combat.panel(combat_for(view, EVERYONE), "es")["content"]
    # her player is pinged: the tracker waits for the death test only she (or the GM) rolls
    assert "<@2>" in content and "tirada de muerte" in content
    with pytest.raises(RulesError, match="cannot_act"):
        await services.checks.check(HERE, ANA, CheckOrder("atributo:Ágil"))
    with pytest.raises(NotAllowed):
        await services.combat.death_test_target(HERE, BRUNO, view.current.character_id)
    name, option = await services.combat.death_test_target(HERE, ANA, view.current.character_id)
    assert (name, option) == ("Eira", "muerte")
    rolled = await services.checks.check(HERE, ANA, CheckOrder(option, name))
    assert rolled.result.option == "muerte" and rolled.log_id


async def test_effects_modifiers_name_attributes_and_refuse_what_they_cannot_read(fight):
    view = await fight.effects.add(HERE, ANA, "Ardelia", "Niebla", 2, "PER-2, Defensa+4, daño+1d6")
    assert view.effect.modifiers == (
        Modifier("attribute:Percepción", -2),
        Modifier("defence", 4),
        Modifier("damage", 0, "1d6"),
    )
    assert view.log_id and [e.name for e in view.effects] == ["Niebla"]
    # the fixed keys read in the reader's language (was: «defence +4» in Spanish)
    reply = render_effects.effect_reply(view, "es")["embed"].description
    assert "Modificadores: Percepción -2, defensa +4, daño +1d6" in reply
    assert "defence +4, damage +1d6" in render_effects.effect_reply(view, "en")["embed"].description
    check = await fight.checks.check(HERE, ANA, CheckOrder("atributo:Percepción"))
    assert check.result.modifiers == (("Niebla", -2),)
    with pytest.raises(NotAllowed):
        await fight.effects.add(HERE, ANA, "Bram", "Bendición", 3, "tiradas+1")
    await fight.effects.add(HERE, GM, "Bram", "Bendición", 3, "tiradas+1")
    for bad, key in (
        ("Suerte+2", "unknown_target"),
        ("PER 2", "bad_modifier"),
        ("PER-1d6", "dice_only_damage"),
        ("PER-500", "bad_amount"),
    ):
        with pytest.raises(RulesError, match=key) as refused:
            await fight.effects.add(HERE, GM, "Bram", "Mal", 1, bad)
        if key == "unknown_target":  # the words a user may type, accented, never the ids
            problem = refused.value.problems[0]
            text = problem_text(problem.key, problem.params, "es")
            assert "daño, salvaciones, absorción" in text and "dano" not in text
    removed = await fight.effects.remove(HERE, ANA, "Ardelia", "niebla")
    assert removed.removed and removed.effects == ()
    with pytest.raises(RulesError, match="unknown_effect"):
        await fight.effects.remove(HERE, ANA, "Ardelia", "Niebla")


async def test_effects_tick_at_their_owners_turn_and_expire_with_a_line(fight):
    """An effect of N rounds affects N of its owner's turns (issue 23 §2): it counts a round
    as each of its owner's turns ends, and expires at the end of the last one."""
    await fight.combat.effect(HERE, GM, "Ardelia", "Niebla", rounds=2, modifier="PER-2")
    view = await fight.combat.next(HERE, GM)  # Ardelia's turn: the fog is on her, 2 left
    assert view.current.name == "Ardelia" and _line(view, "Ardelia").effects == (("Niebla", 2),)
    assert (
        "↳ ✨ Niebla (2 asaltos)"
        in render_combat.panel(combat_for(view, EVERYONE), "es")["embed"].description
    )
    view = await fight.combat.next(HERE, GM)  # her turn ended: 2 → 1
    assert view.ended.name == "Ardelia" and _line(view, "Ardelia").effects == (("Niebla", 1),)
    while view.current.name != "Ardelia":
        view = await fight.combat.next(HERE, GM)
    assert view.round == 2 and _line(view, "Ardelia").effects == (("Niebla", 1),)
    view = await fight.combat.next(HERE, GM)  # the end of her second turn: it expires
    assert [e.name for e in view.ended.ticked.expired] == ["Niebla"]
    assert (
        "✨ Termina «Niebla» sobre Ardelia."
        in render_combat.panel(combat_for(view, EVERYONE), "es")["content"]
    )
    sheet = (await fight.characters.show(HERE, ANA)).sheet
    assert effects.effects(sheet) == ()


async def test_effects_in_rounds_end_with_the_fight_unless_the_gm_keeps_them(fight):
    """«Bendición (2 asaltos)» outlived /init end in the play-test; an effect until removed
    stays; the GM may keep the timed ones explicitly."""
    await fight.effects.add(HERE, ANA, "Ardelia", "Bendición", 2, "tiradas+1")
    await fight.effects.add(HERE, ANA, "Ardelia", "Juramento")  # until removed
    await fight.effects.add(HERE, GM, "Bram", "Escudo", 3, "Defensa+1")
    view = await fight.combat.end(HERE, GM)
    assert dict(view.effects_ended) == {"Ardelia": ("Bendición",), "Bram": ("Escudo",)}
    text = render_combat.panel(combat_for(view, EVERYONE), "es")["content"]
    assert "Con el combate terminan los efectos por asaltos de Ardelia: Bendición." in text
    sheet = (await fight.characters.show(HERE, ANA)).sheet
    assert [e.name for e in effects.effects(sheet)] == ["Juramento"]
    check = await fight.checks.check(HERE, ANA, CheckOrder("atributo:Percepción"))
    assert check.result.modifiers == ()  # no «Bendición +1» on a later roll
    await fight.combat.start(HERE, GM)
    await fight.combat.join(HERE, ANA)
    await fight.effects.add(HERE, ANA, "Ardelia", "Bendición", 2, "tiradas+1")
    kept = await fight.combat.end(HERE, GM, keep_effects=True)
    assert kept.effects_kept and dict(kept.effects_ended) == {"Ardelia": ("Bendición",)}
    sheet = (await fight.characters.show(HERE, ANA)).sheet
    assert [(e.name, e.rounds) for e in effects.effects(sheet)] == [
        ("Juramento", None), ("Bendición", 2),
    ]  # fmt: skip


async def test_a_heal_each_turn_is_rolled_and_applied_at_the_owners_turn(fight):
    await fight.combat.damage(HERE, GM, "Ardelia", 10)
    aura = Effect("Aura de curación", 3, action=TurnAction("heal", "1d6"))
    await fight.writer.apply(HERE, GM, AddEffect(aura), name="Ardelia")
    view = await fight.combat.next(HERE, GM)
    (roll,) = view.ticked.ticked.rolls
    assert (roll.breakdown, roll.amount) == ("1d6 (4) = 4", 4)  # services' seeded dice
    assert (
        _line(view, "Ardelia").hit_points == (18, 24) and _line(view, "Ardelia").state == "normal"
    )
    assert (
        "✨ Aura de curación: Ardelia recupera 4 (1d6 (4) = 4)."
        in (render_combat.panel(combat_for(view, EVERYONE), "es")["content"])
    )
    assert _line(view, "Ardelia").effects == (("Aura de curación", 3),)  # counted as it ends


async def test_concurrent_effects_and_damage_on_one_sheet_all_land(fight):
    results = await asyncio.gather(
        *(fight.effects.add(HERE, GM, "Bram", f"E{i}", 3) for i in range(5)),
        *(fight.writer.apply(HERE, GM, Damage(1), name="Bram") for _ in range(5)),
    )
    assert len(results) == 10
    sheet = (await fight.characters.show(HERE, BRUNO, "Bram")).sheet
    assert sorted(e.name for e in effects.effects(sheet)) == [f"E{i}" for i in range(5)]
    assert sheet["heridas"] == 5


async def test_init_effect_needs_a_sheet(fight):
    await fight.combat.add(HERE, GM, "Trasgos", initiative=1)
    with pytest.raises(DomainError, match="no_sheet"):
        await fight.combat.effect(HERE, GM, "Trasgos", "Miedo")


# -- spells that last, heal or damage a target (§3) ---------------------------------------


async def _learn(services, name: str, spells: dict[str, int]) -> None:
    """Test setup: give a sheet spells straight in the database (the pyramid is not the point)."""
    from sqlalchemy import update

    from bot.db.models import Character

    async with services.sessions() as session, session.begin():
        row = (await session.exec(select(Character).where(Character.name == name))).one()
        await session.exec(
            update(Character)
            .where(Character.id == row.id)
            .values(sheet={**row.sheet, "hechizos": spells}, version=Character.version + 1)
        )


@pytest.fixture
async def casters(fight):
    await _learn(
        fight,
        "Ardelia",
        {"Fuerza sobrehumana": 1, "Niebla": 1, "Curación": 1, "Toque eléctrico": 1},
    )
    return fight


def sheet_of(services, name):
    async def read():
        return (await services.characters.show(HERE, GM, name)).sheet

    return read()


async def test_a_spell_that_lasts_on_its_caster_leaves_its_effect(casters):
    casters.spells.rng = ScriptedRandom([9, 9, 9])
    view = await casters.spells.cast(HERE, ANA, CastOrder(spell="Fuerza sobrehumana"))
    assert str(view.result.check.outcome) == "success", view.result.check
    assert view.own.effect.name == "Fuerza sobrehumana"
    assert view.own.effect.modifiers == (Modifier("attribute:Físico", 4),)
    (stored,) = effects.effects(await sheet_of(casters, "Ardelia"))
    assert stored == view.own.effect and view.landed is None


async def test_an_area_spell_lands_on_the_character_the_caster_names(casters):
    casters.spells.rng = ScriptedRandom([9, 9, 9])
    view = await casters.spells.cast(HERE, ANA, CastOrder(spell="Niebla", target="Bram"))
    assert view.landed.effect.name == "Niebla" and view.target_log_id
    assert [e.name for e in effects.effects(await sheet_of(casters, "Bram"))] == ["Niebla"]
    assert effects.effects(await sheet_of(casters, "Ardelia")) == ()


async def test_a_healing_spell_heals_another_players_character_with_the_casters_mana(casters):
    await casters.combat.damage(HERE, GM, "Bram", 10)
    before = (await sheet_of(casters, "Ardelia")).get("mana_gastado", 0)
    casters.spells.rng = ScriptedRandom([9, 9, 9, 4, 3])
    view = await casters.spells.cast(HERE, ANA, CastOrder(spell="Curación", target="Bram"))
    healed = view.landed.health
    assert view.result.effect.kind == "healing" and healed.amount == view.result.effect.total
    assert (view.result.effect.expression, healed.amount) == ("1d6", 4)  # scripted die 4
    assert (await sheet_of(casters, "Bram"))["heridas"] == 6
    assert (await sheet_of(casters, "Ardelia"))["mana_gastado"] == before + view.result.spent


async def test_a_touch_spell_on_a_target_without_sheet_only_rolls(casters):
    """A character target gets the melee attack first (tests/bot/test_touch_spells.py); a
    target that is only a label has no sheet to attack or wound: the cast only rolls."""
    casters.spells.rng = ScriptedRandom([9, 9, 9, 4, 3, 2, 1])
    view = await casters.spells.cast(
        HERE, ANA, CastOrder(spell="Toque eléctrico", target="los tres orcos")
    )
    assert view.result.needs_melee_attack and view.result.effect.total == 7
    assert view.touch is None and view.landed is None  # the GM applies it, as for any label
    assert (await sheet_of(casters, "Bram"))["heridas"] == 0


async def test_an_unconscious_caster_cannot_cast_and_spends_nothing(casters):
    await casters.combat.damage(HERE, GM, "Ardelia", 30)
    with pytest.raises(RulesError, match="cannot_act"):
        await casters.spells.cast(HERE, ANA, CastOrder(spell="Curación", target="Bram"))
    assert (await sheet_of(casters, "Ardelia")).get("mana_gastado", 0) == 0


async def test_a_cast_and_its_target_are_written_together_or_not_at_all(casters):
    for i in range(effects.MAX_EFFECTS):
        await casters.effects.add(HERE, GM, "Bram", f"E{i}")
    casters.spells.rng = ScriptedRandom([9, 9, 9])
    with pytest.raises(RulesError, match="too_many"):
        await casters.spells.cast(HERE, ANA, CastOrder(spell="Niebla", target="Bram"))
    assert (await sheet_of(casters, "Ardelia")).get("mana_gastado", 0) == 0


async def test_concurrent_heals_by_spell_and_damage_on_one_target_all_land(casters):
    await casters.combat.damage(HERE, GM, "Bram", 12)
    casters.spells.rng = ScriptedRandom([9, 9, 9, 4] * 40)  # a retry after a clash rolls again
    results = await asyncio.gather(
        *(
            casters.spells.cast(HERE, ANA, CastOrder(spell="Curación", target="Bram"))
            for _ in range(3)
        ),
        *(casters.combat.damage(HERE, GM, "Bram", 1) for _ in range(3)),
    )
    assert [r.landed.health.amount for r in results[:3]] == [4, 4, 4]
    assert (await sheet_of(casters, "Bram"))["heridas"] == 12 - 12 + 3


async def test_spell_show_gives_duration_critical_benefits_and_touch(casters):
    from cogs.ui import render_spells

    view = await casters.spells.show(HERE, ANA, "Fuerza sobrehumana")
    assert (view.spell.duration, view.spell.melee_attack) == ("1 turno/nivel", False)
    text = str(render_spells.spell(view, "es")["embed"].to_dict())
    assert "Duración" in text and "1 turno/nivel" in text and "Beneficio del crítico" in text
    touch = await casters.spells.show(HERE, ANA, "Toque eléctrico")
    assert touch.spell.melee_attack
    assert "`/conjuro lanzar` con un `objetivo` lo hace primero" in str(
        render_spells.spell(touch, "es")["embed"].to_dict()
    )


async def test_sheet_show_adds_the_active_effects_to_derived_values_and_names_them(fight):
    from cogs.ui import render_sheet

    await fight.effects.add(HERE, ANA, "Ardelia", "Baile de viento", 3, "Defensa+4")
    view = await fight.characters.show(HERE, ANA)
    derived = {d.key: d for d in view.derived}
    assert (derived["defensa"].value, derived["defensa"].formula) == (
        21,
        "Esquivar 12 + 5 +4 Baile de viento",
    )
    text = str([e.to_dict() for e in render_sheet.character(view, "es")["embeds"]])
    assert "Efectos activos" in text and "Baile de viento (3 asaltos)" in text


async def test_an_effect_added_or_removed_is_logged_undoable_and_undone_by_the_gm(fight):
    """/effect writes kind ``effect`` rows with ``detail.undo`` (main's undo reverts them)."""
    added = await fight.effects.add(HERE, ANA, "Ardelia", "Niebla", 2, "PER-2")
    assert added.undo is not None and added.undo.log_id == added.log_id
    with pytest.raises(DomainError):  # only the GM undoes
        await fight.undo.undo(HERE, ANA, added.log_id)
    undone = await fight.undo.undo(HERE, GM, added.log_id, version=added.undo.version)
    assert undone.kind == "effect" and undone.character_name == "Ardelia"
    sheet = (await fight.characters.show(HERE, ANA, "Ardelia")).sheet
    assert effects.effects(sheet) == ()
    await fight.effects.add(HERE, GM, "Bram", "Bendición", None, "tiradas+1")
    removed = await fight.effects.remove(HERE, GM, "Bram", "Bendición")
    await fight.undo.undo(HERE, GM, removed.log_id)
    sheet = (await fight.characters.show(HERE, GM, "Bram")).sheet
    assert [e.name for e in effects.effects(sheet)] == ["Bendición"]
