"""Campaigns: creating, binding, settings, the cached context of a place, archiving.

Owns: :mod:`.service` (``CampaignService``), :mod:`.cache` (the per-place campaign cache),
:mod:`.context` (the loaded campaign, its system and resolved settings), :mod:`.archive`
(listing and reopening archived campaigns), :mod:`.settings` (checking setting values).

May import: :mod:`bot.services.shared`.
"""
