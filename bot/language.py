"""The one place the language of a reply is chosen.

Every answer passes through here before its words are made: a command and a button when they
are taken (`bot.ack.take`, with the privacy their reply declares), a form's submission the
same way, an error or an unclaimed click when it is answered (always private). Words are made
with `lang._` in the language set here, so a reply reads in one language from top to bottom.
"""

from __future__ import annotations

import discord

from lang import speak


def reply_language(interaction: discord.Interaction, private: bool) -> str | None:
    """The Discord locale a reply to `interaction` speaks: a private reply the reader's own
    (`interaction.locale`). A public reply speaks it too for now; a table's own language, where
    one is set, belongs here, for public replies only."""
    return interaction.locale.value


def speak_to(interaction: discord.Interaction, private: bool) -> None:
    """Make the words that follow, in this task, in the language of a reply to `interaction`."""
    speak(reply_language(interaction, private))
