"""Issue 23, «the first month»: a group the GM adds by name with hit points fights creature by
creature, end to end through the stand-in (SQLite and PostgreSQL).

Núcleo: Ana's Ardelia against «Trasgo ×2», 3 PV each, Defensa 1, no armour.  The GM's
``/init damage`` wounds the one in front (the panel says «herido», the numbers go to him
alone); Ardelia's blows fell them one by one («cae 1 (queda 1 en pie)», then «no queda nadie
en pie»), the group keeps its turn while one stands, and once the last falls ``/init next``
reports it once and never gives it a turn again; a further attack is refused.  The bot's
dice are seeded (``ARBITRO_TEST_DICE_SEED``, a process of its own) so each blow lands; the
arithmetic is proved in tests/rules/test_combat_groups.py and tests/bot/test_group_health.py.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.helpers import start_arbitro
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e

ES = {"locale": "es-ES"}
SEED = "3"


@pytest.fixture
def seeded(bot_database_url, tmp_path):
    sb = start_arbitro(bot_database_url, tmp_path, {"ARBITRO_TEST_DICE_SEED": SEED})
    try:
        yield sb
    finally:
        sb.close()


def test_nucleo_goblins_fall_one_by_one_and_their_turns_stop(seeded):
    sb = seeded
    g = sb.new_guild(name="Trasgos")

    def run(path, options=None, user="gm"):
        r = sb.command(path, options or {}, guild=g, channel="mesa", user=user, **ES)
        print(f"\n### {user}: /{path} {options or ''}\n{r.all_text}")
        return r

    run("campaign create", {"name": "Trasgos", "system": "nucleo"}).expect_ok()
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    run("sheet import", {"file": json.dumps(document).encode()}, user="ana").expect_ok()
    run("init start").expect_ok()
    run("init join", user="ana").expect_ok()
    run("init move", {"combatant": "Ardelia", "initiative": 18}).expect_ok()
    added = run(
        "init add",
        {"name": "Trasgo", "count": 2, "initiative": 5, "defence": 1, "armour": "0",
         "hit_points": 3},
    )  # fmt: skip
    assert "Trasgo ×2 (5)" in added.text, added.text

    hurt = run("init damage", {"combatant": "Trasgo", "amount": 2})
    assert "Estado: herido" in hurt.text and "/3" not in hurt.text, hurt.text
    assert any(
        f.ephemeral and "🔒 Trasgo (2 en pie): el que está delante, 1/3" in f.text
        for f in hurt.followups
    ), hurt.all_text
    seen = run("init show", user="ana")
    assert "Trasgo ×2 (5) · herido" in seen.text and "/3" not in seen.text, seen.text

    turn = run("init next")
    assert "Turno de **Ardelia**" in turn.text, turn.text
    first = run("attack", {"target": "Trasgo", "modifier": 50}, user="ana")
    assert "💀 Trasgo: cae 1 (queda 1 en pie)." in first.text, first.all_text
    assert "/3" not in first.text, first.text
    panel = run("init next")  # the one left still has its turn
    assert "Turno de **Trasgo**" in panel.text, panel.text
    assert "**Trasgo** ×1 (5) · 1 baja" in panel.text, panel.text
    assert "le quedan 3 al siguiente en pie (cae 1)" in panel.all_text  # the GM's note

    turn = run("init next")
    assert "**Asalto 2**" in turn.text and "Turno de **Ardelia**" in turn.text, turn.text
    last = run("attack", {"target": "Trasgo", "modifier": 50}, user="ana")
    assert "no queda nadie en pie; el grupo está fuera de combate" in last.text, last.all_text
    gone = run("init next")  # the group's turn is passed over, reported once
    assert "Trasgo queda fuera del orden de turnos (fuera de combate)." in gone.text, gone.text
    assert "**Asalto 3**" in gone.text and "Turno de **Ardelia**" in gone.text, gone.text
    assert "Trasgo (5) · fuera de combate · 2 bajas" in gone.text, gone.text
    again = run("init next")
    assert "**Asalto 4**" in again.text and "queda fuera" not in again.text, again.text
    assert "Turno de **Trasgo**" not in again.text, again.text

    refused = run("attack", {"target": "Trasgo", "modifier": 50}, user="ana")
    assert refused.ephemeral and "No queda nadie en pie en Trasgo" in refused.text, refused.text
    healed = run("init heal", {"combatant": "Trasgo", "amount": 3})
    assert healed.ephemeral and "No queda nadie en pie en Trasgo" in healed.text, healed.text
