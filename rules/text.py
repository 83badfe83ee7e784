"""Text helpers shared by every rule system and by the bot: one way to compare names, one
way to read a yes or a no.

Players type on phones: «curacion» must find Curación, «ARDELIA » must find Ardelia, and
«sí», «si», «yes» and «on» must all switch a rule on.  Each of these used to be written
again in every module that needed it, with small differences that made the same word work
in one command and fail in the next; they live here once and everything imports them.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "NO_WORDS",
    "YES_WORDS",
    "fold",
    "fold_words",
    "parse_yes_no",
    "spanish_number",
    "visible",
]

#: Words read as «yes» in a sheet field, a campaign setting or a wizard answer (compared
#: after :func:`fold`, so «Sí» and «SI» count too).
YES_WORDS = frozenset({"si", "s", "yes", "y", "true", "1", "on", "verdadero", "activado"})
#: Words read as «no».
NO_WORDS = frozenset({"no", "n", "false", "0", "off", "falso", "desactivado"})


def fold(text: str) -> str:
    """Case- and accent-insensitive form for comparing names: ``" Curación"`` → ``"curacion"``.

    Leading and trailing spaces go; the inside of the text is kept as typed (character
    names are stored under this key, so it must not change for names already stored).
    ``ñ`` folds to ``n`` like any accented letter.
    """
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold_words(text: str) -> str:
    """:func:`fold` with runs of spaces made one: ``"Navegación  Espacial"`` →
    ``"navegacion espacial"`` (for catalogue names, where a doubled space is a typo)."""
    return fold(" ".join(text.split()))


def parse_yes_no(text: str) -> bool | None:
    """``True`` for a word of :data:`YES_WORDS`, ``False`` for one of :data:`NO_WORDS`,
    ``None`` for anything else (the caller says what it expected)."""
    folded = fold(text)
    if folded in YES_WORDS:
        return True
    if folded in NO_WORDS:
        return False
    return None


def spanish_number(value: float) -> str:
    """``58.3`` → ``"58,3"``: a number inside the rules' own Spanish text (formulas, the
    wizard's descriptions), written as a Spanish reader writes it.  Numbers the bot shows
    on their own go through ``bot.formatting.format_number`` in the reader's language."""
    return f"{value:g}".replace(".", ",")


#: Unicode categories a reader cannot see or that change how what follows is shown: controls
#: (NUL), format characters (U+200B zero-width space, U+202E right-to-left override, U+FEFF),
#: separators other than the plain space, surrogates, private use and unassigned code points,
#: and combining marks (alone they stick to the quote mark before them).
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs", "Mn", "Me", "Mc"})


def visible(text: str) -> str:
    """``text`` with every character a reader could not see written as ``U+XXXX``.

    For messages that echo what a user typed (``No entiendo «U+200B» en la columna 4``): a
    zero-width space shown raw reads as «», a NUL may cut the message and a right-to-left
    override turns the rest of the line around.  The plain space stays as it is.
    """
    if text.isprintable() and text.isascii():
        return text
    return "".join(
        f"U+{ord(c):04X}" if c != " " and unicodedata.category(c) in _INVISIBLE else c for c in text
    )
