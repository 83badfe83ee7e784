"""The floor of ``benchmarks/roll_load_bench.py``: a bare discord.py bot answering ``/roll``.

Same command, same options, same dice engine and the same Markdown line as Árbitro's
``/roll``, but no database, no campaign, no audit log, no catalogue: what any bot pays to
receive an interaction and answer it.  Árbitro's cost per ``/roll`` is compared with this
one, measured in the same run under the same load.
"""

from __future__ import annotations

import logging
import os
import random
import sys

import discord
from discord import app_commands

from rules import dice

_rng = random.SystemRandom()


@app_commands.command(name="roll", description="Roll dice")
async def roll(
    itx: discord.Interaction,
    expression: app_commands.Range[str, 1, 200],
    reason: app_commands.Range[str, 1, 200] | None = None,
    private: bool = False,
    difficulty: app_commands.Range[int, -999, 9999] | None = None,
) -> None:
    result = dice.roll(expression, rng=_rng)
    text = f"**{itx.user.display_name}** {result.markdown()}"
    await itx.response.send_message(text, ephemeral=private)


class FloorBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(roll)

    async def setup_hook(self) -> None:
        await self.tree.sync()


def main(argv: list[str] | None = None) -> int:
    FloorBot().run(os.environ["DISCORD_TOKEN"], log_level=logging.WARNING, root_logger=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
