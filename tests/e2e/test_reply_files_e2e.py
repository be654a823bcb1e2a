"""A reply that carries files goes out whole by every route: the answer, the watchdog's
deferral filled in, a follow-up, the clicked message updated, and any of them sent again after
a lost response. Public or private exactly as the command declares, through the real client to
the local Discord, which checks the multipart body as Discord does (`payload_json`, `files[n]`,
an `attachments` entry with the same id for each) and that the embed's `attachment://` picture
is one of the message's files. `/picture` (tests/e2e/picture_cog.py) answers as a chart will."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import Env, running_env
from tests.e2e.picture_cog import alt_text, png
from tests.e2e.test_ack_e2e import store_held
from tests.localdiscord.faults import Fault, Faults
from tests.localdiscord.records import EPHEMERAL
from tests.localdiscord.reply import Reply

CALLBACK = "POST /interactions/*/callback"
FILL = "PATCH /webhooks/*/messages/@original"  # the deferral filled in, or the click's update
SLOW = 1.6  # seconds the store is held: past the watchdog, within Discord's 3 s


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    database = f"sqlite:///{tmp_path / 'tablekeeper.db'}"
    async with running_env(database, "tests.e2e.picture_cog") as e:
        yield e


def assert_drawing(reply: Reply, n: int, *, private: bool, extra: int = 0) -> None:
    """Drawing `n` as the user sees it: its picture shown in the embed with its alt text, its
    data files beside it, its Redraw button, and visible to whom it should be."""
    assert reply.ephemeral is private
    assert reply.embed["image"]["url"] == f"attachment://chart-{n}.png"
    data = [(f"data-{n}-{k}.csv", f"bar,{k}\n".encode()) for k in range(extra)]
    assert reply.files == ((f"chart-{n}.png", png(n)), *data)
    picture, *others = reply.attachments
    assert (picture["description"], picture["content_type"]) == (alt_text(n), "image/png")
    assert [a["description"] for a in others] == [f"Data {k}" for k in range(extra)]
    assert [b["custom_id"] for b in reply.buttons()] == [f"tk:test:redraw:{n + 1}"]


def sent(env: Env, reply: Reply, method: str) -> list[str]:
    """The requests of `method` the bot made for this reply's interaction."""
    token = env.discord.server.interactions[reply.interaction_id].token
    return [r for r in env.discord.requests if r.startswith(f"{method} ") and token in r]


def thought_privately(env: Env, reply: Reply) -> bool:
    """Whether the deferral's "thinking…" was shown to the user alone."""
    rec = env.discord.server.interactions[reply.interaction_id]
    assert rec.callback_type == 5 and rec.callback_data is not None
    return bool((rec.callback_data.get("flags") or 0) & EPHEMERAL)


@pytest.mark.parametrize("public", [False, True], ids=["private", "public"])
@pytest.mark.parametrize("slow", [False, True], ids=["answer", "deferred"])
async def test_a_picture_reply_arrives_whole(env: Env, public: bool, slow: bool) -> None:
    d = env.discord
    async with store_held(env, SLOW if slow else 0):
        reply = await d.slash("picture", user=d.player, public=public, extra=2)
    assert_drawing(reply, 0, private=not public, extra=2)
    if slow:  # "thinking…" as private as the answer, which filled it in: nothing deleted
        assert thought_privately(env, reply) is not public
        assert len(sent(env, reply, "PATCH")) == 1 and not sent(env, reply, "DELETE")
    else:
        assert reply.callback_type == 4 and sent(env, reply, "PATCH") == []


@pytest.mark.parametrize("public", [False, True], ids=["private", "public"])
@pytest.mark.parametrize("slow", [False, True], ids=["answer", "deferred"])
async def test_a_second_picture_is_a_follow_up_with_its_own_files(
    env: Env, public: bool, slow: bool
) -> None:
    d = env.discord
    async with store_held(env, SLOW if slow else 0):
        reply = await d.settle(
            await d.slash("picture", user=d.player, public=public, count=2, extra=1)
        )
    assert reply.callback_type == (5 if slow else 4)
    assert_drawing(reply, 0, private=not public, extra=1)  # the answer is not overwritten
    (second,) = reply.followups
    assert_drawing(second, 1, private=not public, extra=1)
    assert len(sent(env, reply, "POST")) == 2  # the callback, then one follow-up


@pytest.mark.parametrize("slow", [False, True], ids=["update", "deferred update"])
async def test_redraw_replaces_the_picture_in_place(env: Env, slow: bool) -> None:
    d = env.discord
    first = await d.slash("picture", user=d.player, public=True, extra=1)
    async with store_held(env, SLOW if slow else 0):
        again = await d.click(first, "Redraw", user=d.player2)
    assert again.callback_type == (6 if slow else 7)
    assert again.message_id == first.message_id
    assert_drawing(again, 1, private=False)  # the old picture and data file are gone


LOSSES: dict[str, Callable[[Faults, str], Fault]] = {
    "lost response": lambda faults, route: faults.drop_response(route),  # Discord has it
    "lost request": lambda faults, route: faults.drop_request(route),  # Discord has nothing
}


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("slow", [False, True], ids=["answer", "deferred"])
async def test_a_picture_sent_again_after_a_lost_connection_arrives_whole(
    env: Env, loss: str, slow: bool
) -> None:
    d = env.discord
    fault = LOSSES[loss](d.server.faults, FILL if slow else CALLBACK)
    async with store_held(env, SLOW if slow else 0):
        reply = await d.slash("picture", user=d.player, public=True, extra=1)
    assert fault.hits
    reply = await d.settle(reply)
    assert_drawing(reply, 0, private=False, extra=1)
    assert not reply.followups  # no error after it, and no second copy
