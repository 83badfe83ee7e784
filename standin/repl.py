"""``python -m bot sandbox``: try Árbitro in a terminal, no Discord account needed.

It starts the stand-in and the real bot, then reads what a person would type in Discord
(``/roll 1o3d10+5 reason:ataque``) as one of the sample users in a sample guild, and prints every
reply as text. ``--script FILE`` runs one line per command and exits non-zero if any failed, so a
referee can rehearse a scene and a test can check a transcript. The sample guild, users and
channels keep the same ids on every run, so what the bot stored in the SQLite file still matches.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shlex
import signal
import sys
import threading
from collections.abc import Callable
from datetime import tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .client import REPO, GuildHandle, Sandbox
from .intents import MESSAGE_CONTENT
from .render import (
    Clickable,
    modal_fields,
    reader_clock,
    render_message,
    render_modal,
    render_reply,
)
from .replies import Msg, Reply
from .state import World

__all__ = ["Session", "main", "parse_slash"]

BASE = 1_200_000_000_000_000_000
BOT_ID = BASE + 1
SAMPLE_IDS = {
    "guild": BASE + 100,
    "user:gm": BASE + 201,
    "user:ana": BASE + 202,
    "user:bruno": BASE + 203,
    "user:dm2": BASE + 204,
    "role:Admin": BASE + 301,
    "role:Máster": BASE + 302,
    "channel:mesa": BASE + 401,
    "channel:foro": BASE + 402,
    "channel:gm": BASE + 403,
    "channel:partida": BASE + 404,
    "channel:escena": BASE + 405,
}
TRUE = {"true", "sí", "si", "s", "yes", "y", "1", "verdadero"}
FALSE = {"false", "no", "n", "0", "falso"}

HELP = """\
Escribe como en Discord / type as in Discord:
  /roll 1o3d10+5 reason:ataque        opciones nombre:valor / options name:value
  /campaign create name:"Mi partida" system:nucleo
  Ardelia: ¡Despegamos!               un mensaje (sin / ni :) / a plain message
                                      (escribir como personaje / posting by typing)
