"""Campaign use cases against a real SQLite file."""

from __future__ import annotations

import asyncio

import pytest

from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.shared.errors import (
    AlreadyBound,
    ConcurrentChange,
    InvalidSetting,
    NoCampaign,
    NotAllowed,
    NotReferee,
)

GUILD, OTHER_GUILD = 1000, 2000
CATEGORY, CHANNEL, FORUM, THREAD = 10, 11, 12, 13
GM = Actor(1, "Máster", can_manage_channels=True)
PLAYER = Actor(2, "Ana")
ADMIN = Actor(3, "Admin", is_admin=True)


def in_channel(channel=CHANNEL, chain=(CHANNEL, CATEGORY), guild=GUILD):
    return Place(guild, channel, chain)


async def test_create_binds_the_channel_and_its_threads(services):
    view = await services.campaigns.create(
        in_channel(),
        GM,
        name="La Marca del Este",
        system="nucleo",
        target_id=CHANNEL,
        kind="channel",
    )
    assert view.system == "nucleo" and view.gm_user_id == GM.user_id
    assert view.bindings == ((CHANNEL, "channel"),)
    thread = Place(GUILD, THREAD, (THREAD, CHANNEL, CATEGORY))
    assert (await services.campaigns.find(thread)).name == "La Marca del Este"
    # a sibling channel in the same category is not bound
    assert await services.campaigns.find(Place(GUILD, 99, (99, CATEGORY))) is None


async def test_category_binding_covers_every_channel_but_the_most_specific_wins(services):
    await services.campaigns.create(
        in_channel(), GM, name="Toda", system="swc", target_id=CATEGORY, kind="category"
    )
    await services.campaigns.create(
        in_channel(), GM, name="Foro", system="rolweb", target_id=FORUM, kind="forum"
    )
    assert (await services.campaigns.find(Place(GUILD, 50, (50, CATEGORY)))).name == "Toda"
    post = Place(GUILD, 77, (77, FORUM, CATEGORY))
    assert (await services.campaigns.find(post)).name == "Foro"


async def test_a_place_cannot_be_bound_twice(services):
    await services.campaigns.create(
        in_channel(), GM, name="Una", system="swc", target_id=CHANNEL, kind="channel"
    )
    with pytest.raises(AlreadyBound) as error:
        await services.campaigns.create(
            in_channel(), GM, name="Dos", system="swc", target_id=CHANNEL, kind="channel"
        )
    assert error.value.params == {"name": "Una"}


async def test_a_channel_of_a_bound_category_is_not_taken_over_by_another_member(services):
    """Manage Channels is not enough to carve a channel out of another live campaign."""
    await services.campaigns.create(
        in_channel(), GM, name="Toda", system="swc", target_id=CATEGORY, kind="category"
    )
    intruder = Actor(4, "Otro máster", can_manage_channels=True)
    with pytest.raises(NotAllowed) as error:
        await services.campaigns.create(
            in_channel(), intruder, name="Mía", system="swc", target_id=CHANNEL, kind="channel"
        )
    assert (error.value.key, error.value.params) == (
        "campaign.error.belongs_to_other",
        {"name": "Toda"},
    )
    thread = in_channel(THREAD, (THREAD, CHANNEL, CATEGORY))
    with pytest.raises(NotAllowed):
        await services.campaigns.create(
            thread, intruder, name="Mía", system="swc", target_id=CHANNEL, kind="channel"
        )
    assert (await services.campaigns.find(in_channel())).name == "Toda"
    # The category's own referee (or an administrator) may split a channel off.
    split = await services.campaigns.create(
        in_channel(), GM, name="Escena", system="swc", target_id=CHANNEL, kind="channel"
    )
    assert split.bindings == ((CHANNEL, "channel"),)
    await services.campaigns.create(
        in_channel(99, (99, CATEGORY)),
        ADMIN,
        name="Otra",
        system="swc",
        target_id=99,
        kind="channel",
    )


async def test_creating_needs_manage_channels(services):
    with pytest.raises(NotAllowed):
        await services.campaigns.create(
            in_channel(), PLAYER, name="X", system="swc", target_id=CHANNEL, kind="channel"
        )


