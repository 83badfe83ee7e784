"""A character's grammatical gender, so that messages agree with it («Kára está lista»).

Every sheet of every system may carry ``genero``: ``femenino``, ``masculino`` or ``neutro``
(optional; asked on the creation wizard's last screen, changed with ``/sheet set genero``).
Catalogue messages that name a character in an agreeing form have ``_femenino`` and
``_masculino`` variants next to a neutral base wording (:meth:`bot.i18n.Catalogue.variant`);
callers pass ``genero=gender_of(sheet)`` to :func:`bot.i18n.t`.  ``neutro`` and an unset
gender both read the neutral wording (no invented endings).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.systems.base import FieldKind, FieldSpec, GameSystem, Settings

__all__ = ["GENDERS", "GENDER_FIELD", "GENDER_PATH", "gender_of", "sheet_fields"]

GENDERS = ("femenino", "masculino", "neutro")
GENDER_PATH = "genero"
#: The field ``/sheet set`` and the sheet show for every system (its values are named by
#: :func:`rules.names.display`, kind ``genero``).
GENDER_FIELD = FieldSpec(GENDER_PATH, "Género gramatical", FieldKind.CHOICE, choices=GENDERS)


def gender_of(sheet: Mapping[str, Any] | None) -> str | None:
    """The sheet's grammatical gender, or None when unset (or not one of :data:`GENDERS`)."""
    value = (sheet or {}).get(GENDER_PATH)
    return value if value in GENDERS else None


def sheet_fields(system: GameSystem, settings: Settings) -> tuple[FieldSpec, ...]:
    """The system's editable fields plus the grammatical gender every sheet may have."""
    own = tuple(system.fields(settings))
    if any(spec.path == GENDER_PATH for spec in own):
        return own
    return (*own, GENDER_FIELD)
