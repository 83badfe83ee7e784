"""Turns and actions as the seeds count them, end to end through the stand-in (issue 23 §1):
the panel says what the acting combatant has left; an attack out of turn or beyond the count
is refused with the reason, the GM's ``forzar`` passes, ``advertir`` warns; rolweb's death
test is one per turn and holds the turn until rolled or skipped by the GM; Núcleo's
«2 acciones» killer gets no third attack unless he splits; S&W lets the whole side act in its
phase.  The bot's dice are not seeded: ±50 modifiers make outcomes certain where it matters."""

from __future__ import annotations

import json

import pytest

from tests.e2e.helpers import DEATH_TEST, press, says, sheet_file
from tests.e2e.test_combat import game, npc_trasgo, run
from tests.e2e.test_sheet_rolweb import create_eira
from tests.e2e.test_sheet_swc import create_fighter
from tests.examples import ARDELIA
from tests.rules.rolweb.test_fight import orc as rolweb_orc
from tests.rules.swc.test_attack_swc import orc as swc_orc

pytestmark = pytest.mark.e2e


def test_rolweb_actions_and_the_death_test(discord_env):
    sb = discord_env
    g = game(sb, "Turnos rolweb", "rolweb")
    create_eira(sb, g).expect_ok()
    create_eira(sb, g, name="Bram", user="bruno").expect_ok()
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init join", user="bruno").expect_ok()
    run(sb, g, "init add", {"name": "Lobo", "initiative": 1, "defence": 10}).expect_ok()
    run(sb, g, "init move", {"combatant": "Eira", "initiative": 15}).expect_ok()
    run(sb, g, "init move", {"combatant": "Bram", "initiative": 12}).expect_ok()
    turn = run(sb, g, "init next")
    assert "Turno de **Eira**" in turn.all_text, turn.all_text
    assert "Le quedan: 1 de combate, 1 de movimiento" in turn.all_text, turn.all_text

    early = run(sb, g, "attack", {"target": "Lobo", "modifier": -50}, user="bruno")
    assert early.ephemeral and says(
        early, "actions.problem.not_your_turn", name="Bram", current="Eira"
    ), early.all_text
    run(sb, g, "attack", {"target": "Lobo", "modifier": -50}, user="ana").expect_ok()
    shown = run(sb, g, "init show")
    assert "Le quedan: 0 de combate, 1 de movimiento" in shown.all_text, shown.all_text
    again = run(sb, g, "attack", {"target": "Lobo", "modifier": -50}, user="ana")
    assert again.ephemeral and says(again, "actions.problem.none_left", name="Eira", count=1)
    free = {"target": "Lobo", "modifier": -50, "circumstances": "ataque_libre_salir"}
    run(sb, g, "attack", free, user="ana").expect_ok()  # a reaction: not counted
    wolf = {"target": "Eira", "character": "Lobo", "bonus": 10, "damage": "1d4"}
    out = run(sb, g, "attack", wolf)
    assert out.ephemeral and says(out, "actions.problem.not_your_turn", name="Lobo", current="Eira")
    run(sb, g, "campaign settings", {"setting": "acciones_por_turno", "value": "advertir"})
    warned = run(sb, g, "attack", {"target": "Lobo", "modifier": -50}, user="ana")
    assert not warned.ephemeral and says(
        warned, "actions.problem.none_left", name="Eira", count=1
    ), warned.all_text
    run(sb, g, "campaign settings", {"setting": "acciones_por_turno", "value": "rechazar"})

    # Eira falls on Bram's turn; her next turn is her death test, once, and it holds the turn
    run(sb, g, "init next", user="ana").expect_ok()
    dying = run(sb, g, "init damage", {"combatant": "Eira", "amount": 100})
    assert "moribundo" in dying.all_text, dying.all_text
    early_test = run(sb, g, "check", {"option": "muerte"}, user="ana")
    assert early_test.ephemeral and says(early_test, "combat.problem.no_test_now", name="Eira")
    run(sb, g, "init next", user="bruno").expect_ok()  # the wolf
    turn = run(sb, g, "init next")  # round 2: Eira's test
    assert "Turno de **Eira** (moribundo)" in turn.all_text, turn.all_text
    # the tracker waits for her test: her player is pinged, as on any turn of hers
    ana = g.member("ana")
    assert f"<@{ana.id}>" in turn.content, turn.content
    assert [int(u["id"]) for u in turn.message.data["mentions"]] == [ana.id], turn.message.data
    held = run(sb, g, "init next")
    assert held.ephemeral and says(held, "combat.problem.test_pending", name="Eira"), held.text
    rolled = press(sb, turn, DEATH_TEST, user="ana")
    assert "Tirada de muerte" in rolled.all_text, rolled.all_text
    if "moribundo" in rolled.all_text and "muere" not in rolled.all_text.casefold():
        twice = run(sb, g, "check", {"option": "muerte"}, user="ana")
        assert twice.ephemeral and says(twice, "combat.problem.no_test_now", name="Eira")
    run(sb, g, "init next").expect_ok()  # rolled: the turn passes
    # a whole round later, the GM skips it explicitly (a player may not)
    run(sb, g, "init next", user="bruno").expect_ok()
    turn = run(sb, g, "init next")
    if "(moribundo)" in turn.all_text:
        player = run(sb, g, "init next", {"skip_test": True}, user="ana")
        assert player.ephemeral, player.all_text
        skipped = run(sb, g, "init next", {"skip_test": True})
        assert "Turno de **Bram**" in skipped.all_text, skipped.all_text


