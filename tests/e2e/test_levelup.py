"""S&W end to end: the level-up button of an XP grant, and /init prev across a round."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import HIT_DIE, button_kinds, press
from tests.e2e.test_combat import game, run
from tests.e2e.test_sheet_swc import create_fighter

pytestmark = pytest.mark.e2e


def test_a_new_level_offers_the_hit_die_to_its_player(discord_env):
    sb = discord_env
    g = game(sb, "Nivel SWC", "swc")
    create_fighter(sb, g)
    granted = run(sb, g, "xp grant", {"amount": 2000, "character": "Brann"})
    assert "↳ Guerrero: nivel 1 → 2" in granted.all_text, granted.all_text
    assert "Dado de golpe: Brann" in [b.get("label") for b in granted.message.buttons], granted
    not_his = press(sb, granted, HIT_DIE, user="bruno")
    assert "no es tu personaje" in not_his.all_text, not_his.all_text
    rolled = press(sb, granted, HIT_DIE, user="ana")
    text = rolled.all_text
    assert "Brann sube de nivel" in text, text
    found = re.search(r"Dados de golpe: (\d+)(?: ([+-]\d+))? = (\d+) .*\*\*\+(\d+) PG\*\*", text)
    assert found, text
    modifier = int(found[2] or 0)  # Constitución's +N is shown only when not 0
    assert max(1, int(found[1]) + modifier) == int(found[3]) == int(found[4]), text
    assert "Nivel (Guerrero): 1 → 2" in text and "Salvación (Guerrero): 14 → 13" in text, text
    kinds = button_kinds(rolled.edits[-1])
    assert kinds == ["undo"], kinds  # the die's button is gone, the grant's undo stays
    shown = run(sb, g, "sheet show", user="ana").all_text
    assert "Nivel 2" in shown or "nivel 2" in shown, shown


def test_swc_prev_across_a_round_restores_its_side_dice(discord_env):
    sb = discord_env
    g = game(sb, "Atrás SWC", "swc")
    create_fighter(sb, g)
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Orcos", "initiative": 10, "count": 4}).expect_ok()
    rolled = run(sb, g, "init roll", user="ana")
    assert "d6" not in rolled.all_text, rolled.all_text  # sides roll each round, not people
    first = run(sb, g, "init next")
    dice_1 = re.search(r"Iniciativa por bando \(d6\): [^\n]*", first.text)[0]
    run(sb, g, "init next").expect_ok()
    second_round = run(sb, g, "init next")
    assert "**Asalto 2**" in second_round.text, second_round.text
    dice_2 = re.search(r"Iniciativa por bando \(d6\): [^\n]*", second_round.text)[0]
    back = run(sb, g, "init prev")
    assert "Combate — asalto 1" in back.text, back.text
    if dice_1 != dice_2:
        assert dice_2 not in back.text, back.text  # not round 2's roll under round 1
    again = run(sb, g, "init next")
    assert "**Asalto 2**" in again.text and dice_2 in again.text, (dice_2, again.text)


def test_swc_check_difficulty_is_used_or_refused_never_ignored(discord_env):
    sb = discord_env
    g = game(sb, "Dificultad SWC", "swc")
    create_fighter(sb, g)
    used = run(sb, g, "check", {"option": "atributo:Fuerza", "difficulty": 7}, user="ana")
    assert used.ok and not used.ephemeral, used.text
    assert "(objetivo 7)" in used.text and "35,00 %" in used.text, used.text  # d20 ≤ 7
    refused = run(sb, g, "check", {"option": "puertas", "difficulty": 12}, user="ana")
    assert refused.ephemeral and "no admite una dificultad" in refused.text, refused.text
