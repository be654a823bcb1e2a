"""A command decides "is the caller the GM?" in the same store transaction that writes.

The race: a member is GM by the channel's GM role, and another `/settings set` clears that
role just before their command's transaction starts. Deciding from a separate earlier read
would let the change through; deciding from the table the transaction loads refuses it. The
other change is slipped in deterministically, by the bot's own store, right before the
command's transaction begins (`slip_in_before_next_write`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from store.backend import Body
from table import bestiary
from table.bestiary import BuildOptions
from table.model import Monster, Table
from tests.e2e.helpers import hero, seed, snapshot

Change = Callable[[Table], tuple[Table, None]]


def gm_role(role_id: int | None) -> Change:
    """What `/settings set gm_role:` (or `clear_gm_role:`) does to the channel."""
    return lambda table: (
        replace(table, settings=replace(table.settings, gm_role_id=role_id)),
        None,
    )


@contextlib.contextmanager
def slip_in_before_next_write(env: Any, change: Change) -> Iterator[None]:
    """The next write transaction the bot's store begins is preceded by `change`, committed
    as its own logged change by the channel's GM ("settings set")."""
    store, channel = env.store, env.discord.table
    backend = store.backend
    original = backend.write
    pending = [change]

    async def write(channel_id: int, body: Body[Any]) -> Any:
        if pending:  # emptied first: the slipped-in change itself comes through here too
            await store.apply(
                channel.id, channel.guild_id, env.discord.gm.id, "settings set", pending.pop()
            )
        return await original(channel_id, body)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(backend, "write", write)
        yield
    assert not pending, "the command never began a write transaction"


async def seed_table(env: Any, role_id: int | None) -> None:
    d = env.discord
    await seed(
        env, hero("Bree", d.player, fp=30), hero("Nim", d.named_gm, fp=10), gm_role_id=role_id
    )
    imp = Monster("Imp", bestiary.build(BuildOptions(rank=1, armor="light")).to_dict(), 12, 12, "N")
    await env.store.apply(
        d.table.id,
        d.table.guild_id,
        d.gm.id,
        "test seed",
        lambda table: (table.with_monster(imp), None),
    )


PLAYER = object()  # stands for the player who owns Bree, known only once the world is up

# Every kind of change only a GM may make here (the named GM owns Nim, not Bree); each is
# logged under its command's name.
GM_COMMANDS: list[tuple[str, dict[str, Any]]] = [
    ("clock round", {}),
    ("clock pass", {"minutes": 5}),
    ("party spend", {"amount": 2}),
    ("clock set", {"day": 2}),
    ("settings set", {"rest_rate": 2}),
    ("character create", {"name": "Cat", "owner": PLAYER}),
    ("character set", {"name": "Bree", "level": 3}),
    ("fatigue spend", {"character": "Bree"}),
    ("fatigue temp", {"character": "Bree", "amount": 2}),
    ("fatigue recover", {"character": "Nim"}),
    ("rest short", {"character": "Bree"}),
    ("monster create", {"name": "Orc", "rank": 2, "armor": "heavy"}),
    ("monster face", {"name": "Imp", "facing": "S"}),
    ("monster hit", {"name": "Imp", "damage": 5}),
]  # /monster remove asks first: its click is tested in test_newcomer_replies_e2e
NAMES = [name for name, _ in GM_COMMANDS]
ANSWERS_THE_GM_ALONE = {"monster create"}  # a monster made is behind the GM's screen


def options_for(d: Any, options: dict[str, Any]) -> dict[str, Any]:
    return {k: d.player if v is PLAYER else v for k, v in options.items()}


@pytest.mark.parametrize(("command", "options"), GM_COMMANDS, ids=NAMES)
async def test_a_gm_role_cleared_just_before_the_write_refuses_it(
    env: Any, command: str, options: dict[str, Any]
) -> None:
    d = env.discord
    role = d.guild.role("GM")
    await seed_table(env, role.id)
    table, log = await snapshot(env)
    with slip_in_before_next_write(env, gm_role(None)):
        reply = await d.slash(command, user=d.named_gm, **options_for(d, options))
    assert reply.ephemeral and not reply.embeds, reply.text
    assert "GM" in reply.text
    after, after_log = await snapshot(env)
    assert after == gm_role(None)(table)[0]  # only the role is gone: the command wrote nothing
    new = len(after_log) - len(log)
    assert after_log[new:] == log
    assert [(e.action, e.actor_id) for e in after_log[:new]] == [("settings set", d.gm.id)]


@pytest.mark.parametrize(("command", "options"), GM_COMMANDS, ids=NAMES)
async def test_a_gm_role_given_just_before_the_write_allows_it(
    env: Any, command: str, options: dict[str, Any]
) -> None:
    d = env.discord
    role = d.guild.role("GM")
    await seed_table(env, None)
    with slip_in_before_next_write(env, gm_role(role.id)):
        reply = await d.slash(command, user=d.named_gm, **options_for(d, options))
    assert reply.ephemeral == (command in ANSWERS_THE_GM_ALONE) and reply.embeds, reply.text
    history = await env.store.history(d.table.id, limit=2)
    assert [(e.action, e.actor_id) for e in history] == [
        (command, d.named_gm.id),
        ("settings set", d.gm.id),
    ]


async def test_undo_decides_gm_from_the_table_it_loads(env: Any) -> None:
    d = env.discord
    role = d.guild.role("GM")
    await seed_table(env, role.id)
    await d.slash("clock round", user=d.gm)
    with slip_in_before_next_write(env, gm_role(None)):
        late = await d.slash("undo", user=d.named_gm)
    # No longer a GM: the latest change (the GM's clearing of the role) is not theirs to undo.
    assert late.ephemeral and "You can only undo your own changes" in late.text
    assert (await env.table()).settings.gm_role_id is None
    with slip_in_before_next_write(env, gm_role(role.id)):
        undone = await d.slash("undo", user=d.named_gm)  # a GM again: the latest change goes
    assert not undone.ephemeral, undone.text
    assert (await env.table()).settings.gm_role_id is None  # it undid the role's return


@contextlib.contextmanager
def counting_transactions(env: Any) -> Iterator[dict[str, int]]:
    """How many reading and writing transactions the bot's store begins meanwhile."""
    backend = env.store.backend
    counts = {"read": 0, "write": 0}
    with pytest.MonkeyPatch.context() as patch:
        for kind in counts:
            original = getattr(backend, kind)

            def counted(
                *args: Any, _kind: str = kind, _original: Any = original, **kwargs: Any
            ) -> Any:
                counts[_kind] += 1
                return _original(*args, **kwargs)

            patch.setattr(backend, kind, counted)
        yield counts


@pytest.mark.parametrize(("command", "options"), GM_COMMANDS, ids=NAMES)
async def test_a_change_is_one_transaction_and_no_other_read(
    env: Any, command: str, options: dict[str, Any]
) -> None:
    d = env.discord
    await seed_table(env, d.guild.role("GM").id)
    with counting_transactions(env) as counts:
        reply = await d.slash(command, user=d.named_gm, **options_for(d, options))
    assert reply.ephemeral == (command in ANSWERS_THE_GM_ALONE) and reply.embeds, reply.text
    assert counts == {"read": 0, "write": 1}
