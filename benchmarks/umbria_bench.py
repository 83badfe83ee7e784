"""Reading and importing a Comunidad Umbría game: how long, how much memory, how much lag.

Run from the repository root (under the suite lock, docs/testing.md)::

    .venv/bin/python benchmarks/umbria_bench.py [--posts 5000]

It writes a synthetic game shaped like the fixtures (tests/fixtures/umbria/): pages of 20
posts, each page with Umbría's chrome around them (the scene list, a pager), bodies with
formatting, a roll every third post.  It measures, in one run:

* the baseline: BeautifulSoup with the standard library's parser walking every page and
  nothing else (the floor of any reader built on it);
* ``read_umbria`` on the same zip (budgets, parsing, Markdown, rolls, the merge), its ratio
  to the baseline and its peak Python memory (tracemalloc);
* the whole ``/campaign import`` on SQLite (the worker process reads, one transaction
  writes), and the worst lag of a 10 ms timer on the event loop meanwhile against idle.

Not a timed test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import tempfile
import time
import tracemalloc
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bs4 import BeautifulSoup  # noqa: E402

from benchmarks.privacy_export_bench import worst_lag  # noqa: E402
from bot.app import Services  # noqa: E402
from bot.db.engine import create_engine  # noqa: E402
from bot.db.migrate import upgrade  # noqa: E402
from bot.services import Actor, Place  # noqa: E402
from bot.services.chronicle.umbria.reader import read_umbria  # noqa: E402

PER_PAGE = 20
CHROME = "<div id='menu'>" + "<a href='/comunidad/x'>enlace</a> " * 150 + "</div>"
BODY = (
    "<p>La lluvia golpea los <b>postigos</b> mientras Aldara escucha tras la puerta; "
    "el farol oscila y nadie sabe cu&aacute;ndo zarpar&aacute; el <i>Albatros</i>.</p>" * 4
)


def page(scene: int, number: int, first: int) -> str:
    listing = "".join(
        f"<li><a href='/partida/1/{s}?__Pg=1'>Escena {s}</a></li>" for s in range(1, 30)
    )
    posts = []
    for n in range(first, first + PER_PAGE):
        roll = (
            f"<div class='tirada'>Tirada: 1d100(+5)<br>Motivo: Buscar<br>"
            f"Resultado: {n % 100 + 1}(+5)={n % 100 + 6}</div>"
            if n % 3 == 0
            else ""
        )
        posts.append(
            f"<div class='wrapMensaje'><div class='mensaje' id='msj{n}'>"
            f"<a href='/comunidad/companeros/{n % 5 + 1}'><img class='fotoAvatar' src='a.png'></a>"
            f"<div class='fecha'>{n % 28 + 1:02d}/03/2019, 18:{n % 60:02d}</div>"
            f"<div class='pj'>Personaje {n % 5}</div><div class='texto'>{BODY}</div>"
            f"<div class='notas' id='notas{n}'><h3>Notas de juego</h3>Nota {n}</div>{roll}"
            "</div></div>"
        )
    return (
        f"<html><head><title>Escena {scene}</title></head><body>{CHROME}"
        f"<h2 class='tituloPartida'>Banco de pruebas</h2><div id='listaEscenas'><ul>{listing}</ul></div>"
        f"<h3 id='escena'>Escena {scene}</h3>"
        f"<ul class='paginador'><li><a href='/partida/1/{scene}?__Pg={number}'>{number}</a></li></ul>"
        + "".join(posts)
        + "</body></html>"
    )


def game(posts: int) -> tuple[bytes, list[bytes]]:
    pages = []
    for index in range(max(1, posts // PER_PAGE)):
        scene, number = index // 10 + 1, index % 10 + 1
        pages.append(page(scene, number, index * PER_PAGE + 1).encode())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index, html in enumerate(pages):
            archive.writestr(f"pagina_{index:04d}.html", html)
    return buffer.getvalue(), pages


async def import_once(payload: bytes) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as folder:
        engine = create_engine(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}")
        await upgrade(engine)
        services = Services(engine)
        await services.compute.start()
        here, gm = Place(1, 11, (11,)), Actor(1, "Máster", can_manage_channels=True)

        async def run() -> None:
            await services.chronicle.import_archive(
                here, gm, payload, target_id=11, kind="channel", system="nucleo"
            )

        idle, _ = await worst_lag(None)
        lag, took = await worst_lag(run)
        await services.compute.close()
        await engine.dispose()
    return idle, lag, took


def main(posts: int) -> None:
    payload, pages = game(posts)
    html = sum(len(p) for p in pages)
    start = time.perf_counter()
    for html_page in pages:
        BeautifulSoup(html_page, "html.parser")
    baseline = time.perf_counter() - start
    start = time.perf_counter()
    found = read_umbria(payload)
    reading = time.perf_counter() - start
    tracemalloc.start()  # a second read for memory alone: tracing slows every allocation
    read_umbria(payload)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    idle, lag, took = asyncio.run(import_once(payload))
    count = found.counts()
    print(f"posts: {count['posts']} in {len(pages)} pages ({html / 2**20:.1f} MB of HTML, "
          f"zip {len(payload) / 2**20:.2f} MB), rolls: {count['rolls']}")  # fmt: skip
    print(
        f"baseline (BeautifulSoup parse only): {baseline:.2f} s ({html / 2**20 / baseline:.1f} MB/s)"
    )
    print(f"read_umbria:                         {reading:.2f} s ({reading / baseline:.2f}x baseline), "
          f"peak {peak / 2**20:.0f} MB")  # fmt: skip
    print(
        f"at the page budget (64 MB of HTML):  ~{reading * 64 * 2**20 / html:.0f} s of worker time"
    )
    print(f"whole /campaign import (SQLite):     {took:.2f} s")
    print(f"worst loop lag idle / importing:     {idle * 1000:.0f} ms / {lag * 1000:.0f} ms "
          f"({lag / max(idle, 1e-4):.0f}x idle)")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=5000)
    main(parser.parse_args().posts)
