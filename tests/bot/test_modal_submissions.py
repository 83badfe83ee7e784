"""One ``on_interaction`` listener routes every modal submission (cogs/ui/modal_submissions.py).

The modals themselves are answered end to end in tests/e2e (the wizard's forms, /post and its
edit, /scene open); here the routing: one listener for the whole bot, modal submissions only,
and one handler's failure does not keep the others from their modal.
"""

from __future__ import annotations

from types import SimpleNamespace

import discord

from cogs.ui.modal_submissions import ModalSubmissions


async def test_the_loaded_bot_has_one_interaction_listener_for_its_three_modal_handlers(loaded_bot):
    listeners = loaded_bot.extra_events.get("on_interaction", [])
    assert len(listeners) == 1  # discord.py starts a task per listener on every interaction
    names = {handler.__name__ for handler in loaded_bot._modal_submissions.handlers}
    assert (
        names == {"form_submitted", "on_post_modal"}
        and len(loaded_bot._modal_submissions.handlers) == 3
    )  # the wizard's and the scenes' form_submitted, and the posts'


async def test_only_modal_submissions_reach_the_handlers_and_a_failure_stays_alone(caplog):
    registry = ModalSubmissions()
    seen: list[str] = []

    async def broken(itx) -> None:
        raise RuntimeError("bug")

    async def works(itx) -> None:
        seen.append(itx.data["custom_id"])

    registry.add(broken)
    registry.add(works)
    registry.add(works)  # twice: still answered once
    await registry.dispatch(SimpleNamespace(type=discord.InteractionType.application_command))
    await registry.dispatch(
        SimpleNamespace(type=discord.InteractionType.modal_submit, data={"custom_id": "m:1"})
    )
    assert seen == ["m:1"]
    assert "modal handler" in caplog.text and "bug" in caplog.text
    registry.remove(works)
    await registry.dispatch(
        SimpleNamespace(type=discord.InteractionType.modal_submit, data={"custom_id": "m:2"})
    )
    assert seen == ["m:1"]