def test_nucleo_two_actions_and_a_split_third(discord_env):
    sb = discord_env
    g = game(sb, "Turnos Núcleo", "nucleo")
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    run(sb, g, "sheet import", {"file": json.dumps(document).encode()}, user="ana").expect_ok()
    npc_trasgo(sb, g)
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Trasgo", "initiative": 25}).expect_ok()  # 2 actions
    run(sb, g, "init move", {"combatant": "Ardelia", "initiative": 5}).expect_ok()
    turn = run(sb, g, "init next")
    assert "Le quedan: 2 acciones mayores, 2 menores" in turn.all_text, turn.all_text
    blow = {"target": "Ardelia", "character": "Trasgo", "modifier": -50}
    run(sb, g, "attack", blow).expect_ok()
    run(sb, g, "attack", blow).expect_ok()
    third = run(sb, g, "attack", blow)
    assert third.ephemeral and says(third, "actions.problem.split_hint", name="Trasgo", count=2)
    forced = run(sb, g, "attack", blow | {"circumstances": "forzar"})
    assert not forced.ephemeral, forced.all_text
    player = run(sb, g, "attack", {"target": "Trasgo"}, user="ana")
    assert player.ephemeral and says(
        player, "actions.problem.not_your_turn", name="Ardelia", current="Trasgo"
    )


def test_swc_the_side_acts_in_its_phase(discord_env):
    sb = discord_env
    g = game(sb, "Turnos SyW", "swc")
    create_fighter(sb, g)
    create_fighter(sb, g, name="Bram", user="bruno")
    run(
        sb, g, "sheet import", {"file": sheet_file(dict(swc_orc(), system="swc"), npc=True)}
    ).expect_ok()
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init join", user="bruno").expect_ok()
    run(sb, g, "init add", {"name": "Orco", "initiative": 3}).expect_ok()
    run(sb, g, "init roll").expect_ok()
    turn = run(sb, g, "init next")
    players_first = "Turno de **Brann**" in turn.all_text or "Turno de **Bram**" in turn.all_text
    orc = {"target": "Brann", "character": "Orco", "modifier": -50}
    player = {"target": "Orco", "modifier": -50}
    if players_first:  # both players' characters act in their side's phase, once each
        run(sb, g, "attack", player, user="ana").expect_ok()
        run(sb, g, "attack", player, user="bruno").expect_ok()
        twice = run(sb, g, "attack", player, user="ana")
        assert twice.ephemeral and says(twice, "actions.problem.none_left", name="Brann", count=1)
        refused = run(sb, g, "attack", orc)
        assert refused.ephemeral and "No es el turno de Orco" in refused.text, refused.text
    else:
        run(sb, g, "attack", orc).expect_ok()
        refused = run(sb, g, "attack", player, user="bruno")
        assert refused.ephemeral, refused.all_text


def test_rolweb_blind_attacks_and_no_pain_threshold_for_the_dead(discord_env):
    sb = discord_env
    g = game(sb, "Ciegas rolweb", "rolweb")
    orc = rolweb_orc()
    orc["atributos"] |= {"Astuto": 5}
    orc["resistencia"] = {"actual": 5, "maxima": 12}
    run(sb, g, "sheet import", {"file": sheet_file(dict(orc, system="rolweb"), npc=True)})
    run(sb, g, "npc reveal", {"name": "Orco"}).expect_ok()
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init add", {"name": "Orco", "initiative": 3}).expect_ok()
    run(sb, g, "init add", {"name": "Lobo", "initiative": 5}).expect_ok()
    blind = {
        "target": "Orco", "character": "Lobo", "bonus": 10, "damage": "1", "modifier": -50,
        "circumstances": "dos_oportunidades_peor",
    }  # fmt: skip
    missed = run(sb, g, "attack", blind)
    assert says(missed, "rolweb.note.blind_attacker"), missed.all_text
    assert "2d20" in missed.all_text, missed.all_text
    # 10 of damage ≥ the orc's Umbral de dolor 6, and it dies: no choice to offer
    kill = {"target": "Orco", "character": "Lobo", "bonus": 10, "damage": "10", "modifier": 50}
    killed = run(sb, g, "attack", kill)
    assert says(killed, "rolweb.note.dead"), killed.all_text
    assert not says(killed, "rolweb.note.pain_threshold"), killed.all_text
