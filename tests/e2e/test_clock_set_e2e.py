"""`/clock set day: time:` through the real client and a local Discord: the GM sets the game
clock to a day and time of the game, the time up to it passing as `/clock pass` lets it;
`/history` and `/undo` cover it; it never goes back."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import fatigue_of, hero, refused, seed
from tests.localdiscord.world import speaking


async def test_the_gm_sets_the_evening_and_can_take_it_back(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=10, temp=3, temp_expires=0))
    assert "Only the GM" in await refused(env, "clock set", d.player, day=2, time="18:00")
    evening = await d.slash("clock set", user=d.gm, day=2, time="6 pm")
    assert not evening.ephemeral
    assert evening.embed["title"] == "🕰️ The clock is set to Day 2, 18:00"
    assert "Day 1, 00:00 → **Day 2, 18:00**" in evening.text
    assert (await env.table()).clock == (24 + 18) * 3600
    assert (await fatigue_of(env, "Aria")).temp == 0  # faded with the time, as a pass would
    later = await d.slash("clock set", user=d.gm, time="20:50")  # later the same day
    assert later.embed["title"] == "🕰️ The clock is set to Day 2, 20:50"
    back = await refused(env, "clock set", d.gm, day=2, time="19:00")
    assert "The clock is at Day 2, 20:50: it only moves forward" in back
    assert "isn't a time" in await refused(env, "clock set", d.gm, time="dusk")
    assert "Say when" in await refused(env, "clock set", d.gm)
    history = (await d.slash("history", user=d.player)).embed["description"].splitlines()
    assert history[0].endswith("· clock set · clock Day 2, 18:00 → Day 2, 20:50")
    undone = await d.slash("undo", user=d.gm)
    assert undone.embed["title"] == "↩️ Undone: clock set"
    assert (await env.table()).clock == (24 + 18) * 3600
    spanish = await d.slash("clock set", user=speaking(d.gm, "es-ES"), day=3)
    assert spanish.embed["title"] == "🕰️ El reloj se pone en Día 3, 18:00"


async def test_a_long_pass_reads_with_a_thousands_separator(env: Any) -> None:
    d = env.discord
    passed = await d.slash("clock pass", user=d.gm, minutes=1080)
    assert passed.embed["title"] == "1,080 minutes pass"
