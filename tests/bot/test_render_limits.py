"""Long lists are summarised at a line boundary, never cut mid-word or refused by Discord
(issue 9 §2): ``fit_lines`` and the list renderers that use it."""

from __future__ import annotations

from bot.services.sheets.characters import CharacterSummary
from cogs.ui.render import fit_lines
from cogs.ui.render_sheet import character_list


def test_short_lists_are_left_whole():
    assert fit_lines(["uno", "dos"], "es") == "uno\ndos"


def test_long_lists_stop_at_a_whole_line_and_say_how_many_are_left():
    lines = [f"• línea número {i:03d} con un nombre largo" for i in range(300)]
    text = fit_lines(lines, "es", limit=1000)
    assert len(text) <= 1000
    shown = text.split("\n")[:-1]
    assert shown == lines[: len(shown)]  # whole lines, in order
    assert text.endswith(f"… y {len(lines) - len(shown)} más")
    assert fit_lines(lines, "en", limit=1000).endswith(f"… and {len(lines) - len(shown)} more")


def test_a_campaign_with_hundreds_of_npcs_lists_within_the_embed_limit():
    rows = tuple(
        CharacterSummary(
            i, f"Trasgo de las cuevas profundas número {i}", 1, True, False, False, False
        )
        for i in range(200)
    )
    reply = character_list(rows, "es", npcs=True, deleted=False)
    description = reply["embed"].description
    assert len(description) <= 4000
    listed = description.count("• **")
    assert listed < 200 and description.endswith(f"… y {200 - listed} más")


def _campaign_with_every_rule(system: str):
    from datetime import UTC, datetime

    from bot.services.campaigns.service import CampaignView, SettingView, setting_specs

    settings = tuple(
        SettingView(spec.key, spec.default, spec.default, str(spec.kind), tuple(spec.choices))
        for spec in setting_specs(system)
    )
    return CampaignView(
        1, "La Marca", system, system, 2, None, None, None, None, "active",
        datetime.now(UTC), None, (), settings, 1,
    )  # fmt: skip


def test_every_rule_of_a_campaign_is_shown_within_one_message():
    """/campaign show lists every rule, whole: split over embeds while the descriptions fit
    in Discord's 6,000 characters of one message, else one line each — never «… y N más»."""
    from cogs.ui.render import campaign, settings_embeds

    for system in ("swc", "rolweb", "nucleo"):
        view = _campaign_with_every_rule(system)
        embeds = campaign(view, "es")["embeds"]
        assert sum(len(embed) for embed in embeds) <= 6000
        assert all(len(embed.description or "") <= 4096 for embed in embeds)
        shown = "\n".join(embed.description or "" for embed in embeds[1:])
        assert "… y " not in shown and shown.count("**") >= 2 * len(view.settings)
        # a tight budget: one line per rule, none left out, and the note says why
        tight = settings_embeds(view, "es", budget=1500)
        lines = "\n".join(embed.description or "" for embed in tight).split("\n")
        assert "↳" not in "\n".join(lines) and len(lines) == len(view.settings) + 1
        assert "`/campaña ver regla:…` explica una" in lines[-1]  # where each is explained
