"""Every catalogue key rules/rolweb emits exists in bot/locales/{es,en}/rolweb.toml, and the
two languages agree on keys and placeholders (project rule: both languages for every key)."""

from __future__ import annotations

import re
import string
from pathlib import Path

from rules.rolweb.settings import SETTING_SPECS

from .conftest import CATALOGUES

CODE = Path(__file__).resolve().parents[3] / "rules" / "rolweb"
KEY = re.compile(r'"(rolweb\.(?:problem|note|step)\.[a-z_]+)"')


def _emitted() -> set[str]:
    return {
        key for path in CODE.glob("*.py") for key in KEY.findall(path.read_text(encoding="utf-8"))
    }


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_emitted_key_is_in_both_languages():
    emitted = _emitted()
    assert len(emitted) > 30  # the scan really finds the keys
    for lang, messages in CATALOGUES.items():
        assert emitted - set(messages) == set(), lang


def test_languages_have_the_same_keys_and_placeholders():
    es, en = CATALOGUES["es"], CATALOGUES["en"]
    assert set(es) == set(en)
    assert [k for k in es if _placeholders(es[k]) != _placeholders(en[k])] == []


def test_no_unused_keys():
    # rolweb.system.choice is read by the bot, by convention, for every registered system;
    # rolweb.setting.<key> describes a campaign setting (the settings autocomplete shows it).
    settings = {f"rolweb.setting.{spec.key}" for spec in SETTING_SPECS}
    emitted = _emitted()
    # agreement variants (``_femenino``, ``_masculino``, ``_one``) are read with their base key
    # (bot.i18n.Catalogue.variant)
    unused = {
        key
        for key in set(CATALOGUES["es"]) - emitted - settings
        if not any(
            key == f"{base}{s}" for base in emitted for s in ("_femenino", "_masculino", "_one")
        )
    }
    assert unused == {"rolweb.system.choice"}


def test_described_settings_exist():
    described = {k for k in CATALOGUES["es"] if k.startswith("rolweb.setting.")}
    assert described and described <= {f"rolweb.setting.{spec.key}" for spec in SETTING_SPECS}
