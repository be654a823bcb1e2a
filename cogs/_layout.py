"""A card (`render.cards.Card`) laid out as a Components V2 message: one container in the card's
colour, its heading, a section per entry with that entry's one button beside it (Discord allows
one accessory a section), the notes, a picture in a media gallery, and a row of actions.

Every button of a card is a `TableButton` (a `DynamicItem`), so the card keeps working after a
restart; the layout itself is stopped before it is sent, as `cogs._buttons.buttons_view` is:
nothing of it stays in memory. `show_card` answers a click by putting a card (again) on the
message clicked.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

import discord

from cogs._buttons import TableButton
from cogs._reply import reply, update
from pictures import Picture
from render.cards import Card, Entry

Accessory = Callable[[Entry], TableButton | None]


def layout(
    card: Card,
    accessory: Accessory | None = None,
    actions: Sequence[TableButton] = (),
    picture: Picture | None = None,
) -> discord.ui.LayoutView:
    """The card as a message's layout: `accessory` gives each entry that acts its button,
    `actions` go in a row at the bottom, `picture` (attached with the message) in a gallery."""
    view = discord.ui.LayoutView(timeout=None)
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=card.colour)
    box.add_item(discord.ui.TextDisplay(card.heading))
    for entry in card.entries:
        button = accessory(entry) if accessory is not None and entry.acts else None
        text: discord.ui.TextDisplay[Any] = discord.ui.TextDisplay(entry.text)
        box.add_item(text if button is None else discord.ui.Section(text, accessory=button))
    if card.notes:
        box.add_item(discord.ui.TextDisplay(card.notes))
    if picture is not None:
        item = discord.MediaGalleryItem(f"attachment://{picture.filename}", description=picture.alt)
        box.add_item(discord.ui.MediaGallery(item))
    if actions:
        box.add_item(discord.ui.ActionRow(*actions))
    view.add_item(box)
    view.stop()  # its clicks go to the dynamic items registered with the client
    return view


def attached(picture: Picture | None) -> list[discord.File]:
    """The picture's file for the message that shows it (none: the message carries none)."""
    if picture is None:
        return []
    return [discord.File(io.BytesIO(picture.png), picture.filename, description=picture.alt)]


async def send_card(
    interaction: discord.Interaction,
    view: discord.ui.LayoutView,
    picture: Picture | None = None,
    private: bool | None = None,
) -> None:
    """A new message with the card (private as declared unless `private` says)."""
    await reply(interaction, view=view, files=attached(picture), private=private)


async def show_card(
    interaction: discord.Interaction,
    view: discord.ui.LayoutView,
    picture: Picture | None = None,
) -> None:
    """Put the card on the message clicked, with its picture or none: a page turned, a card
    brought up to date, a chart added. A message sent before cards (an embed) becomes one;
    Discord lets a message take the Components V2 flag, never drop it."""
    message = interaction.message
    was_card = message is not None and message.flags.components_v2
    embed = discord.utils.MISSING if was_card else None  # an old embed goes
    await update(interaction, view=view, files=attached(picture), embed=embed)
