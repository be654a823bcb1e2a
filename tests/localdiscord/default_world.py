"""The standard world every test starts from: two tables, their GMs and players."""

from __future__ import annotations

from dataclasses import dataclass

from tests.localdiscord.world import (
    MANAGE_CHANNELS,
    VIEW_CHANNEL,
    Channel,
    Guild,
    Overwrite,
    User,
    new_guild,
    new_id,
)


@dataclass
class World:
    bot: User
    application_id: int
    guilds: list[Guild]
    # Cast, named for short tests.
    owner: User  # owns the first guild: every permission
    gm: User  # "Game Master" role, which has Manage Channels
    named_gm: User  # a role called "GM" without Manage Channels
    player: User
    player2: User
    outsider: User  # member of the second guild only
    guild: Guild
    other_guild: Guild
    table: Channel  # #table in the first guild
    ooc: Channel
    gm_notes: Channel  # hidden from @everyone, visible to both GM roles
    side_table: Channel  # Players get Manage Channels here through an overwrite
    other_table: Channel
    scene: Channel  # a public thread of #table

    def users(self) -> list[User]:
        return [
            self.bot,
            self.owner,
            self.gm,
            self.named_gm,
            self.player,
            self.player2,
            self.outsider,
        ]

    def guild_of(self, channel: Channel) -> Guild:
        return next(g for g in self.guilds if g.id == channel.guild_id)

    def find_channel(self, channel_id: int) -> Channel | None:
        every = (c for g in self.guilds for c in (*g.channels, *g.threads))
        return next((c for c in every if c.id == channel_id), None)

    def find_user(self, key: int | str) -> User | None:
        """By id, mention (<@id>) or username."""
        text = str(key).strip("<@!>")
        return next((u for u in self.users() if str(u.id) == text or u.username == text), None)


def build_world() -> World:
    bot = User(new_id(), "Tablekeeper", bot=True)
    owner = User(new_id(), "olwen")
    gm = User(new_id(), "gandra")
    named_gm = User(new_id(), "nim")
    player = User(new_id(), "pippa")
    player2 = User(new_id(), "perrin")
    outsider = User(new_id(), "otto")

    guild = new_guild("Moria Table", owner)
    gm_role = guild.add_role("Game Master", MANAGE_CHANNELS)
    named_role = guild.add_role("GM", 0)
    players = guild.add_role("Players", 0)
    bot_role = guild.add_role("Tablekeeper", 0)
    table = guild.add_channel("table")
    ooc = guild.add_channel("ooc")
    gm_notes = guild.add_channel(
        "gm-notes",
        [
            Overwrite(guild.id, 0, deny=VIEW_CHANNEL),
            Overwrite(gm_role.id, 0, allow=VIEW_CHANNEL),
            Overwrite(named_role.id, 0, allow=VIEW_CHANNEL),
            Overwrite(bot_role.id, 0, allow=VIEW_CHANNEL),
        ],
    )
    side_table = guild.add_channel("side-table", [Overwrite(players.id, 0, allow=MANAGE_CHANNELS)])
    scene = guild.add_thread("scene", table)
    guild.add_member(bot, bot_role)
    guild.add_member(gm, gm_role)
    guild.add_member(named_gm, named_role)
    guild.add_member(player, players)
    guild.add_member(player2, players)

    other = new_guild("Shire Table", gm)  # gandra owns the second table
    other_players = other.add_role("Players", 0)
    other_table = other.add_channel("table")
    other.add_member(bot)
    other.add_member(outsider, other_players)
    other.add_member(player, other_players)

    return World(
        bot=bot,
        application_id=bot.id,  # a bot user's id is its application's id
        guilds=[guild, other],
        owner=owner,
        gm=gm,
        named_gm=named_gm,
        player=player,
        player2=player2,
        outsider=outsider,
        guild=guild,
        other_guild=other,
        table=table,
        ooc=ooc,
        gm_notes=gm_notes,
        side_table=side_table,
        other_table=other_table,
        scene=scene,
    )
