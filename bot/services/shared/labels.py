"""What a user typed in an autocompleted option, read as what he saw.

Discord lets a user type an option without picking a suggestion: ``/check que:Percepción``
sends the label he reads, not the suggestion's internal value (``atributo:Percepción``), and
``/sheet set campo:fuerza`` sends a word, not the path ``atributos.Fuerza``.  Every service
whose option is an id or a path reads the typed text through :func:`resolve` against the
same choices its autocomplete offers, so the value, the display name in either language
(case- and accent-insensitive, :func:`rules.text.fold`) and a unique beginning of either all
find the one choice.  Several choices for the same words are refused with their names
(:class:`Ambiguous`), never guessed; no match at all returns None and the service keeps its
own error (or its own reading of free text).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.i18n import LOCALES
from bot.services.shared.errors import DomainError
from bot.words import Localized, whole_list
from rules.systems.base import FieldSpec
from rules.text import fold_words

__all__ = ["Ambiguous", "Named", "read_field", "resolve", "spoken"]


@dataclass(frozen=True, slots=True)
class Named:
    """One choice: the ``value`` the service uses and the names a user may type for it.

    ``names`` maps a locale to the display name shown in it (a locale left out shows the
    first name given); ``aliases`` are further spellings that are accepted but not shown.
    """

    value: str
    names: Mapping[str, str]
    aliases: tuple[str, ...] = field(default=())

    def shown(self, locale: str) -> str:
        return self.names.get(locale) or next(iter(self.names.values()), self.value)

    def words(self) -> tuple[str, ...]:
        return (self.value, *self.names.values(), *self.aliases)


def spoken(value: str, label: str, *aliases: str) -> Named:
    """A choice with the same display name in every language (a sheet's own labels)."""
    return Named(value, {"es": label}, tuple(aliases))


class Ambiguous(DomainError):
    """The typed words name several choices: the user picks one of the listed names."""

    key = "labels.error.ambiguous"


def resolve(typed: str, choices: Iterable[Named], *, prefix: bool = True) -> str | None:
    """The value of the one choice ``typed`` names, or None when it names none.

    In order: the value itself (as sent by a picked suggestion, or typed by someone who
    knows it), then a whole name or alias, then (with ``prefix``) the beginning of one.
    Matches are folded (case, accents, doubled spaces).  Several choices at one step raise
    :class:`Ambiguous`.  Writes that cannot be seen before they land (a sheet field) pass
    ``prefix=False``: «fuerza» must not silently mean «Fuerza sobrehumana».
    """
    options = list(choices)
    text = typed.strip()
    if not text:
        return None
    for option in options:
        if option.value == text:
            return option.value
    needle = fold_words(text)
    whole = _unique(o for o in options if any(fold_words(w) == needle for w in o.words()))
    if whole:
        return _one(typed, whole)
    if not prefix:
        return None
    begun = _unique(o for o in options if any(fold_words(w).startswith(needle) for w in o.words()))
    if begun:
        return _one(typed, begun)
    return None


def _unique(options: Iterable[Named]) -> list[Named]:
    seen: dict[str, Named] = {}
    for option in options:
        seen.setdefault(option.value, option)
    return list(seen.values())


def _one(typed: str, options: list[Named]) -> str:
    if len(options) == 1:
        return options[0].value
    raise Ambiguous(
        typed=typed.strip(),
        candidates=Localized(
            {
                locale: whole_list(sorted({o.shown(locale) for o in options}, key=fold_words))
                for locale in LOCALES
            }
        ),
    )


def read_field(fields: tuple[FieldSpec, ...], typed: str) -> FieldSpec | None:
    """The field ``typed`` names: its path (what the autocomplete sends) or its label as
    /sheet show prints it («fuerza» is ``atributos.Fuerza``), whole; a label shared by
    several fields is refused with their names.  No beginnings: a write must not land on a
    field the user did not name («fuerza» must not become Núcleo's «Fuerza sobrehumana»)."""
    by_path = {spec.path.casefold(): spec for spec in fields}
    if typed.strip().casefold() in by_path:
        return by_path[typed.strip().casefold()]
    path = resolve(typed, (spoken(s.path, s.label) for s in fields), prefix=False)
    return by_path.get(path.casefold()) if path is not None else None
