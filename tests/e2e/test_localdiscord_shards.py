"""The local Discord is sharded like Discord: /gateway/bot's shard count, IDENTIFY's
[shard_id, shard_count], events routed by guild, a second answer refused with 40060, and files
uploaded as multipart bodies kept for the test to read."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from collections.abc import AsyncIterator

import aiohttp
import discord
from discord import app_commands

from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.default_world import World, build_world
from tests.localdiscord.fixtures import running
from tests.localdiscord.payloads import interaction_payload
from tests.localdiscord.records import InteractionRecord
from tests.localdiscord.shards import add_guild_on_shard, event_shard, id_on_shard, shard_of

READY = ("READY", "GUILD_CREATE")


def two_shard_world() -> World:
    world = build_world()
    for shard in (0, 1):
        add_guild_on_shard(world, f"Shard {shard} Table", shard, 2)
    return world


@contextlib.asynccontextmanager
async def shard_client(d: LocalDiscord, shard: int) -> AsyncIterator[discord.AutoShardedClient]:
    client = discord.AutoShardedClient(
        intents=discord.Intents(guilds=True),
        shard_count=d.server.gateway.shard_count,
        shard_ids=[shard],
    )
    d.server.gateway.identified.clear()  # wait for this client's IDENTIFY, not an earlier one
    async with running(client, d, commands=False):
        await asyncio.wait_for(client.wait_until_ready(), 10)
        yield client


def test_shard_arithmetic_is_discords() -> None:
    # Discord's formula, worked by hand: 81384788765712384 >> 22 = 19403645698.
    assert shard_of(81384788765712384, 2) == 0
    assert shard_of(81384788765712384, 3) == 1
    assert shard_of(81384788765712384, 1) == 0
    assert event_shard({"channel_id": "1"}, 4) == 0
    for count in (1, 2, 3, 7):
        for shard in range(count):
            assert shard_of(id_on_shard(shard, count), count) == shard


async def test_gateway_bot_reports_the_shard_count() -> None:
    async with LocalDiscord(shard_count=3) as d, aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {d.token}"}
        async with http.get(d.api_base + "/gateway/bot", headers=headers) as response:
            body = await response.json()
        assert body["shards"] == 3 and body["url"].startswith("ws://127.0.0.1")


async def test_each_shard_gets_its_own_guilds_and_events() -> None:
    world = two_shard_world()
    async with LocalDiscord(world, shard_count=2) as d:
        async with shard_client(d, 0) as zero, shard_client(d, 1) as one:
            on = {g.id: shard_of(g.id, 2) for g in world.guilds}
            assert {g.id for g in zero.guilds} == {gid for gid, s in on.items() if s == 0}
            assert {g.id for g in one.guilds} == {gid for gid, s in on.items() if s == 1}
            assert {0, 1} == set(on.values())
            assert sorted(d.server.gateway.identified_shards) == [0, 1]
            assert d.server.gateway.identify_payload["shard"][1] == 2

            # An interaction in each guild reaches only the session of the guild's shard.
            for guild in world.guilds:
                channel = guild.channels[0]
                payload = interaction_payload(world, 2, world.gm, channel, {"name": "x"})
                await d.server.gateway.dispatch("INTERACTION_CREATE", payload)
            dm = {"channel_id": "2", "last_pin_timestamp": None}  # a DM channel's: no guild
            await d.server.gateway.dispatch("CHANNEL_PINS_UPDATE", dm)
            got = {
                s.shard: [f["d"].get("guild_id") for f in s.sent if f["t"] not in READY]
                for s in d.server.gateway.sessions
            }
            assert got[0] == [str(g) for g, s in on.items() if s == 0] + [None]  # DM: shard 0
            assert got[1] == [str(g) for g, s in on.items() if s == 1]
        d.assert_clean()


async def test_identify_with_the_wrong_shard_count_is_refused() -> None:
    async with LocalDiscord(shard_count=2) as d, aiohttp.ClientSession() as http:
        async with http.ws_connect(d.server.gateway_url + "?v=10&encoding=json") as ws:
            await ws.receive_json()  # HELLO
            identify = {"token": d.token, "shard": [0, 3], "intents": 1, "properties": {}}
            await ws.send_json({"op": 2, "d": identify})
            closed = await ws.receive()
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4010
        assert d.take_violations() == ["gateway: IDENTIFY as shard [0, 3]; Discord has 2 shards"]


async def test_a_second_answer_gets_40060() -> None:
    async with LocalDiscord() as d, aiohttp.ClientSession() as http:
        payload = interaction_payload(d.world, 2, d.player, d.table, {"name": "x"})
        rec = InteractionRecord(int(payload["id"]), payload["token"], 2, payload)
        d.server.interactions[rec.id] = rec
        url = f"{d.api_base}/interactions/{rec.id}/{rec.token}/callback"
        answer = {"type": 4, "data": {"content": "one", "allowed_mentions": {"parse": []}}}
        async with http.post(url, json=answer) as first:
            assert first.status == 200
        async with http.post(url, json=answer) as second:
            assert second.status == 400
            assert (await second.json())["code"] == 40060
        assert d.take_violations() == [
            f"interaction {rec.id} answered twice (40060 already acknowledged)"
        ]


async def test_files_sent_as_multipart_are_kept_on_the_message() -> None:
    client = discord.Client(intents=discord.Intents(guilds=True))
    tree = app_commands.CommandTree(client)

    @tree.command(description="Send a file")
    async def file(interaction: discord.Interaction) -> None:
        data = json.dumps({"hello": "table"}).encode()
        upload = discord.File(io.BytesIO(data), filename="table.json")
        await interaction.response.send_message("here", file=upload)

    @tree.command(description="Send a file after thinking")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        upload = discord.File(io.BytesIO(b"[1, 2]"), filename="later.json")
        await interaction.followup.send("late file", file=upload)

    async def sync_tree() -> None:
        await tree.sync()

    client.setup_hook = sync_tree  # type: ignore[method-assign]
    async with LocalDiscord() as d, running(client, d):
        now = await d.slash("file", user=d.player)
        assert now.content == "here"
        assert now.files == (("table.json", b'{"hello": "table"}'),)
        deferred = await d.slash("later", user=d.player)
        assert deferred.files == (("later.json", b"[1, 2]"),)
        message = d.server.messages[deferred.message_id or 0].payload()
        assert message["attachments"][0]["filename"] == "later.json"
        assert message["attachments"][0]["size"] == 6
        d.assert_clean()
