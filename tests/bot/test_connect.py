"""Logging in at start-up (`bot.connect`): tried again while Discord can't be reached, given up
at once on an answer that isn't Discord's, and ended by a stop asked for meanwhile."""

from __future__ import annotations

import asyncio
import types
from typing import Any

import aiohttp
import discord
import pytest

from bot.connect import (
    DiscordRefused,
    DiscordUnreachable,
    StoppedStarting,
    log_in_with_retry,
    unless_stopped,
)

pytestmark = pytest.mark.asyncio


class FakeHttp:
    def __init__(self) -> None:
        self.closed = 0
        self.connector: Any = None

    async def close(self) -> None:
        self.closed += 1


class Attempts:
    """A login whose attempts fail with the given errors in turn (None: it succeeds)."""

    def __init__(self, *outcomes: BaseException | None) -> None:
        self.outcomes = list(outcomes)
        self.made = 0

    async def __call__(self) -> None:
        self.made += 1
        outcome = self.outcomes.pop(0)
        if outcome is not None:
            raise outcome


def http_error(status: int, reason: str) -> discord.HTTPException:
    return discord.HTTPException(types.SimpleNamespace(status=status, reason=reason), "")


async def log_in(
    login: Any, retry_for: float = 10.0, stopping: asyncio.Event | None = None, **kw: Any
) -> FakeHttp:
    http = FakeHttp()
    await log_in_with_retry(
        login,
        http,  # type: ignore[arg-type]
        retry_for,
        stopping or asyncio.Event(),
        logged_in=kw.get("logged_in", lambda: False),
    )
    return http


async def test_an_unreachable_discord_is_tried_again_until_it_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(asyncio, "sleep", no_wait)
    login = Attempts(aiohttp.ClientConnectionError("refused"), OSError("no route"), None)
    http = await log_in(login)
    assert login.made == 3 and waits == [1.0, 2.0]  # backing off
    assert http.closed == 2  # each failed attempt's session closed, for a fresh one


async def test_past_the_window_it_gives_up_in_one_line() -> None:
    login = Attempts(aiohttp.ClientConnectionError("refused"))
    with pytest.raises(DiscordUnreachable, match=r"refused\): gave up after 1 attempts in 0 s"):
        await log_in(login, retry_for=0)


@pytest.mark.parametrize("status, reason", [(404, "Not Found"), (403, "Forbidden")])
async def test_an_answer_that_is_not_discords_is_not_tried_again(status: int, reason: str) -> None:
    login = Attempts(http_error(status, reason), None)
    with pytest.raises(DiscordRefused, match=f"failed with {status} {reason}") as raised:
        await log_in(login)
    assert login.made == 1
    if discord.http.Route.BASE == "https://discord.com/api/v10":
        assert "DISCORD_API_BASE" not in str(raised.value)  # nothing the admin set to check


async def test_a_login_answer_discord_py_cant_read_is_refused_unless_past_it() -> None:
    login = Attempts(KeyError("username"))
    with pytest.raises(DiscordRefused, match="got an answer that isn't Discord's"):
        await log_in(login)
    # Once the login's answer was taken, such an error is the bot's own: raised as it is.
    with pytest.raises(KeyError):
        await log_in(Attempts(KeyError("username")), logged_in=lambda: True)


async def test_a_stop_ends_the_wait_between_attempts() -> None:
    stopping = asyncio.Event()
    login = Attempts(aiohttp.ClientConnectionError("refused"), None)
    trying = asyncio.ensure_future(log_in(login, retry_for=600, stopping=stopping))
    while login.made == 0:
        await asyncio.sleep(0)
    await asyncio.sleep(0.05)  # in its 1 s wait now
    stopping.set()
    with pytest.raises(StoppedStarting):
        await asyncio.wait_for(trying, 0.5)  # not the rest of the second
    assert login.made == 1


async def test_a_stop_cancels_an_attempt_that_hangs() -> None:
    stopping = asyncio.Event()
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def hangs() -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    trying = asyncio.ensure_future(unless_stopped(hangs(), stopping))
    await started.wait()
    stopping.set()
    with pytest.raises(StoppedStarting):
        await trying
    assert cancelled.is_set()  # its cleanup ran before the stop was reported


async def test_without_a_stop_the_work_s_result_or_error_comes_through() -> None:
    async def answer() -> int:
        return 42

    async def fails() -> None:
        raise OSError("down")

    assert await unless_stopped(answer(), asyncio.Event()) == 42
    with pytest.raises(OSError, match="down"):
        await unless_stopped(fails(), asyncio.Event())
