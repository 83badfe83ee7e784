"""Use cases: load state, call ``rules/``, persist in one transaction, return a view-model.

Services never touch Discord objects.  They take plain values (:class:`Place`, :class:`Actor`)
and return frozen dataclasses of values and catalogue keys that ``cogs/ui/render.py`` turns into
messages in the user's language.
"""

from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError

__all__ = ["Actor", "Place", "DomainError"]
