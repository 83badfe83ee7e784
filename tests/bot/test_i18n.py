"""The message catalogue: both languages complete, placeholders in step, every used key present."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import Catalogue, catalogue, choose_locale, normalize_locale, t

ROOT = Path(__file__).resolve().parents[2]


def _keys(lang: str) -> set[str]:
    return {k for k in catalogue().messages[lang] if not k.startswith("commands.")}


def test_spanish_and_english_have_the_same_keys():
    es, en = _keys("es"), _keys("en")
    assert es - en == set(), f"missing in English: {sorted(es - en)}"
    assert en - es == set(), f"missing in Spanish: {sorted(en - es)}"


def test_placeholders_match_between_languages():
    cat = catalogue()
    mismatched = [
        key for key in _keys("es") if cat.placeholders(key, "es") != cat.placeholders(key, "en")
    ]
    assert mismatched == []


def test_every_literal_key_used_in_code_exists():
    pattern = re.compile(
        r"""\bt\(\s*"([a-z_]+(?:\.[a-z_0-9]+)+)"|(?<![a-z_])key="([a-z_]+(?:\.[a-z_0-9]+)+)"|Error\("([a-z_]+(?:\.[a-z_0-9]+)+)\""""
    )
    used: set[str] = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            if "sandbox" in path.parts:
                continue
            for match in pattern.finditer(path.read_text(encoding="utf-8")):
                used.add(next(group for group in match.groups() if group))
    missing = sorted(key for key in used if not catalogue().has(key, "es"))
    assert missing == []
    assert "roll.title" in used  # the scan really finds keys


def test_format_fills_placeholders_and_survives_missing_ones():
    assert t("campaign.created", "es", name="Mesa") == "Campaña creada: Mesa"
    assert t("campaign.created", "en", name="Mesa") == "Campaign created: Mesa"
    assert t("no.such.key", "es") == "no.such.key"
    assert "{name}" in t("campaign.created", "es")


def test_english_falls_back_to_spanish_for_a_missing_key():
    cat = Catalogue({"es": {"a.b": "hola"}, "en": {}})
    assert cat.format("a.b", "en") == "hola"


def test_locale_choice_order():
    assert normalize_locale("es-ES") == "es"
    assert normalize_locale("es-419") == "es"
    assert normalize_locale("en-US") == "en"
    assert normalize_locale("fr") is None
    # the user's language first, then the campaign's, then the default
    assert choose_locale("en-GB", "es", "es") == "en"
    assert choose_locale("fr", "en", "es") == "en"
    assert choose_locale("fr", None, "es") == "es"


def test_the_languages_are_listed_once_and_every_list_of_texts_has_them_all():
    """One tuple (rules.names.LOCALES, re-exported by bot.i18n) names the catalogue's folders
    and the names' files: a language added in one place only is caught here."""
    import bot.i18n
    import rules.names

    assert bot.i18n.LOCALES is rules.names.LOCALES
    repo = Path(__file__).resolve().parents[2]
    catalogues = {p.name for p in (repo / "bot" / "locales").iterdir() if p.is_dir()}
    names = {p.stem for p in (repo / "data" / "names").glob("*.toml")}
    assert catalogues == names == set(bot.i18n.LOCALES)


def test_every_outcome_a_log_row_stores_is_named():
    """Was: /catch-up printed «check.outcome.hit» for an attack (check.outcome names a
    check's four outcomes only); roll.outcome names every one a row may hold, and the
    lists of stored rows read it."""
    from datetime import UTC, datetime

    from bot.services.play.attack_defence import DEFENCE_ANSWERED
    from bot.services.table.catch_up import RollLine
    from cogs.ui.render_catch_up import _roll
    from rules.combat.attack import AttackOutcome
    from rules.systems.base import Outcome

    stored = {*Outcome, *AttackOutcome, DEFENCE_ANSWERED}
    for locale in ("es", "en"):
        for outcome in stored:
            assert catalogue().has(f"roll.outcome.{outcome}", locale), (locale, outcome)
    hit = RollLine(
        "Dorn", "Dorn", "attack", "1o3d10+15", "Espada larga → Trasgo 1", 19, "hit",
        datetime(2026, 12, 8, tzinfo=UTC), None,
    )  # fmt: skip
    assert "Impacta" in _roll(hit, "es") and "outcome" not in _roll(hit, "es")
    assert "Hit" in _roll(hit, "en")
