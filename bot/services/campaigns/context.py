"""The campaign a command runs in, its rule system and its resolved settings, loaded once.

Every sheet use case starts here; keeping it apart from :class:`CharacterService` lets
autocompletes and other services ask for the context without pulling in character logic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.db.models import Campaign
from bot.services.campaigns.service import CampaignService, setting_specs
from bot.services.campaigns.settings import resolved_settings
from bot.services.shared.context import Place
from rules import systems
from rules.systems.base import GameSystem

__all__ = ["CampaignContext", "CampaignContextService"]


@dataclass(frozen=True, slots=True)
class CampaignContext:
    campaign: Campaign
    system: GameSystem
    settings: Mapping[str, Any]


class CampaignContextService:
    def __init__(self, campaigns: CampaignService) -> None:
        self.campaigns = campaigns

    @staticmethod
    def of(campaign: Campaign) -> CampaignContext:
        return CampaignContext(
            campaign,
            systems.get(campaign.system),
            resolved_settings(setting_specs(campaign.system), campaign.settings),
        )

    async def load(self, place: Place) -> CampaignContext:
        """The context of ``place``; :class:`NoCampaign` where no campaign is played."""
        return self.of(await self.campaigns.require(place))

    async def find(self, place: Place) -> CampaignContext | None:
        """The context of ``place`` or None (autocompletes answer nothing instead of failing)."""
        campaign = await self.campaigns.find(place)
        return None if campaign is None else self.of(campaign)