Órdenes / commands:
  :as NOMBRE (:como)       cambiar de usuario / switch user (gm, ana, bruno, dm2)
  :in CANAL (:en)          cambiar de canal o hilo / switch channel or thread
  :locale es-ES|en-US (:idioma)
  :tz ZONA (:zona)         tu zona horaria, p. ej. America/Mexico_City (fechas como en Discord)
                           your time zone: timestamps read as Discord's client shows them
  :click N (:pulsa)        pulsar el botón N / press button N
  :select N VALOR… (:elige) elegir en el desplegable N / choose in select N
  :modal campo=valor …     enviar el formulario abierto / submit the open modal
                           (lo no escrito conserva lo de antes / untyped fields keep earlier values)
  :modal  · :modal ok      ver el formulario con lo escrito / show it · enviarlo así / send as is
  /ficha importar archivo:NOMBRE   sube un archivo (ruta, o nombre en la carpeta de archivos)
                           upload a file (a path, or a name in the files folder)
  :upload RUTA (:subir)    adjunta el archivo a la opción de archivo del próximo comando
                           attach a file to the next command's file option
  :files (:archivos)       archivos que el bot ha enviado / files the bot sent
  :ac /orden opción:texto  ver sugerencias / see autocomplete suggestions
  :thread NOMBRE (:hilo)   abrir un hilo aquí / open a thread here
  :post TÍTULO             publicar en el foro / create a forum post
  :users :channels         quién y dónde / who and where
  :help (:ayuda)  :quit (:salir)"""


class ParseError(Exception):
    pass


def _aliases(defn: dict[str, Any]) -> list[str]:
    return [defn["name"], *(defn.get("name_localizations") or {}).values()]


def _find(defs: list[dict[str, Any]], word: str) -> dict[str, Any] | None:
    word = word.lower()
    return next((d for d in defs if word in (a.lower() for a in _aliases(d))), None)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def parse_slash(
    line: str, commands: list[dict[str, Any]]
) -> tuple[str, list[tuple[dict[str, Any], str]]]:
    """Splits ``/campaign create name:Mi partida`` into ("campaign create", [(option, raw)])."""
    rest = line.strip().lstrip("/")
    head, _, rest = rest.partition(" ")
    cmd = _find(commands, head)
    if cmd is None:
        raise ParseError(f"no existe /{head} / unknown command /{head}")
    path, defs = [cmd["name"]], cmd.get("options") or []
    while any(d["type"] in (1, 2) for d in defs):
        word, _, rest = rest.strip().partition(" ")
        sub = _find([d for d in defs if d["type"] in (1, 2)], word) if word else None
        if sub is None:
            names = ", ".join(d["name"] for d in defs)
            raise ParseError(f"/{' '.join(path)} necesita / needs: {names}")
        path.append(sub["name"])
        defs = sub.get("options") or []
    aliases = sorted({a.lower() for d in defs for a in _aliases(d)}, key=len, reverse=True)
    found: list[tuple[dict[str, Any], str]] = []
    if aliases:
        pattern = re.compile(
            r"(?:^|\s)(" + "|".join(re.escape(a) for a in aliases) + r"):", re.IGNORECASE
        )
        matches = list(pattern.finditer(rest))
    else:
        matches = []
    positional = rest[: matches[0].start()] if matches else rest
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(rest)
        option = _find(defs, m.group(1))
        assert option is not None  # the pattern matches only these options' aliases
        found.append((option, _unquote(rest[m.end() : end])))
    if positional.strip():
        named = {d["name"] for d, _ in found}
        free = [d for d in defs if d["name"] not in named]
        if not free:
            raise ParseError(f"sobra «{positional.strip()}» / unexpected «{positional.strip()}»")
        found.insert(0, (free[0], _unquote(positional)))
    return " ".join(path), found


def find_file(raw: str, files_dir: Path | None, option: str) -> tuple[str, bytes]:
    """A file typed as a path, or as the name of a file in ``files_dir``: (name, content)."""
    path = Path(raw).expanduser()
    if not path.is_file() and files_dir is not None and (files_dir / path).is_file():
        path = files_dir / path
    if not path.is_file():
        raise ParseError(f"{option}: no encuentro el archivo / no such file {raw}")
    return (path.name, path.read_bytes())


def option_defs(commands: list[dict[str, Any]], path: str) -> list[dict[str, Any]]:
    """The options of ``path`` («sheet import») as the command tree declares them."""
    head, *subs = path.split()
    defs = (_find(commands, head) or {}).get("options") or []
    for word in subs:
        defs = (_find([d for d in defs if d["type"] in (1, 2)], word) or {}).get("options") or []
    return defs


def convert(defn: dict[str, Any], raw: str, files_dir: Path | None = None) -> Any:
    """A typed value the way the Discord client would produce it from what was typed.

    A file option takes a path, or the name of a file in ``files_dir`` (where the sandbox
    saves what the bot sends), so export → edit → import needs no path."""
    kind = defn["type"]
    for choice in defn.get("choices") or []:
        names = [
            str(choice["value"]),
            choice["name"],
            *(choice.get("name_localizations") or {}).values(),
        ]
        if raw.lower() in (n.lower() for n in names):
            return choice["value"]
    try:
        if kind == 4:
            return int(raw)
        if kind == 10:
            return float(raw.replace(",", "."))
    except ValueError:
        raise ParseError(f"{defn['name']}: «{raw}» no es un número / is not a number") from None
    if kind == 5:
        if raw.lower() in TRUE | FALSE:
            return raw.lower() in TRUE
        raise ParseError(f"{defn['name']}: sí/no (true/false), no «{raw}»")
    if kind in (6, 8, 9):
        return raw.lstrip("@")
    if kind == 7:
        return raw.lstrip("#")
    if kind == 11:
        return find_file(raw, files_dir, defn["name"])
    return raw


class Session:
    """One person at the keyboard: who they are, where they are, what they can click."""

    def __init__(
        self,
        sb: Sandbox,
        guild: GuildHandle,
        *,
        user: str = "ana",
        channel: str = "mesa",
        locale: str = "es-ES",
        out: Callable[[str], None] = print,
        files_dir: Path | None = None,
        zone: tzinfo | None = None,
    ) -> None:
        self.sb, self.guild, self.out = sb, guild, out
        self.user, self.channel, self.locale = user, channel, locale
        # the reader's time zone: Discord's client shows timestamps in it (None: this machine's)
        self.zone = zone
        self.files_dir = files_dir
        self.clickables: list[Clickable] = []
        self.modal: Reply | None = None
        # what was typed into each form (by its title and field ids): a refused or re-opened
        # form gets it back, as the Discord client keeps a form's text until it is sent
        self.typed: dict[tuple[str, ...], dict[str, str]] = {}
        # a file ``:upload`` attached, waiting for the next command with a file option
        self.upload: tuple[str, bytes] | None = None
        self.failures = 0
        self.done = False

    @property
    def prompt(self) -> str:
        return f"[{self.user} @ #{self.channel}] > "

    def fail(self, text: str) -> None:
        self.failures += 1
        self.out(text)

    def handle(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        try:
            if line.startswith("/"):
                self._slash(line)
            elif line.startswith(":"):
                self._meta(line)
            else:
                self._say(line)
        except ParseError as exc:
            self.fail(f"✗ {exc}")
        except KeyError as exc:
            self.fail(f"✗ {exc.args[0] if exc.args else exc}")
        except AssertionError as exc:
            self.fail(f"✗ el bot no respondió / no answer from the bot: {str(exc).splitlines()[0]}")

    def _show(self, reply: Reply, mark: int) -> None:
        """Prints a reply and what the bot posted elsewhere meanwhile; numbers what can be clicked.

        A reply without buttons or selects keeps the previous numbering, so ``:click`` still
        reaches the panel shown before an ephemeral answer."""
        clickables: list[Clickable] = []
        if reply.modal is not None:
            self.modal = reply
        typed = self.typed.get(_form_key(reply.modal)) if reply.modal is not None else None
        clock = reader_clock(self.locale, self.zone)
        text = render_reply(
            reply, clickables=clickables, names=self.sb.name_of, typed=typed, clock=clock
        )
        if not reply.ok:
            self.fail(text)
            return
        if text:
            self.out(text)
        self._save_files(reply.messages)
        for channel, msg in self.sb.posted_since(mark):
            header = f"→ #{channel} · {msg.author}"
            self.out(
                "\n".join(
                    render_message(
                        msg,
                        clickables=clickables,
                        names=self.sb.name_of,
                        header=header,
                        clock=clock,
                    )
                )
            )
            self._save_files([msg])
        if clickables:
            self.clickables = clickables

    def _save_files(self, messages: list[Msg]) -> None:
        """Files the bot sent land in the sandbox's files folder (a newer one replaces an older
        one of the same name), so they can be opened, edited and sent back with ``archivo:``."""
        if self.files_dir is None:
            return
        for msg in messages:
            for filename, content in msg.attachments.items():
                name = Path(filename).name or "archivo"  # never a path the bot chose
                target = self.files_dir / name
                self.files_dir.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content)
                self.out(f"  💾 {name} → {target}")

    def _slash(self, line: str) -> None:
        path, raw = parse_slash(line, self.sb.commands)
        options = {defn["name"]: convert(defn, value, self.files_dir) for defn, value in raw}
        if self.upload is not None:
            free = [
                d
                for d in option_defs(self.sb.commands, path)
                if d["type"] == 11 and d["name"] not in options
            ]
            if free:  # the attachment goes where Discord's client would put it
                options[free[0]["name"]] = self.upload
                self.upload = None
        mark = self.sb.mark()
        reply = self.sb.command(
            path,
            options,
            guild=self.guild,
            channel=self.channel,
            user=self.user,
            locale=self.locale,
        )
        self._show(reply, mark)

    def _say(self, line: str) -> None:
        """A plain message in the current channel, as the member would type it (typing mode
        posts it as the character); shows what the bot did with it."""
        mark = self.sb.mark()
        written = self.guild.write(self.channel, line, user=self.user)
        if written is None:
            self.fail("✗ Discord no te deja escribir aquí / Discord would refuse this message")
            return
        gone = self.sb.message(written.id).deleted
        self.out(
            f"✎ {self.user}"
            + (" (publicado como personaje / posted as the character)" if gone else "")
        )
        clickables: list[Clickable] = []
        for channel, msg in self.sb.posted_since(mark):
            header = f"→ #{channel} · {msg.author}"
            self.out(
                "\n".join(
                    render_message(msg, clickables=clickables, names=self.sb.name_of, header=header)
                )
            )
        for msg in self.sb.direct_messages(self.guild, self.user):
            if msg.id > mark:
                header = f"✉ {msg.author} → {self.user}"
                self.out("\n".join(render_message(msg, names=self.sb.name_of, header=header)))
        if clickables:
            self.clickables = clickables

    def _clickable(self, number: str, kind: str) -> Clickable:
        try:
            item = next(c for c in self.clickables if c.number == int(number))
        except (StopIteration, ValueError):
            raise ParseError(f"no hay {kind} número {number} / no {kind} number {number}") from None
        if item.kind != kind:
            raise ParseError(f"{number} es un {item.kind}, no un {kind} / is a {item.kind}")
        return item

    def _meta(self, line: str) -> None:
        word, _, arg = line[1:].partition(" ")
        word, arg = word.lower(), arg.strip()
        if word in ("help", "ayuda", "h", "?"):
            self.out(HELP)
        elif word in ("quit", "salir", "q", "exit"):
            self.done = True
        elif word in ("as", "como"):
            self.guild.member(arg)  # raises KeyError for unknown users
            self.user = arg
        elif word in ("in", "en"):
            self.guild.channel(arg.lstrip("#"))
            self.channel = arg.lstrip("#")
        elif word in ("locale", "idioma"):
            self.locale = {"es": "es-ES", "en": "en-US"}.get(arg, arg)
        elif word in ("tz", "zona"):
            try:
                self.zone = ZoneInfo(arg) if arg else None
            except (ZoneInfoNotFoundError, ValueError):
                self.fail(f"✗ zona horaria desconocida / unknown time zone: {arg}")
        elif word in ("click", "pulsa"):
            item = self._clickable(arg, "button")
            mark = self.sb.mark()
            msg = self.sb.message(item.message_id)
            self._show(self.sb.click(msg, item.custom_id, user=self.user, locale=self.locale), mark)
        elif word in ("select", "elige"):
            number, *values = shlex.split(arg)
            item = self._clickable(number, "select")
            mark = self.sb.mark()
            msg = self.sb.message(item.message_id)
            self._show(
                self.sb.select(msg, item.custom_id, values, user=self.user, locale=self.locale),
                mark,
            )
        elif word in ("modal", "formulario"):
            self._modal(arg)
        elif word in ("ac", "sugiere"):
            self._autocomplete(arg)
        elif word in ("thread", "hilo"):
            if self.guild.channel(self.channel).type not in (0, 5):
                raise ParseError(
                    "los hilos se abren en canales de texto / threads open in text channels"
                )
            self.channel = self.guild.thread(self.channel, arg, user=self.user).name
        elif word == "post":
            forum = self.channel if self.guild.channel(self.channel).type == 15 else "foro"
            self.channel = self.guild.forum_post(forum, arg, user=self.user).name
        elif word in ("upload", "subir"):
            if not arg:
                raise ParseError("¿qué archivo? :upload RUTA / which file? :upload PATH")
            self.upload = find_file(_unquote(arg), self.files_dir, ":upload")
            self.out(
                f"📎 {self.upload[0]}: se adjunta al próximo comando con archivo / "
                "attached to the next command with a file option"
            )
        elif word in ("files", "archivos"):
            self._list_files()
        elif word in ("users", "usuarios"):
            self.out("gm (admin, propietario/owner) · ana · bruno · dm2 (Máster)")
        elif word in ("channels", "canales"):
            self.out(" · ".join(f"#{c}" for c in self.sb.channel_names(self.guild)))
        else:
            raise ParseError(f"no conozco :{word} (:help) / unknown :{word}")

    def _modal(self, arg: str) -> None:
        """``:modal`` shows the open form with what was typed; ``:modal ok`` sends it as shown;
        ``:modal campo=valor …`` sends it, fields not typed keeping their earlier values."""
        if self.modal is None or self.modal.modal is None:
            raise ParseError("no hay formulario abierto / no modal is open")
        words = shlex.split(arg)
        earlier = self.typed.setdefault(_form_key(self.modal.modal), {})
        if not words:
            self.out("\n".join(render_modal(self.modal.modal, earlier)))
            return
        send_as_is = [w for w in words if "=" not in w]
        if send_as_is and (len(words) > 1 or send_as_is[0].lower() not in ("ok", "enviar", "send")):
            raise ParseError(
                f"«{send_as_is[0]}»: escribe campo=valor, u «ok» para enviar / "
                "type field=value, or «ok» to send"
            )
        typed = {k: v for k, _, v in (w.partition("=") for w in words if "=" in w)}
        fields = {f.get("custom_id") or "" for f in modal_fields(self.modal.modal)}
        earlier.update({k: v for k, v in typed.items() if k in fields})
        values = {**earlier, **typed}  # an unknown field still reaches the stand-in, which says so
        mark = self.sb.mark()
        reply = self.sb.submit_modal(self.modal, values, user=self.user, locale=self.locale)
        if reply.ok:
            self.modal = None
        self._show(reply, mark)
        if not reply.ok:
            self.out(
                "  (el formulario sigue abierto con lo escrito: corrige con :modal campo=valor / "
                "the form stays open with what you typed: fix it with :modal field=value)"
            )

    def _list_files(self) -> None:
        if self.files_dir is None or not self.files_dir.is_dir():
            self.out("(ningún archivo todavía / no files yet)")
            return
        names = sorted(p.name for p in self.files_dir.iterdir() if p.is_file())
        self.out(f"{self.files_dir}: " + (" · ".join(names) or "(vacía / empty)"))

    def _autocomplete(self, arg: str) -> None:
        path, raw = parse_slash(arg, self.sb.commands)
        if not raw:
            raise ParseError("indica la opción: :ac /orden opción:texto / name the option")
        focused, typed = raw[-1]
        options = {d["name"]: convert(d, v, self.files_dir) for d, v in raw[:-1]}
        choices = self.sb.autocomplete(
            path,
            focused["name"],
            typed,
            guild=self.guild,
            channel=self.channel,
            user=self.user,
            locale=self.locale,
            options=options,
        )
        self.out(
            "Sugerencias / suggestions: "
            + (" | ".join(c["name"] for c in choices) or "(ninguna / none)")
        )


def _form_key(modal: dict[str, Any]) -> tuple[str, ...]:
    """A form is "the same" when its title and fields are: a wizard step opened again."""
    return (str(modal.get("title", "")), *(f.get("custom_id") or "" for f in modal_fields(modal)))


def _world_file(db: Path) -> Path:
    return db.with_suffix(".world.json")


def _load_threads(sb: Sandbox, guild: GuildHandle, path: Path) -> None:
    """Threads and posts opened in earlier runs come back with their ids (the bot may know them)."""
    if not path.exists():
        return
    saved = json.loads(path.read_text())

    def restore() -> None:
        g = sb.world.guilds[guild.id]
        for t in saved.get("threads", []):
            if t["parent_id"] in g.channels and t["id"] not in g.channels:
                sb.world.add_channel(
                    g,
                    t["name"],
                    t["type"],
                    parent_id=t["parent_id"],
                    owner_id=t["owner_id"],
                    channel_id=t["id"],
                )

    sb._run(restore)


def _save_threads(sb: Sandbox, guild: GuildHandle, path: Path) -> None:
    def collect() -> list[dict[str, Any]]:
        g = sb.world.guilds[guild.id]
        return [
            {
                "id": c.id,
                "name": c.name,
                "type": c.type,
                "parent_id": c.parent_id,
                "owner_id": c.owner_id,
            }
            for c in g.channels.values()
            if c.is_thread
        ]

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"threads": sb._run(collect)}, ensure_ascii=False, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot sandbox",
        description="Prueba Árbitro sin Discord / try Árbitro without Discord.",
    )
    parser.add_argument("--script", type=Path, help="un comando por línea / one command per line")
    parser.add_argument(
        "--db",
        type=Path,
        default=REPO / "var" / "sandbox.db",
        help="SQLite file (default var/sandbox.db)",
    )
    parser.add_argument("--module", default="bot.__main__", help=argparse.SUPPRESS)
    # tests on a loaded machine wait longer (ARBITRO_E2E_TIMEOUT / ARBITRO_E2E_DEADLINE)
    parser.add_argument("--timeout", type=float, default=10.0, help=argparse.SUPPRESS)
    parser.add_argument("--deadline", type=float, default=3.0, help=argparse.SUPPRESS)
    parser.add_argument("--user", default="ana")
    parser.add_argument("--channel", default="mesa")
    parser.add_argument("--locale", default="es-ES")
    parser.add_argument(
        "--tz",
        help="zona horaria del lector / the reader's time zone (default: this computer's)",
    )
    parser.add_argument(
        "--files",
        type=Path,
        help="carpeta de los archivos del bot / folder for files the bot sends "
        "(default: sandbox-files next to the database)",
    )
    args = parser.parse_args(argv)
    db = args.db.resolve()
    db.parent.mkdir(parents=True, exist_ok=True)
    lines = None
    if args.script is not None:
        lines = args.script.read_text(encoding="utf-8").splitlines()

    sb = Sandbox(world=World(bot_id=BOT_ID), timeout=args.timeout, deadline=args.deadline)
    sb.enable_intents(MESSAGE_CONTENT)  # the sandbox reads messages: posting by typing works
    guild = sb.new_guild("Mesa de pruebas", ids=SAMPLE_IDS)
    _load_threads(sb, guild, _world_file(db))
    log_path = db.parent / "sandbox-bot.log"
    print(f"Arrancando el bot… / starting the bot… (log: {log_path})", file=sys.stderr)
    try:
        sb.start_bot(
            args.module,
            env={"DATABASE_URL": f"sqlite+aiosqlite:///{db}", "ARBITRO_MESSAGE_CONTENT": "1"},
            log_path=log_path,
        )
    except RuntimeError as exc:
        print(f"✗ {exc}", file=sys.stderr)
        sb.close()
        return 2
    files_dir = (args.files or db.parent / "sandbox-files").resolve()
    print(
        f"Archivos del bot / files the bot sends: {files_dir} "
        "(súbelos con / upload with archivo:NOMBRE)",
        file=sys.stderr,
    )
    session = Session(
        sb,
        guild,
        user=args.user,
        channel=args.channel,
        locale=args.locale,
        files_dir=files_dir,
        zone=ZoneInfo(args.tz) if args.tz else None,
    )
    try:
        if lines is not None:
            for line in lines:
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                print(session.prompt + line)
                session.handle(line)
                if session.done:
                    break
        else:
            _interactive(session)
    finally:
        _save_threads(sb, guild, _world_file(db))
        sb.close()
    return 1 if session.failures else 0


class _PromptTick:
    """While the prompt waits, a no-op ``SIGALRM`` every 0.1 s, so Ctrl-C is always answered.

    CPython's ``input()`` with readline looks at signals only when readline's ``select()`` is
    interrupted (python/cpython#112585).  A Ctrl-C that lands while readline is still echoing
    the previous key, before it waits again, stays pending: the prompt ignores it, and the
    next Enter throws away that *next* line.  A busy machine widens that instant.  The tick
    interrupts the wait, Python then runs the pending Ctrl-C, so it is answered within 0.1 s.
    ``siginterrupt(False)`` (``SA_RESTART``) keeps the tick from failing readline's reads and
    writes; ``select()`` is never restarted, which is what wakes it.  Only at the prompt: a
    command in flight is interrupted by Ctrl-C directly.
    """

    INTERVAL = 0.1

    def __init__(self) -> None:
        self.on = hasattr(signal, "setitimer") and (
            threading.current_thread() is threading.main_thread()
        )
        if self.on:
            signal.signal(signal.SIGALRM, lambda _signum, _frame: None)
            signal.siginterrupt(signal.SIGALRM, False)

    def __enter__(self) -> None:
        if self.on:
            signal.setitimer(signal.ITIMER_REAL, self.INTERVAL, self.INTERVAL)

    def __exit__(self, *_exc: object) -> None:
        if self.on:
            signal.setitimer(signal.ITIMER_REAL, 0)


def _interactive(session: Session) -> None:
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 - line editing and history for input()
    print("Árbitro — sandbox sin conexión / offline sandbox. :help para ayuda / for help.")
    print("Usuarios / users: gm (máster, admin) · ana · bruno · dm2 (rol Máster) — :as NOMBRE")
    print(
        "Canales / channels: #mesa · #foro (foro/forum) · #gm (solo máster) · #escena — :in CANAL"
    )
    print(
        'Para empezar / to start: :as gm  y/and  /campaign create name:"Mi partida" system:nucleo'
    )
    tick = _PromptTick()
    while not session.done:
        try:
            with tick:
                line = input(session.prompt)
        except EOFError:  # Ctrl-D leaves, as in Python's own prompt
            print()
            break
        except KeyboardInterrupt:  # Ctrl-C drops the line being typed
            print()
            continue
        try:
            session.handle(line)
        except KeyboardInterrupt:
            print("(interrumpido / interrupted)")


if __name__ == "__main__":
    sys.exit(main())
