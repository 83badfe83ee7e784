"""Setup steps shared by the end-to-end scenarios; each fails loudly when refused."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bot.i18n import catalogue, t
from standin.client import GuildHandle, Sandbox
from standin.replies import Msg, Reply

__all__ = [
    "new_campaign",
    "sheet_file",
    "import_sheet",
    "start_arbitro",
    "press",
    "button_kinds",
    "says",
]


def new_campaign(sb: Sandbox, guild_name: str, system: str, *, name: str = "Mesa") -> GuildHandle:
    """A fresh guild whose #mesa is bound to a new campaign run by ``gm``."""
    g = sb.new_guild(name=guild_name)
    sb.command(
        "campaign create", {"name": name, "system": system}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    return g


def fill_wizard_form(
    sb: Sandbox, reply: Any, values: dict[str, str], user: str = "ana", locale: str | None = None
) -> Any:
    """Press the wizard's «form» button on ``reply`` and submit ``values`` in its modal."""
    where = {} if locale is None else {"locale": locale}
    modal = press(sb, reply, WIZARD_FORM, user=user, **where)
    assert modal.modal is not None, modal.text
    return sb.submit_modal(modal, values, user=user, **where)


def sheet_file(sheet: dict[str, Any], *, npc: bool = False) -> bytes:
    """``sheet`` as a docs/sheet-format.md document, ready for ``/sheet import``."""
    document = {"format": "arbitro.sheet", "version": 1, "system": sheet["system"], "npc": npc}
    return json.dumps({**document, "sheet": sheet}).encode()


def import_sheet(
    sb: Sandbox, g: GuildHandle, sheet: dict[str, Any], *, user: str = "ana", npc: bool = False
) -> None:
    sb.command(
        "sheet import", {"file": sheet_file(sheet, npc=npc)}, guild=g, channel="mesa", user=user
    ).expect_ok()


def start_arbitro(
    database_url: str,
    log_dir: Path,
    extra_env: dict[str, str] | None = None,
    *,
    module: str = "bot.__main__",
    portal_intents: int = 0,
) -> Sandbox:
    """A stand-in with a new Árbitro process connected to ``database_url`` (caller closes it);
    ``module`` runs it (a test's wrapper around ``bot.__main__`` that injects a fault).

    ``portal_intents``: the privileged intents the application has enabled in the Developer
    Portal (``standin.intents.MESSAGE_CONTENT`` for typing mode)."""
    sb = Sandbox(
        timeout=float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10")),
        deadline=float(os.environ.get("ARBITRO_E2E_DEADLINE", "3")),
    )
    sb.enable_intents(portal_intents)
    env = {
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "INFO",
        "ARBITRO_DEFAULT_LOCALE": "es",
        **(extra_env or {}),
    }
    try:
        sb.start_bot(module, env=env, log_path=log_dir / "bot.log")
    except Exception:
        sb.close()
        raise
    return sb


# Buttons are found by custom-id prefix, the interface the bot keeps stable across restarts
# and locales (cogs/ui/keyed_button.py, cogs/views.py), never by their translated label.
WIZARD_FORM = "arb:1:wiz:form:"
WIZARD_ROLL = "arb:1:wiz:roll:"
WIZARD_SKIP = "arb:1:wiz:skip:"
WIZARD_FINISH = "arb:1:wiz:finish:"
WIZARD_RESTART = "arb:1:wiz:restart:"
WIZARD_CANCEL = "arb:1:wiz:cancel:"
COMBAT_NEXT = "arb:1:init-next:"
DEATH_TEST = "arb:1:init-death:"
UNDO = "arb:1:undo:"
HIT_DIE = "arb:1:hitdie:"
HELP_PAGE = "arb:1:help:page:"
CONFIRM = "arb:1:confirm"
CANCEL = "arb:1:cancel"


def press(
    sb: Sandbox,
    target: Reply | Msg,
    prefix: str,
    *,
    user: str = "ana",
    locale: str = "es-ES",
) -> Reply:
    """Click the one button whose custom_id starts with ``prefix``, on the target's latest
    message that has one (as ``sb.click`` looks at the latest edit)."""
    for snapshot in reversed(target.messages if isinstance(target, Reply) else [target]):
        ids = [b.get("custom_id") or "" for b in sb.message(snapshot.id).buttons]
        found = [i for i in ids if i.startswith(prefix)]
        if found:
            assert len(found) == 1, f"several buttons start with {prefix!r}: {found}"
            return sb.click(target, found[0], user=user, locale=locale)
    raise AssertionError(f"no button starting with {prefix!r} on {target!r}")


def button_kinds(message: Msg) -> list[str]:
    """The kind of each button on ``message``, in order: ``arb:1:undo:12:3`` is ``undo``
    (what a test asserts about which buttons a reply carries, whatever their labels say)."""
    return [(b.get("custom_id") or "").split(":")[2] for b in message.buttons]


def says(reply: Reply, key: str, locale: str = "es", **params: Any) -> bool:
    """Whether the reply (with its follow-ups and edits) shows catalogue message ``key``.

    Tests name the message they expect, not its wording: rewording a message in
    ``bot/locales`` must not break them (a handful of scenarios still read the Spanish).
    """
    assert catalogue().has(key, locale), f"no catalogue key {key} ({locale})"
    return t(key, locale, **params) in reply.all_text
