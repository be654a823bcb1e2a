"""The one place the language of a reply is chosen.

A private reply speaks its reader's language (`interaction.locale`). A public reply speaks the
table's: the language its channel sets (`/settings set language:`), else its server's
(`/settings server language:`); where neither is set, a Community server's `guild_locale`
(Discord sets every other server's to en-US, whatever its members speak, so there it means
nothing), else the reader's, as a private reply.

The table's language comes with the table, so it costs no read of its own. Every answer is
begun here before its words are made (`bot.ack.take`: a command and a button with the privacy
their reply declares, a form's submission the same way; an error or an unclaimed click as
private), from what is known then: the language this process last read for the channel
(`TableLanguages`, kept on the client). The command's own read of its table (`read_table`, or
the transaction of `apply_as`, in `cogs._shared`) then says it for certain (`hear`), before the
reply's words are made, so every reply whose command reads its table speaks the language that
read found, and the few that read none (a `/roll`) the one this process read last for the
channel (another process's change reaches it at its next read there). Words are made with
`lang._` in the language set here, so a reply reads in one language from top to bottom; a
private message made in the middle of a public reply's work (the GM's copy, the facing prompt)
is made `privately`.
"""

from __future__ import annotations

from collections import OrderedDict
from contextlib import AbstractContextManager

import discord

from lang import remember, speak, speaking

COMMUNITY = "COMMUNITY"  # a server's feature: its guild_locale is the language its admins chose
_HEARD = "tablekeeper.table_language"  # the language this interaction's own read found
KNOWN_MAX = 10_000  # channels whose table language a process keeps


class TableLanguages:
    """The language each channel's table was last read with in this process, for the replies
    of commands that read no table; at most KNOWN_MAX channels, the least recently read
    forgotten first."""

    def __init__(self, most: int = KNOWN_MAX) -> None:
        self._known: OrderedDict[int, str | None] = OrderedDict()
        self._most = most

    def get(self, channel_id: int) -> tuple[bool, str | None]:
        """(whether it is known, the language: None where the table sets none)."""
        if channel_id not in self._known:
            return False, None
        self._known.move_to_end(channel_id)
        return True, self._known[channel_id]

    def put(self, channel_id: int, language: str | None) -> None:
        self._known[channel_id] = language
        self._known.move_to_end(channel_id)
        if len(self._known) > self._most:
            self._known.popitem(last=False)


def _known(interaction: discord.Interaction) -> TableLanguages | None:
    found = getattr(interaction.client, "table_languages", None)
    return found if isinstance(found, TableLanguages) else None


def table_language(interaction: discord.Interaction) -> str | None:
    """The language the table this interaction plays at sets, as its own read found it, else
    as this process last read it for the channel; None if it sets none (or nothing is known)."""
    if _HEARD in interaction.extras:
        heard: str | None = interaction.extras[_HEARD]
        return heard
    known = _known(interaction)
    if known is None or interaction.channel_id is None:
        return None
    return known.get(interaction.channel_id)[1]


def community_language(interaction: discord.Interaction) -> str | None:
    """A Community server's language (`guild_locale`); None on any other server, where Discord
    sets it to en-US whatever the server speaks."""
    guild = interaction.guild
    if guild is None or interaction.guild_locale is None or COMMUNITY not in guild.features:
        return None
    return interaction.guild_locale.value


def reply_language(interaction: discord.Interaction, private: bool) -> str | None:
    """The Discord locale a reply to `interaction` speaks: a private reply the reader's own; a
    public one the table's, else a Community server's, else the reader's."""
    reader = interaction.locale.value
    if private:
        return reader
    return table_language(interaction) or community_language(interaction) or reader


def speak_to(interaction: discord.Interaction, private: bool) -> None:
    """Make the words that follow, in this task, in the language of a reply to `interaction`.
    In another language than the reader's, what is said is remembered: a refusal made among a
    public reply's words is said to its reader in theirs (`lang.again`, by the error handler)."""
    language = reply_language(interaction, private)
    if language != interaction.locale.value:
        remember()
    speak(language)


def hear(interaction: discord.Interaction, language: str | None, private: bool) -> None:
    """The table's language (None: it sets none), as the command's own read of it found: its
    reply (`private` or not, as declared) speaks by it from here on, and this process keeps it
    for the channel."""
    interaction.extras[_HEARD] = language
    known = _known(interaction)
    if known is not None and interaction.channel_id is not None:
        known.put(interaction.channel_id, language)
    speak_to(interaction, private)


def privately(interaction: discord.Interaction) -> AbstractContextManager[None]:
    """For a block: words in the reader's own language, for a private message made in the
    middle of a public reply's work (the GM's copy, the facing prompt)."""
    return speaking(reply_language(interaction, private=True))
