"""What a reader sees for the leaks issue 13 lists: names, never ids (render level).

Each case renders a view the way the bot does and looks for the id the issue found and the
display name that replaces it, in Spanish and in English.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.services.sheets.access import CharacterView
from bot.services.sheets.xp import GrantLine, GrantView
from bot.words import named_params, problem_text, setting_name, setting_value
from cogs.ui import render_sheet, render_xp
from rules import systems
from rules.systems.base import Problem, RulesError
from tests.examples import ardelia, swc_cleric


def _cleric() -> dict[str, Any]:
    return swc_cleric(alineamiento="caotico")


def _view(system_id: str, sheet: dict[str, Any]) -> CharacterView:
    system = systems.get(system_id)
    settings = {s.key: s.default for s in system.settings()}
    return CharacterView(
        id=1,
        name=sheet["name"],
        system=system_id,
        system_name=system.name,
        owner_user_id=1,
        is_npc=False,
        hidden=False,
        sheet=sheet,
        fields=system.fields(settings),
        derived=tuple(system.derived(sheet, settings)),
        problems=tuple(system.validate(sheet, settings)),
        version=1,
        campaign_name="Marca",
    )


def _text(message: dict[str, Any]) -> str:
    parts = []
    for embed in message["embeds"]:
        parts.append(embed.description or "")
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def test_a_cleric_sheet_names_class_alignment_threats_and_spell_lists() -> None:
    es = _text(render_sheet.character(_view("swc", _cleric()), "es"))
    assert "**Clase**: Clérigo" in es and "clerigo" not in es
    assert "**Alineamiento**: caótico" in es and "caotico" not in es
    assert "parálisis" in es and "paralisis" not in es  # the cleric's save bonus
    assert "Conjuros de Clérigo" in es
    en = _text(render_sheet.character(_view("swc", _cleric()), "en"))
    assert "**Clase**: Cleric" in en and "**Alineamiento**: chaotic" in en


def test_a_nucleo_sheet_names_its_pyramid() -> None:
    es = _text(render_sheet.character(_view("nucleo", ardelia()), "es"))
    assert "**Pirámide**: Versátil" in es and "versatil" not in es
    en = _text(render_sheet.character(_view("nucleo", ardelia()), "en"))
    assert "**Pirámide**: Versatile" in en


def test_a_sheet_names_its_health_state_agreeing_with_its_gender() -> None:
    """/sheet show: Núcleo's derived state and rolweb's «estado» field are ids (was:
    «malherido» in English, and no agreement)."""
    wounded = dict(ardelia(), heridas=18, genero="femenino")
    es = _text(render_sheet.character(_view("nucleo", wounded), "es"))
    assert "**Estado**: malherida" in es
    assert "(malherido / inconsciente / muerto)" in es  # the thresholds' names, lowercase
    en = _text(render_sheet.character(_view("nucleo", wounded), "en"))
    assert "**Estado**: badly wounded" in en
    rolweb = systems.get("rolweb")
    eira = rolweb.new_sheet("Eira", {s.key: s.default for s in rolweb.settings()})
    eira.update(estado="moribundo", genero="femenino")
    assert "**Estado**: moribunda" in _text(render_sheet.character(_view("rolweb", eira), "es"))
    assert "**Estado**: dying" in _text(render_sheet.character(_view("rolweb", eira), "en"))


def test_the_alignment_a_class_refuses_is_named() -> None:
    """Was: «La clase paladin no admite el alineamiento caotico»."""
    problems = systems.get("swc").validate(_cleric() | {"clases": ["paladin"]}, {})
    (refusal,) = [p for p in problems if p.key == "swc.problem.alignment_not_allowed"]
    assert (
        problem_text(refusal.key, refusal.params, "es")
        == "La clase Paladín no admite el alineamiento caótico."
    )
    assert "Paladin" in problem_text(refusal.key, refusal.params, "en")
    assert "chaotic" in problem_text(refusal.key, refusal.params, "en")


def test_what_the_user_typed_is_not_renamed() -> None:
    params = named_params("swc.problem.unknown_class", {"clase": "bárbaro"}, "es")
    assert params == {"clase": "bárbaro"}


def test_a_level_gained_names_the_class() -> None:
    """Was: «↳ clerigo: nivel 1 → 2»."""
    line = GrantLine("Aldara", 1000, 1600, (("clerigo", 1, 2),), (), system="swc")
    text = render_xp.grant(_shown(GrantView(600, None, (line,))), "es")["embed"].description
    assert "↳ Clérigo: nivel 1 → 2" in text
    text = render_xp.grant(_shown(GrantView(600, None, (line,))), "en")["embed"].description
    assert "Cleric" in text and "clerigo" not in text


def test_problems_in_a_draft_are_named() -> None:
    text = render_sheet.problems_text(
        [
            Problem(
                "swc.problem.alignment_not_allowed",
                "",
                {"clase": "paladin", "alineamiento": "caotico"},
            )
        ],
        "es",
    )
    assert text == "• La clase Paladín no admite el alineamiento caótico."


def test_settings_by_name_and_value() -> None:
    """Was: ``movimiento_a_combate (False)``."""
    assert setting_name("rolweb", "movimiento_a_combate", "es") == (
        "Moverse cuenta como acción de combate"
    )
    assert setting_value("rolweb", "movimiento_a_combate", False, "es") == t("common.no", "es")
    assert setting_value("rolweb", "naturales", "criticos", "es").startswith("críticos")
    assert setting_value("swc", "pg_cero", "muere_a_0", "en") == "dies at 0"


def test_checks_strike_dropped_dice_the_way_discord_reads_them() -> None:
    """Was: «1o3d10 (7, ~2~, ~9~)» in /check, initiative and spells: Discord prints single
    tildes literally.  Every breakdown now strikes with ``~~``, like /roll."""
    import random
    import re

    from bot.services.play.checks import CheckView
    from rules.systems.base import CheckRequest

    nucleo = systems.get("nucleo")
    result = nucleo.check(ardelia(), CheckRequest("habilidad:Pilotar"), {}, random.Random(3))
    view = CheckView(1, "ana", "Ardelia", result, None, None, False, None)
    text = render_sheet.check(_shown(view), "es")["embed"].description
    assert "~~" in text, text
    assert not re.search(r"(?<!~)~[^~]+~(?!~)", text), text
    initiative = nucleo.initiative(ardelia(), {}, random.Random(3))
    assert "~~" in initiative.breakdown and not re.search(
        r"(?<!~)~[^~]+~(?!~)", initiative.breakdown
    )


def test_long_lists_in_errors_are_summarised_never_cut() -> None:
    """Was: a list of valid fields cut mid-word («…, habilidade.»)."""
    from bot.services.sheets.characters import _closest
    from bot.words import whole_list

    paths = [f"habilidades.Habilidad número {i}" for i in range(80)]
    text = whole_list(paths)
    assert len(text) < 1000 and text.endswith("… (+" + text.rsplit("(+", 1)[1])
    shown = text.rsplit("…", 1)[0].split(", ")
    assert all(item in paths for item in shown)  # whole names only
    assert _closest("atributos.fisico", ["notas", "atributos.Físico", "name"])[0] == (
        "atributos.Físico"
    )


def test_truncation_never_splits_a_word() -> None:
    from cogs.ui.render import truncate

    text = ", ".join(f"habilidades.Habilidad{i}" for i in range(100))
    cut = truncate(text, 300)
    assert len(cut) <= 300 and cut.endswith("…")
    assert cut[:-1].rsplit(", ", 1)[1] in text.split(", ")  # the last item is whole
    assert truncate("corto", 300) == "corto"


def test_a_campaign_list_that_does_not_load_is_named_as_its_setting():
    """Was «The data of armas is not valid JSON» for an English-speaking GM."""
    from rules.rolweb.equipment import load_weapons
    from rules.rolweb.settings import parse_settings

    with pytest.raises(RulesError) as error:
        load_weapons(parse_settings({"armas": '[{"nombre": "Sable",, }]'}))
    (problem,) = error.value.problems
    assert problem_text(problem.key, problem.params, "es").startswith(
        "Los datos de la regla «Armas propias» no son JSON válido: hay un error en la línea 1"
    )
    assert problem_text(problem.key, problem.params, "en").startswith(
        "The data of the rule “Own weapons” is not valid JSON"
    )


def _shown(view):
    """``view`` as the channel reads it (the audience rule), as the cogs render it."""
    from bot.services.shared.audience import PUBLIC, Reader, show

    return show(PUBLIC, Reader.everyone(), lambda _seen: view)
