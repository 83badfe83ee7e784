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
    "name_problem",
    "parse_yes_no",
    "plain_spaces",
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


#: Letters and symbols that draw nothing: the Hangul fillers (letters, for Unicode) and the
#: blank Braille pattern, used to make names that look empty.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: The zero-width joiner glues emoji sequences (👨‍👩‍👧): allowed inside a name.
_JOINER = "\u200d"


def name_problem(name: str) -> str | None:
    """Why ``name`` (already stripped) cannot name something people read, or None.

    ``"not_visible"``: nothing in it can be seen (only spaces, zero-width characters, Hangul
    fillers…): a character, campaign or scene nobody can read or type.  ``"invisible"``: it
    hides characters that draw nothing or reorder the text (zero-width spaces, bidirectional
    overrides, control characters): «Ar\u200bdelia» would look exactly like «Ardelia» and be
    another character.  The zero-width joiner of emoji sequences is allowed; other spaces
    (no-break, ideographic) are spaces: :func:`plain_spaces` makes them ordinary first.
    """
    visible = False
    for char in name:
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") and char != _JOINER:
            return "invisible"
        if category[0] in "LNPS" and char not in _BLANK_LOOKING:
            visible = True
    return None if visible else "not_visible"


def plain_spaces(text: str) -> str:
    """``text`` with every kind of space (no-break, ideographic, thin…) as an ordinary one,
    stripped: a name typed on a French keyboard or pasted from a web page reads the same."""
    return "".join(" " if unicodedata.category(c) == "Zs" else c for c in text).strip()


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
