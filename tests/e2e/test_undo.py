"""The GM's undo end to end: from a reply's button, from /history's id, and refused."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.helpers import UNDO, press
from tests.e2e.test_combat import game, run
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e


def _pv(sb, g) -> str:
    """The sheet as shown, without its version number (an undo is a new version)."""
    return re.sub(r"versión \d+", "", run(sb, g, "sheet show", user="ana").all_text)


def test_undo_from_a_button_and_a_refused_undo(discord_env):
    sb = discord_env
    g = game(sb, "Deshacer", "nucleo")
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    run(sb, g, "sheet import", {"file": json.dumps(document).encode()}, user="ana").expect_ok()
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    healthy = _pv(sb, g)

    hurt = run(sb, g, "init damage", {"combatant": "Ardelia", "amount": 20})
    assert "Estado: malherido (4/24)" in hurt.text, hurt.text  # the tracker gives what is left
    not_gm = press(sb, hurt, UNDO, user="ana")
    assert "Solo el máster" in not_gm.all_text, not_gm.all_text
    undone = press(sb, hurt, UNDO, user="gm")
    assert "Deshecho #" in undone.all_text and "**Ardelia**" in undone.all_text, undone.all_text
    assert undone.edits and not undone.edits[-1].buttons, "the reply loses its undo button"
    assert _pv(sb, g) == healthy, "the sheet is back as it was"
    first_id = re.search(r"Deshecho #(\d+)", undone.all_text)[1]
    twice = run(sb, g, "undo", {"entry": int(first_id)})
    assert twice.ephemeral and "ya se deshizo" in twice.text, twice.text

    # a heal after a damage depends on it: /undo by the id /history shows is refused
    run(sb, g, "init damage", {"combatant": "Ardelia", "amount": 5}).expect_ok()
    run(sb, g, "init heal", {"combatant": "Ardelia", "amount": 2}).expect_ok()
    history = run(sb, g, "history")
    hints = re.findall(r"/deshacer (\d+)", history.all_text)
    assert len(hints) == 2, history.all_text  # the damage and the heal; the undone one is marked
    assert "(deshecha)" in history.all_text
    damage_id = min(int(h) for h in hints)
    refused = run(sb, g, "undo", {"entry": damage_id})
    assert refused.ephemeral and "un cambio posterior" in refused.text, refused.text
    heal_id = max(int(h) for h in hints)
    run(sb, g, "undo", {"entry": heal_id}).expect_ok()
    assert "Deshecho" in run(sb, g, "undo", {"entry": damage_id}).text
    assert _pv(sb, g) == healthy


def test_an_xp_grant_is_undone_from_its_reply(discord_env):
    sb = discord_env
    g = game(sb, "Deshacer PX", "nucleo")
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    run(sb, g, "sheet import", {"file": json.dumps(document).encode()}, user="ana").expect_ok()
    granted = run(sb, g, "xp grant", {"amount": 7, "character": "Ardelia"})
    undone = press(sb, granted, UNDO, user="gm")
    assert "−7 PX" in undone.all_text or "-7 PX" in undone.all_text, undone.all_text
    log = run(sb, g, "xp log")
    assert "-7" in log.all_text or "−7" in log.all_text, log.all_text
