"""Domain errors: each carries a catalogue key and parameters, never a finished sentence."""

from __future__ import annotations

from typing import Any

__all__ = [
    "DomainError",
    "NoCampaign",
    "NotReferee",
    "AlreadyBound",
    "CampaignEnded",
    "InvalidSetting",
    "ConcurrentChange",
    "NotAllowed",
]


class DomainError(Exception):
    """A request the bot refuses for a reason the user should read (translated by the cog)."""

    key = "errors.generic"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(f"{self.key} {params}")


class NoCampaign(DomainError):
    key = "campaign.error.no_campaign"


class NotReferee(DomainError):
    key = "campaign.error.not_referee"


class NotAllowed(DomainError):
    key = "errors.not_allowed"


class AlreadyBound(DomainError):
    key = "campaign.error.already_bound"


class CampaignEnded(DomainError):
    key = "campaign.error.ended"


class InvalidSetting(DomainError):
    key = "campaign.error.invalid_setting"


class ConcurrentChange(DomainError):
    key = "errors.concurrent_change"
