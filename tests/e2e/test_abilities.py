"""rolweb abilities end to end: Medicus heals another player's character, with its undo."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import UNDO, button_kinds, press
from tests.e2e.test_combat import game, run
from tests.e2e.test_sheet_rolweb import create_eira

pytestmark = pytest.mark.e2e


def test_medicus_heals_bram_and_the_gm_can_undo_it(discord_env):
    sb = discord_env
    g = game(sb, "Habilidades", "rolweb")
    create_eira(sb, g)  # Medicus adepto
    create_eira(sb, g, name="Bram", user="bruno", skip=True)
    listed = run(sb, g, "ability list", user="ana")
    assert "Medicus — adepto" in listed.all_text, listed.all_text
    offered = sb.autocomplete("ability use", "name", "med", guild=g, channel="mesa", user="ana")
    assert [c["value"] for c in offered] == ["Medicus"], offered
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="bruno").expect_ok()
    run(sb, g, "init damage", {"combatant": "Bram", "amount": 3}).expect_ok()
    healed = run(sb, g, "ability use", {"name": "Medicus", "target": "Bram"}, user="ana")
    text = healed.all_text
    assert "**Eira** usa **Medicus** (adepto) sobre **Bram**." in text, text
    assert "Acción: activa" in text and "recupera" in text, text
    assert "undo" in button_kinds(healed.message), healed.message.buttons
    not_yours = run(sb, g, "ability use", {"name": "Medicus", "character": "Eira"}, user="bruno")
    assert not_yours.ephemeral, not_yours.text
    unknown = run(sb, g, "ability use", {"name": "Volar"}, user="ana")
    assert unknown.ephemeral, unknown.text
    undone = press(sb, healed, UNDO, user="gm")
    assert "Deshecho #" in undone.all_text, undone.all_text
    spell = run(sb, g, "spell cast", {"name": "Imposición de manos"}, user="ana")
    assert "/habilidad usar" in spell.all_text, spell.all_text