async def test_bad_input_is_refused_with_a_key(services):
    with pytest.raises(InvalidSetting) as error:
        await services.campaigns.create(
            in_channel(), GM, name="  ", system="swc", target_id=CHANNEL, kind="channel"
        )
    assert error.value.key == "campaign.error.bad_name"
    with pytest.raises(InvalidSetting) as error:
        await services.campaigns.create(
            in_channel(), GM, name="X", system="gurps", target_id=CHANNEL, kind="channel"
        )
    assert error.value.key == "campaign.error.unknown_system"


async def test_guilds_never_see_each_other(services):
    await services.campaigns.create(
        in_channel(), GM, name="Mía", system="swc", target_id=CHANNEL, kind="channel"
    )
    assert await services.campaigns.find(in_channel(guild=OTHER_GUILD)) is None
    with pytest.raises(NoCampaign):
        await services.campaigns.show(in_channel(guild=OTHER_GUILD))


async def test_settings_are_gm_only_validated_and_versioned(services):
    created = await services.campaigns.create(
        in_channel(), GM, name="S&W", system="swc", target_id=CHANNEL, kind="channel"
    )
    with pytest.raises(NotReferee):
        await services.campaigns.update_settings(
            in_channel(), PLAYER, SettingsChange(gm_channel_id=5)
        )
    specs = {s.key: s for s in created.settings}
    boolean_key = next(key for key, s in specs.items() if s.kind == "boolean")
    updated = await services.campaigns.update_settings(
        in_channel(),
        GM,
        SettingsChange(
            gm_channel_id=5, gm_role_id=6, locale="en", system_setting=(boolean_key, "sí")
        ),
    )
    assert updated.version == created.version + 1
    assert (updated.gm_channel_id, updated.gm_role_id, updated.locale) == (5, 6, "en")
    assert {s.key: s.value for s in updated.settings}[boolean_key] is True
    with pytest.raises(InvalidSetting) as error:
        await services.campaigns.update_settings(
            in_channel(), GM, SettingsChange(system_setting=(boolean_key, "quizás"))
        )
    assert error.value.key == "campaign.error.expected_boolean"
    with pytest.raises(InvalidSetting) as error:
        await services.campaigns.update_settings(
            in_channel(), GM, SettingsChange(system_setting=("no_existe", "1"))
        )
    assert error.value.key == "campaign.error.unknown_setting"
    # a member with the GM role is a referee too; so is a server admin
    role_holder = Actor(9, "Co-máster", role_ids=frozenset({6}))
    cleared = await services.campaigns.update_settings(
        in_channel(), role_holder, SettingsChange(clear_gm_channel=True)
    )
    assert cleared.gm_channel_id is None
    await services.campaigns.update_settings(in_channel(), ADMIN, SettingsChange(locale="es"))


async def test_concurrent_setting_changes_bump_one_version_each_and_none_is_lost(services):
    await services.campaigns.create(
        in_channel(), GM, name="C", system="swc", target_id=CHANNEL, kind="channel"
    )
    results = await asyncio.gather(
        *(
            services.campaigns.update_settings(
                in_channel(), GM, SettingsChange(gm_channel_id=100 + i)
            )
            for i in range(8)
        ),
        return_exceptions=True,
    )
    applied = [view for view in results if not isinstance(view, BaseException)]
    refused = [error for error in results if isinstance(error, BaseException)]
    assert all(isinstance(error, ConcurrentChange) for error in refused)  # told, never lost
    assert len(applied) >= 4
    # each applied write bumped the version exactly once and shows its own value
    assert sorted(view.version for view in applied) == list(range(2, 2 + len(applied)))
    assert len({view.gm_channel_id for view in applied}) == len(applied)
    final = await services.campaigns.show(in_channel())
    assert final.version == 1 + len(applied)
    assert final.gm_channel_id == max(applied, key=lambda view: view.version).gm_channel_id


async def test_end_archives_and_frees_the_channel(services):
    await services.campaigns.create(
        in_channel(), GM, name="Vieja", system="swc", target_id=CHANNEL, kind="channel"
    )
    with pytest.raises(NotReferee):
        await services.campaigns.end(in_channel(), PLAYER)
    ended = await services.campaigns.end(in_channel(), GM)
    assert ended.status == "archived" and ended.ended_at is not None
    assert await services.campaigns.find(in_channel()) is None
    again = await services.campaigns.create(
        in_channel(), GM, name="Nueva", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    assert again.id != ended.id
    # the archived campaign is still there
    assert (await services.campaigns.view(ended.id, GUILD)).name == "Vieja"
