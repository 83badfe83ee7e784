"""The Discord layer's helpers: interaction context, renderers, views, the creation wizard.

Nothing here is an extension (no ``setup``): ``bot.app.EXTENSIONS`` loads only the command
groups in ``cogs/``, and those import from here, never from each other.
"""
