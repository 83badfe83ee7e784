"""Experience that leads somewhere, consistently (issue 23 §4), end to end through the stand-in.

Rolweb's one rule for a new character's experience: the wizard and an import give the same
(the campaign's starting XP, or a dead character's when larger, its abilities paid out of it),
and the wizard says what the new character starts with.  (Núcleo's session bonus is in
tests/e2e/test_xp.py.)
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import new_campaign, says, sheet_file
from tests.e2e.test_sheet_rolweb import create_eira
from tests.rules.rolweb.test_fight import ardelia as rolweb_pc

pytestmark = pytest.mark.e2e

ES = {"locale": "es-ES"}


def run(sb, g, path, options=None, user="gm"):
    return sb.command(path, options or {}, guild=g, channel="mesa", user=user, **ES)


def _newcomer(name, **abilities):
    sheet = rolweb_pc() | {"name": name}
    sheet["atributos"] |= {"Astuto": 5, "Persuasivo": 8}
    sheet["habilidades"] = dict(abilities)
    return sheet


def test_an_import_gets_the_experience_the_wizard_gives(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Importar rolweb", "rolweb")
    # an import started with 0 XP and Medicus for free; the wizard would give 50 and charge 10
    r = run(
        sb,
        g,
        "sheet import",
        {"file": sheet_file(_newcomer("Dax", Medicus="principiante"))},
        user="bruno",
    )
    assert r.ok and "**Experiencia gastada**: 10" in r.all_text, r.all_text
    shown = run(sb, g, "sheet show", {"character": "Dax"}, user="bruno")
    assert re.search(r"Experiencia disponible\D{0,6}40 \(50 − 10\)", shown.all_text), shown.all_text
    rich = _newcomer("Fen", Medicus="maestro", Recuperación="principiante")
    refused = run(sb, g, "sheet import", {"file": sheet_file(rich)}, user="bruno")
    assert refused.ephemeral, refused.all_text
    assert says(refused, "rolweb.problem.abilities_cost_more", cost=70, available=50), (
        refused.all_text
    )


def test_the_wizard_says_what_a_dead_characters_heir_starts_with(discord_env):
    """Eira dies with 40 XP; Brenna inherits them but starts with the campaign's 50, and the
    wizard says so (it said «hereda los 40» and then showed 50/50)."""
    sb = discord_env
    g = new_campaign(sb, "Herencia menor", "rolweb")
    create_eira(sb, g)  # 50 XP to start, 40 spent on Medicus adepto and Recuperación
    run(sb, g, "xp grant", {"amount": -10, "character": "Eira"}).expect_ok()
    run(sb, g, "sheet set", {"character": "Eira", "field": "estado", "value": "muerto"}).expect_ok()
    first = run(sb, g, "sheet create", {"name": "Brenna"}, user="ana")
    assert says(first, "heritage.carried_less", name="Eira", xp=40, total=50), first.all_text
    create_eira(sb, g, "Brenna", skip=True).expect_ok()
    shown = run(sb, g, "sheet show", {"character": "Brenna"}, user="ana")
    assert re.search(r"Experiencia disponible\D{0,6}50 \(50 − 0\)", shown.all_text), shown.all_text
