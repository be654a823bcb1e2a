"""Who is the GM of a channel: Discord's own permission, or the channel's GM role."""

from __future__ import annotations

import discord

from table.model import ChannelSettings


def is_gm(interaction: discord.Interaction, settings: ChannelSettings) -> bool:
    """Manage Channels in this channel (Discord resolves overwrites for us in
    `interaction.permissions`), or the role the channel's settings name as GM role.

    Roles come from the interaction's member and the guild cache (the GUILDS intent).
    """
    return is_gm_with(interaction.permissions, interaction.user, settings)


def is_gm_with(
    permissions: discord.Permissions,
    user: discord.User | discord.Member,
    settings: ChannelSettings,
) -> bool:
    """`is_gm` in another channel: the user's `permissions` there (as Discord resolves them for
    a channel option), or that channel's GM role."""
    if permissions.manage_channels:
        return True
    if settings.gm_role_id is None or not isinstance(user, discord.Member):
        return False
    return any(role.id == settings.gm_role_id for role in user.roles)
