"""``/privacy delete``'s confirmation reads right in both languages (issue 13)."""

from __future__ import annotations

from bot.services.privacy.privacy import DeletionPreview
from cogs.ui.render_privacy import preview


def test_the_preview_leaves_out_what_is_zero_and_quotes_in_the_readers_language():
    """Was «Se borrarán tus 0 borradores de personaje» and «Ardelia» in English too."""
    nothing_else = DeletionPreview(("Kára",), rolls=0, drafts=0, campaigns_as_gm=())
    spanish = preview(nothing_else, "delete", "es")
    assert "«Kára»" in spanish and "borrador" not in spanish and "tirada" not in spanish
    english = preview(nothing_else, "delete", "en")
    assert "“Kára”" in english and "«" not in english and "draft" not in english
    some = preview(DeletionPreview((), rolls=1, drafts=2, campaigns_as_gm=()), "delete", "es")
    assert "Tu tirada se queda" in some and "tus 2 borradores" in some
