"""A closed scene is closed, and the off-topic channel is off topic (issue 22 §5).

``/scene close`` locks and archives the thread; Discord refuses a webhook's message there
(400, code 50083: the stand-in now refuses it too).  ``/post`` used to go through every check
and reach Discord, and the player read «Discord rechazó el mensaje (error 400)»; rolls and
requests were stored in a scene that had ended.  Now each is refused before anything is
rolled, stored or sent, saying the scene is closed and how the GM opens it again; and
``/post`` refuses the campaign's off-topic channel (``require_on_topic`` was never called).
"""

from __future__ import annotations

import pytest

from tests.e2e.helpers import import_sheet, new_campaign, says
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e

ROLL = "arb:1:req-roll:"
OPTION = "habilidad:Pilotar"


def _webhook_posts(sb, g, channel):
    return [m for m in sb.channel_messages(g, channel) if m.data.get("webhook_id")]


def _history_size(sb, g, channel):
    return sb.command("history", {}, guild=g, channel=channel, user="gm").all_text.count("🎲")


def test_nothing_is_posted_rolled_or_requested_in_a_closed_scene(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Escena cerrada", "nucleo")
    import_sheet(sb, g, ARDELIA, user="ana")
    thread = g.thread("mesa", "La posada", user="gm")
    opened = sb.command("post", {}, guild=g, channel=thread, user="ana")
    assert opened.modal is not None
    sb.submit_modal(opened, {"text": "Entro en la posada."}, user="ana").expect_ok()
    asked = sb.command(
        "request check", {"who": "todos", "option": OPTION}, guild=g, channel=thread, user="gm"
    )
    assert asked.ok and not asked.ephemeral, asked.text
    button = next(b["custom_id"] for b in asked.message.buttons if b["custom_id"].startswith(ROLL))
    late_form = sb.command("post", {}, guild=g, channel=thread, user="ana")  # typed meanwhile
    assert late_form.modal is not None
    sb.command("scene close", {}, guild=g, channel=thread, user="gm").expect_ok()
    assert g.thread_state(thread.id)["locked"]
    posts, rolls = len(_webhook_posts(sb, g, thread)), _history_size(sb, g, thread)

    refusals = {
        "post": sb.command("post", {}, guild=g, channel=thread, user="ana"),
        "late form": sb.submit_modal(late_form, {"text": "Sigo hablando."}, user="ana"),
        "roll": sb.command("roll", {"expression": "1d20"}, guild=g, channel=thread, user="ana"),
        "check": sb.command("check", {"option": OPTION}, guild=g, channel=thread, user="ana"),
        "request": sb.command(
            "request check", {"who": "todos", "option": OPTION}, guild=g, channel=thread, user="gm"
        ),
        "press": sb.click(asked.message, button, user="ana"),
        "edit": sb.context_menu(
            "Editar publicación", _webhook_posts(sb, g, thread)[0], guild=g, user="ana"
        ),
    }
    for what, reply in refusals.items():
        # a press is acknowledged at once and answered privately as a follow-up (issue 26)
        private = reply.ephemeral or (what == "press" and reply.followups)
        assert private and all(m.ephemeral for m in reply.followups), (what, reply.all_text)
        assert reply.modal is None, (what, reply.all_text)
        assert says(reply, "scene.error.closed", title="La posada"), (what, reply.all_text)
        assert not reply.rejections, (what, reply.rejections)  # nothing reached Discord
    assert "Sigo hablando." in refusals["late form"].all_text  # the typed text handed back
    english = sb.command(
        "roll", {"expression": "1d20"}, guild=g, channel=thread, user="bruno", locale="en-US"
    )
    assert says(english, "scene.error.closed", "en", title="La posada"), english.text
    assert len(_webhook_posts(sb, g, thread)) == posts and _history_size(sb, g, thread) == rolls

    # elsewhere play goes on; the GM reopens the scene and it takes posts again
    sb.command("roll", {"expression": "1d20"}, guild=g, channel="mesa", user="ana").expect_ok()
    sb.command("scene reopen", {}, guild=g, channel=thread, user="gm").expect_ok()
    again = sb.command("post", {}, guild=g, channel=thread, user="ana")
    assert again.modal is not None, again.text
    sb.submit_modal(again, {"text": "Vuelvo."}, user="ana").expect_ok()
    assert len(_webhook_posts(sb, g, thread)) == posts + 1
    sb.command("roll", {"expression": "1d20"}, guild=g, channel=thread, user="ana").expect_ok()


def test_post_refuses_the_off_topic_channel(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Fuera de partida", "nucleo")
    import_sheet(sb, g, ARDELIA, user="ana")
    chatter = g.thread("mesa", "Charla", user="gm")
    sb.command(
        "campaign settings", {"off_topic": chatter}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    for user, options in (("ana", {}), ("gm", {"as": "Narrador"})):
        refused = sb.command("post", options, guild=g, channel=chatter, user=user)
        assert refused.ephemeral and refused.modal is None, refused.all_text
        assert says(refused, "scene.error.off_topic_post"), refused.all_text
    assert _webhook_posts(sb, g, chatter) == []
    # talking out of character, and rolling, stay possible there
    sb.command("roll", {"expression": "1d6"}, guild=g, channel=chatter, user="ana").expect_ok()
    # the table itself takes posts
    opened = sb.command("post", {}, guild=g, channel="mesa", user="ana")
    assert opened.modal is not None, opened.text
