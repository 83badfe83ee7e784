"""The creation wizard's mechanics, whatever the system: stale clicks, strangers, restart,
cancel, resume, and a draft that survives a bot restart (persistent components).

Driven with the rolweb wizard, whose first steps are two attribute forms.
"""

from __future__ import annotations

import pytest

from tests.e2e.helpers import (
    WIZARD_CANCEL,
    WIZARD_FORM,
    WIZARD_RESTART,
    fill_wizard_form,
    new_campaign,
    press,
    says,
    start_arbitro,
)

pytestmark = pytest.mark.e2e

FIRST = {"Ágil": "13", "Astuto": "8", "Atento": "10", "Diestro": "11"}


def campaign(sb, name):
    return new_campaign(sb, name, "rolweb", name="Marca")


fill = fill_wizard_form


def test_a_click_on_an_outdated_copy_of_the_wizard_changes_nothing(discord_env):
    g = campaign(discord_env, "Doble clic")
    first = discord_env.command(
        "sheet create", {"name": "Eira"}, guild=g, channel="mesa", user="ana"
    )
    # /sheet create again shows the same draft in a second message (e.g. on another device)
    copy = discord_env.command("sheet create", {}, guild=g, channel="mesa", user="ana")
    assert "parte 1 de 2" in copy.text
    fill(discord_env, copy, FIRST)
    stale = press(discord_env, first, WIZARD_FORM, user="ana")
    assert stale.modal is None and stale.ephemeral, stale.text
    assert says(stale, "sheet.error.draft_stale"), stale.text
    resumed = discord_env.command("sheet create", {}, guild=g, channel="mesa", user="ana")
    assert "parte 2 de 2" in resumed.text  # the draft kept exactly one answer


def test_only_the_author_can_answer(discord_env):
    g = campaign(discord_env, "Ajeno")
    r = discord_env.command("sheet create", {"name": "Eira"}, guild=g, channel="mesa", user="ana")
    stranger = press(discord_env, r, WIZARD_FORM, user="bruno")
    assert stranger.ephemeral and says(stranger, "sheet.error.not_your_draft"), stranger.text


def test_restart_and_cancel(discord_env):
    g = campaign(discord_env, "Reiniciar")
    r = discord_env.command("sheet create", {"name": "Eira"}, guild=g, channel="mesa", user="ana")
    r = fill(discord_env, r, FIRST)
    assert "parte 2 de 2" in r.text
    r = press(discord_env, r, WIZARD_RESTART, user="ana")
    assert "parte 1 de 2" in r.text, r.text
    cancelled = press(discord_env, r, WIZARD_CANCEL, user="ana")
    assert says(cancelled, "wizard.cancelled")
    needs_name = discord_env.command("sheet create", {}, guild=g, channel="mesa", user="ana")
    assert needs_name.ephemeral and says(needs_name, "sheet.error.name_needed")
    fresh = discord_env.command(
        "sheet create", {"name": "Otra", "restart": True}, guild=g, channel="mesa", user="ana"
    )
    assert "Creando a Otra" in fresh.text


def test_the_wizard_outlives_a_bot_restart(bot_database_url, tmp_path):
    sb = start_arbitro(bot_database_url, tmp_path)
    env = {"DATABASE_URL": bot_database_url}
    try:
        g = campaign(sb, "Reinicio")
        r = sb.command("sheet create", {"name": "Eira"}, guild=g, channel="mesa", user="ana")
        r = fill(sb, r, FIRST)
        sb.stop_bot()
        sb.start_bot("bot.__main__", env=env, log_path=tmp_path / "bot2.log")
        # The message sent before the restart still works: state lives in the database.
        after = fill(sb, r, {"Discreto": "10", "Fuerte": "12", "Persuasivo": "9", "Tenaz": "7"})
        assert "Tienes 50 puntos de experiencia" in after.text, after.text
    finally:
        sb.close()


def test_a_form_submitted_after_a_restart_is_answered(bot_database_url, tmp_path):
    """The form was opened before the restart: its submission must still reach the draft."""
    sb = start_arbitro(bot_database_url, tmp_path)
    env = {"DATABASE_URL": bot_database_url}
    try:
        g = campaign(sb, "Formulario")
        r = sb.command("sheet create", {"name": "Eira"}, guild=g, channel="mesa", user="ana")
        modal = press(sb, r, WIZARD_FORM, user="ana")
        assert modal.modal is not None, modal.text
        sb.stop_bot()
        sb.start_bot("bot.__main__", env=env, log_path=tmp_path / "bot2.log")
        after = sb.submit_modal(modal, FIRST, user="ana")
        assert after.ok and "parte 2 de 2" in after.text, after.text
        # the same (now stale) form submitted again is answered, not applied twice
        again = sb.submit_modal(modal, FIRST, user="ana")
        assert again.ephemeral and says(again, "sheet.error.draft_stale"), again.text
        resumed = sb.command("sheet create", {}, guild=g, channel="mesa", user="ana")
        assert "parte 2 de 2" in resumed.text
    finally:
        sb.close()
