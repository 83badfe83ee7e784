"""The message catalogue: every user-facing string, in Spanish and English.

Files live in ``bot/locales/<lang>/<namespace>.toml``; a key ``dice.error.too_long`` is the
entry ``too_long`` of table ``[error]`` in ``<lang>/dice.toml``.  Placeholders use
``str.format`` syntax.  Spanish is the reference language: a key missing in English falls
back to Spanish (and a test keeps both catalogues in step, so that never happens in a
release).

The language of a reply is chosen by :func:`choose_locale`: the user's Discord locale when it
is Spanish or English, else the campaign's language, else the configured default.
"""

from __future__ import annotations

import logging
import string
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from rules.names import LOCALES

__all__ = [
    "Catalogue",
    "catalogue",
    "choose_locale",
    "normalize_locale",
    "t",
    "LOCALES",
    "COUNT_PARAMS",
]

log = logging.getLogger(__name__)

#: Parameters that count something: a message with one of them may have a ``_one`` form.
COUNT_PARAMS = ("count", "dados_golpe", "amount")
REFERENCE = "es"
LOCALE_DIR = Path(__file__).resolve().parent / "locales"


def _flatten(prefix: str, table: Mapping[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        dotted = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            _flatten(dotted, value, out)
        else:
            out[dotted] = str(value)


class Catalogue:
    """All messages of all languages, flattened to dotted keys."""

    def __init__(self, messages: Mapping[str, Mapping[str, str]]) -> None:
        self.messages = {lang: dict(entries) for lang, entries in messages.items()}

    @classmethod
    def load(cls, directory: Path = LOCALE_DIR) -> Catalogue:
        messages: dict[str, dict[str, str]] = {}
        for lang in LOCALES:
            entries: dict[str, str] = {}
            for path in sorted((directory / lang).glob("*.toml")):
                with path.open("rb") as handle:
                    _flatten(path.stem, tomllib.load(handle), entries)
            messages[lang] = entries
        return cls(messages)

    def has(self, key: str, locale: str = REFERENCE) -> bool:
        return key in self.messages.get(locale, {})

    def get(self, key: str, locale: str = REFERENCE) -> str | None:
        """The raw template for ``key`` in ``locale`` (falling back to Spanish), or None."""
        template = self.messages.get(locale, {}).get(key)
        if template is None and locale != REFERENCE:
            template = self.messages[REFERENCE].get(key)
        return template

    def format(self, key: str, locale: str = REFERENCE, /, **params: Any) -> str:
        """The message for ``key`` in ``locale`` with ``params`` filled in.

        A missing key or parameter never breaks a reply: it is logged and the key (or the
        unfilled template) is shown, which a test would catch long before a user does.
        """
        template = self.get(self.variant(key, params), locale)
        if template is None:
            log.error("missing catalogue key %s (%s)", key, locale)
            return key
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            log.exception("bad parameters for catalogue key %s (%s): %r", key, locale, params)
            return template

    def variant(self, key: str, params: Mapping[str, Any]) -> str:
        """The form of ``key`` that agrees with ``params`` (issue 13, «correct Spanish»).

        A message that depends on a character's grammatical gender has variants
        ``<key>_femenino`` and ``<key>_masculino`` next to ``<key>``, which is worded
        neutrally («La ficha de Aldara está lista») and serves an unset or ``neutro``
        gender; the caller passes ``genero=`` (:func:`bot.grammar.gender_of`).  A message
        with a count has ``<key>_one`` for exactly one («1 Dado de Golpe»); the count is
        the ``count`` parameter (or one of :data:`COUNT_PARAMS`).  A variant the catalogue
        lacks falls back to ``key``, so adding one never breaks a reply.
        """
        gender = params.get("genero")
        if gender in ("femenino", "masculino") and self.has(f"{key}_{gender}"):
            key = f"{key}_{gender}"
        for name in COUNT_PARAMS:
            if name in params:
                if str(params[name]).strip() == "1" and self.has(f"{key}_one"):
                    return f"{key}_one"
                break
        return key

    def placeholders(self, key: str, locale: str) -> set[str]:
        template = self.messages.get(locale, {}).get(key, "")
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@cache
def catalogue() -> Catalogue:
    """The process-wide catalogue, loaded once."""
    return Catalogue.load()


def t(key: str, locale: str = REFERENCE, /, **params: Any) -> str:
    """Shorthand for ``catalogue().format(key, locale, **params)``."""
    return catalogue().format(key, locale, **params)


def normalize_locale(value: object) -> str | None:
    """``"es-ES"``, ``"es-419"``, ``Locale.spain`` → ``"es"``; unsupported → None."""
    if value is None:
        return None
    text = str(getattr(value, "value", value)).lower()
    lang = text.split("-")[0].split("_")[0]
    return lang if lang in LOCALES else None


def choose_locale(user_locale: object, campaign_locale: str | None, default: str) -> str:
    """User's Discord locale if we speak it, else the campaign's language, else the default."""
    return normalize_locale(user_locale) or normalize_locale(campaign_locale) or default
