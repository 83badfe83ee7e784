"""/attack end to end through the stand-in: a hit with damage on a hidden NPC whose numbers
reach only the GM channel, a miss, a sheetless group left to the GM, the rolweb defence
button (only the target's player presses it; a late press is refused) and Núcleo's state
after a hit.  The bot's dice are not seeded here: a ±50 modifier makes the outcome certain
(S&W by default lets the tables decide naturals; exact numbers are in tests/bot/test_attacks.py)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import import_sheet, new_campaign, press, says
from tests.e2e.test_combat import npc_trasgo
from tests.e2e.test_sheet_rolweb import create_eira
from tests.e2e.test_sheet_swc import create_fighter
from tests.examples import ARDELIA
from tests.rules.rolweb.test_fight import orc as rolweb_orc
from tests.rules.swc.test_attack_swc import orc

pytestmark = pytest.mark.e2e

ES = {"locale": "es-ES"}
DEFEND = "arb:1:defend:"


def run(sb, g, path, options=None, user="gm"):
    return sb.command(path, options or {}, guild=g, channel="mesa", user=user, **ES)


def public_text(sb, g, channel="mesa"):
    return "\n".join(m.content + str(m.embeds) for m in sb.channel_messages(g, channel))


def test_swc_hidden_npc_numbers_go_only_to_the_gm_channel(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Ataque S&W", "swc")
    run(sb, g, "campaign settings", {"gm_channel": g.channel("gm")}).expect_ok()
    create_fighter(sb, g)  # Brann, Guerrero 1 (the wizard: players cannot import S&W classes)
    import_sheet(sb, g, orc(pg={"max": 40, "actual": 40}), user="gm", npc=True)  # hidden
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init add", {"name": "Orco", "initiative": 3}).expect_ok()

    hit = run(sb, g, "attack", {"target": "Orco", "modifier": 50}, user="ana")
    assert hit.ok and not hit.ephemeral, hit.text
    assert says(hit, "attack.outcome.hit") and "Brann" in hit.all_text, hit.all_text
    damage = int(re.search(r"Daño a Orco: \*\*(\d+)\*\*", hit.all_text)[1])
    assert 0 <= damage <= 6  # Daga 1d4 + Brann's Fuerza bonus
    copies = sb.channel_messages(g, "gm")
    assert len(copies) == 1
    gm_text = copies[0].content + str(copies[0].embeds)
    # Tabla 31, Guerrero 1 against AC 6: 13; the orc had 40 pg
    assert "(objetivo 13)" in gm_text and f"({40 - damage}/40)" in gm_text, gm_text
    for secret in ("objetivo 13", f"{40 - damage}/40", "objetivo"):
        assert secret not in hit.all_text and secret not in public_text(sb, g), secret

    miss = run(sb, g, "attack", {"target": "Orco", "modifier": -50}, user="ana")
    assert says(miss, "attack.outcome.miss"), miss.all_text
    hidden = run(sb, g, "attack", {"target": "Orco", "modifier": -50, "private": True}, user="ana")
    assert hidden.ephemeral and says(hidden, "attack.outcome.miss"), hidden.all_text
    assert len(sb.channel_messages(g, "gm")) == 3  # every attack on the hidden orc is copied
    mine = run(sb, g, "attack", {"target": "Brann", "character": "Orco"}, user="ana")
    assert mine.ephemeral and says(mine, "attack.error.not_yours", name="Orco"), mine.all_text


def test_swc_sheetless_group_is_left_to_the_gm(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Grupo S&W", "swc")
    create_fighter(sb, g)
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init add", {"name": "3 trasgos", "initiative": 4, "count": 3}).expect_ok()
    r = run(sb, g, "attack", {"target": "3 trasgos"}, user="ana")
    total = int(re.search(r"el máster juzga el total (\d+)", r.all_text)[1])
    assert 1 <= total <= 21, r.all_text  # unseeded d20 (a natural 1 is 1) plus at most +1


def test_rolweb_defence_button_is_for_the_targets_player(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Defensa rolweb", "rolweb")
    create_eira(sb, g)
    npc = rolweb_orc()
    npc["atributos"] |= {"Astuto": 5}
    import_sheet(sb, g, npc, user="gm", npc=True)
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init add", {"name": "Orco", "initiative": 3}).expect_ok()

    asked = run(sb, g, "attack", {"target": "Eira", "character": "Orco"})
    assert says(asked, "attack.defence_requested", target="Eira"), asked.all_text
    assert "≤" not in asked.all_text  # the hidden orc's Diestro stays secret
    other = press(sb, asked, DEFEND, user="bruno")
    assert other.ephemeral and says(other, "attack.error.not_your_defence", name="Eira")
    assert says(asked, "attack.by", name="Orco"), asked.all_text  # the character, not «gm»
    rolled = press(sb, asked, DEFEND, user="ana")
    assert says(rolled, "attack.outcome.hit") or says(rolled, "attack.outcome.miss"), (
        rolled.all_text
    )
    # issue 23 §6: the defence was headed «Ataque de ana:», the member who pressed
    assert says(rolled, "attack.defence_by", name="Eira"), rolled.all_text
    assert "de ana" not in rolled.all_text, rolled.all_text
    # the answered request loses its button (a late press is refused: tests/bot/test_attacks.py)
    assert not sb.message(asked.messages[0].id).buttons
    gm_again = run(sb, g, "attack", {"target": "Eira", "character": "Orco"})
    by_gm = press(sb, gm_again, DEFEND, user="gm")  # the GM may press it too
    assert says(by_gm, "attack.outcome.hit") or says(by_gm, "attack.outcome.miss"), by_gm.all_text


def test_nucleo_gm_attack_wounds_a_character_and_shows_her_state(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Ataque Núcleo", "nucleo")
    import_sheet(sb, g, ARDELIA)
    npc_trasgo(sb, g)
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init add", {"name": "Trasgo"}).expect_ok()
    # +50 makes any roll but a fumble hit; 1o3d10's two 1s are a fumble whatever the bonus
    # (about 1.3 %, and the shared bot's dice are not seeded): the trasgo then attacks again
    for _ in range(4):
        hit = run(sb, g, "attack", {"target": "Ardelia", "character": "Trasgo", "modifier": 50})
        if not says(hit, "attack.fumble"):
            break
    assert says(hit, "attack.outcome.hit"), hit.all_text
    assert re.search(r"Estado: .+ \(-?\d+/24\)", hit.all_text), hit.all_text  # her PV: public
    assert "Ataque cuerpo a cuerpo" not in hit.all_text  # the hidden trasgo's bonus is not


def test_rolweb_a_sheetless_attackers_bonus_is_named_its_diestro(discord_env):
    """Issue 23 §5: «bonus:2» was silently the Bandido's Diestro: Eira defended on 1d20 ≤ 21."""
    sb = discord_env
    g = new_campaign(sb, "Bandido sin ficha", "rolweb")
    create_eira(sb, g)
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init add", {"name": "Bandido", "initiative": 5}).expect_ok()
    low = run(sb, g, "attack", {"target": "Eira", "character": "Bandido", "bonus": 2})
    assert low.ephemeral and says(
        low, "rolweb.problem.sheetless_attribute_low",
        name="Bandido", attribute="Diestro", value=2, minimum=5,
    ), low.all_text  # fmt: skip
    asked = run(
        sb, g, "attack", {"target": "Eira", "character": "Bandido", "bonus": 12, "damage": "1d6"}
    )
    assert says(asked, "rolweb.note.sheetless_attribute"), asked.all_text
    assert says(asked, "attack.defence_requested", target="Eira"), asked.all_text
