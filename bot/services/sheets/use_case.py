"""What the use cases that act with characters share: their three collaborators.

Checks, abilities, the creation wizard, spells, attacks, surprise and fights each need the
sessions, the character service (campaign context, finding a character, the sheet writer)
and a random generator: the test's seeded one, or the operating system's, so that players'
rolls cannot be predicted from earlier ones (``tests/bot/test_service_rng.py``).  They
subclass :class:`CharacterUseCase` instead of writing that constructor each.
"""

from __future__ import annotations

import random

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.services.sheets.characters import CharacterService

__all__ = ["CharacterUseCase"]


class CharacterUseCase:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
    ) -> None:
        self.sessions = sessions
        self.characters = characters
        self.rng = rng or random.SystemRandom()
