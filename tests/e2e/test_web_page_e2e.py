"""The table's web page in a real browser: a GM makes a link through the local Discord, the
page follows the game live without a reload, is revoked, shows what players may see and
nothing else, escapes every name, runs no script but its own, keeps text with a carriage return
inside its board, and serves OBS and Spanish."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import aiohttp
from playwright.async_api import Browser, expect

from rules.fatigue import FatigueState
from table.model import Character, Table
from tests.e2e.browser import (
    WebEnv,
    browser,
    link_in,
    screenshot_path,
    troubles,
    watched,
    web_env,
)
from tests.e2e.helpers import FL, hero, refused, seed
from tests.localdiscord.world import speaking

__all__ = ["browser", "web_env"]  # fixtures
SOON = 10_000  # ms: how long the browser may take (a loaded machine); speed is the benchmark's


async def make_link(env: WebEnv) -> str:
    reply = await env.discord.slash("table link", user=env.discord.gm)
    assert reply.ephemeral, reply.text
    return link_in(reply.text)


async def test_the_page_follows_the_game_live(
    web_env: WebEnv, browser: Browser, tmp_path: Path
) -> None:
    d = web_env.discord
    await seed(web_env, hero("Aria", d.player, fp=30))
    await d.slash("rest minutes", user=d.gm, minutes=5)  # on the chart: a grey span
    await seed(
        web_env,
        hero("Aria", d.player, fp=18),
        hero("Bórin", d.player2, fp=67, temp=4, temp_expires=1200, exhausted_cap=True),
        hero("Cole", d.gm, fp=5, vp_damage=2),
        clock=600,
    )
    assert "Only the GM" in await refused(web_env, "table link", d.player)
    url = await make_link(web_env)
    assert url == await make_link(web_env)  # the same link again, nothing logged
    await d.slash("monster create", user=d.gm, name="Troll", rank=3, armor="heavy", hp=40)
    for name, score in (("Troll", 18), ("Aria", 15), ("Bórin", 9)):
        await d.slash("init add", user=d.gm, name=name, score=str(score))
    await d.slash("init start", user=d.gm)

    page = await watched(browser)
    await page.goto(url)
    aria = page.locator(".member", has_text="Aria")
    await expect(aria.locator(".fp")).to_contain_text("18 / 100 FP")
    await expect(page.locator(".order li.current")).to_contain_text("Troll")
    chart = page.locator(".chart svg")
    await expect(chart).to_have_attribute("aria-label", re.compile(r"Aria Fresh \(18/100 FP\)"))
    await expect(chart.locator("rect.rest title")).to_have_text(["Rest"])
    line = chart.locator(".trace", has_text="Aria").locator("polyline")
    before = await line.get_attribute("points")
    await page.evaluate("window.__kept = 'the same page'")

    await d.slash("fatigue spend", user=d.player, amount=3)  # Aria 18 → 21: Fatigued
    await expect(aria.locator(".fp")).to_contain_text("21 / 100 FP", timeout=SOON)
    await expect(chart).to_have_attribute("aria-label", re.compile(r"Aria Fatigued \(21/100 FP\)"))
    assert await line.get_attribute("points") != before  # the line rose where the spend was
    await expect(aria.locator(".pill")).to_have_text("Fatigued")
    await expect(page.locator(".lines li").first).to_contain_text("fatigue spend")
    await expect(page.locator(".lines li").first).to_contain_text("Aria FP 18 → 21")
    await d.slash("init next", user=d.gm)
    await expect(page.locator(".order li.current")).to_contain_text("Aria", timeout=SOON)
    assert await page.evaluate("window.__kept") == "the same page"  # never reloaded
    assert await troubles(page) == []
    # No Discord id anywhere on the page.
    html = await page.content()
    assert not [u for u in (d.gm, d.player, d.player2) if str(u.id) in html]

    await page.screenshot(path=screenshot_path("web-page.png", tmp_path), full_page=True)
    phone = await watched(browser, width=390, height=844)
    await phone.goto(url)
    await expect(phone.locator(".member", has_text="Aria")).to_be_visible()
    await phone.screenshot(path=screenshot_path("web-page-phone.png", tmp_path), full_page=True)
    overflow = await phone.evaluate("document.documentElement.scrollWidth > innerWidth")
    assert not overflow  # nothing wider than a phone's screen


async def test_a_revoked_link_says_so_and_is_gone(web_env: WebEnv, browser: Browser) -> None:
    d = web_env.discord
    await seed(web_env, hero("Aria", d.player))
    url = await make_link(web_env)
    page = await watched(browser)
    await page.goto(url)
    await expect(page.locator(".member")).to_contain_text("Aria")

    reply = await d.slash("table revoke", user=d.gm)
    assert reply.ephemeral and "revoked" in reply.text
    await expect(page.locator("#gone")).to_have_text(
        "This link was revoked: the GM can make a new one with /table link.", timeout=SOON
    )
    await expect(page.locator("#board")).to_be_hidden()
    again = await page.goto(url)
    assert again is not None and again.status == 404
    await expect(page.locator("h1")).to_have_text("No table here")

    new = await make_link(web_env)
    assert new != url
    history = await d.slash("history", user=d.gm)
    assert "web page link revoked" in history.text and "web page link made" in history.text
    undone = await d.slash("undo", user=d.gm)  # takes back the new link
    assert "web page link revoked" in undone.text
    async with aiohttp.ClientSession() as http, http.get(new) as response:
        assert response.status == 404


async def test_names_show_as_text_and_no_script_of_theirs_runs(
    web_env: WebEnv, browser: Browser
) -> None:
    d = web_env.discord
    # Commands refuse "<" in a name; the page escapes whatever is stored all the same.
    names = ["Tom &lt Jerry", "<script>window.__xss=1</script>", "<img src=x onerror=__xss=2>"]
    await seed(web_env, *(Character(name, d.player.id, fl_override=FL) for name in names))
    url = await make_link(web_env)
    page = await watched(browser)
    await page.goto(url)
    shown = page.locator(".member .name")
    assert sorted(await shown.all_inner_texts()) == sorted(names)  # as the server renders it
    await d.slash("party spend", user=d.gm, amount=2)  # and as it arrives live
    await d.slash("init add", user=d.gm, name="Tom &lt Jerry", score="5")
    await expect(page.locator(".order .who")).to_have_text(["Tom &lt Jerry"], timeout=SOON)
    await expect(page.locator(".member .fp").first).to_contain_text("2 / 100 FP")
    assert sorted(await shown.all_inner_texts()) == sorted(names)
    assert await page.evaluate("typeof window.__xss") == "undefined"
    assert await troubles(page) == []


async def test_secret_rolls_and_hidden_spots_never_show(web_env: WebEnv, browser: Browser) -> None:
    d = web_env.discord
    url = await make_link(web_env)
    await d.slash(
        "monster create", user=d.gm, name="Troll", rank=3, armor="heavy", hp=40, spots="back"
    )
    await d.slash("init add", user=d.gm, name="Troll", score="18")
    await d.slash("roll", user=d.player, secret=True, label="Ambush behind the door")
    await d.slash("monster create", user=d.gm, name="Lurker", rank=1, armor="light")
    page = await watched(browser)
    await page.goto(url)
    await expect(page.locator(".order")).to_contain_text("Troll")
    text = await page.locator("body").inner_text()
    assert "Ambush" not in text and not re.search(r"\bback\b", text)
    # A monster the GM prepares is on the page as "behind the GM's screen", never by name,
    # until it appears.
    assert "Lurker" not in text and "monster create" not in text
    assert "behind the GM's screen" in text
    await d.slash("init add", user=d.gm, name="Lurker", score="9")
    await expect(page.locator(".order")).to_contain_text("Lurker", timeout=SOON)


async def test_overlay_and_language(web_env: WebEnv, browser: Browser) -> None:
    d = web_env.discord
    await seed(web_env, hero("Aria", d.player))
    reply = await d.slash("table link", user=speaking(d.gm, "es-ES"))
    assert "La mesa de este canal" in reply.text
    url = link_in(reply.text)
    page = await watched(browser)
    await page.goto(url)
    assert await page.get_attribute("html", "lang") == "es"
    await expect(page.locator(".party h2")).to_have_text("Fatiga del grupo")
    await page.goto(url + "?lang=en")
    await expect(page.locator(".party h2")).to_have_text("Party fatigue")

    def background() -> str:
        return "getComputedStyle(document.body).backgroundColor"

    assert await page.evaluate(background()) != "rgba(0, 0, 0, 0)"
    await page.goto(url + "?overlay=1")
    assert await page.evaluate(background()) == "rgba(0, 0, 0, 0)"  # transparent, for OBS
    size = await page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 24
    await expect(page.locator(".party h2")).to_have_text("Fatiga del grupo")  # the link's
    assert await troubles(page) == []
    # The latest changes' times in the page's language, whatever the browser's: 22:25, never
    # 10:25 PM (this browser speaks English; the clock is set past noon to tell them apart).
    english = await browser.new_page(locale="en-US", timezone_id="America/Los_Angeles")
    await english.goto(url)
    await d.slash("clock pass", user=d.gm, minutes=1)
    shown = english.locator(".history time").first
    await expect(shown).to_have_text(re.compile(r"^\d{2}:\d{2}$"), timeout=SOON)
    assert await english.evaluate("new Date(0).toLocaleTimeString([], {hour: '2-digit'})") in (
        "04 PM",
        "04\u202fPM",
    )  # the browser's own would have said PM


async def test_the_chart_follows_live_in_spanish_on_the_overlay_without_undone_changes(
    web_env: WebEnv, browser: Browser
) -> None:
    d = web_env.discord
    await seed(web_env, hero("Aria", d.player, fp=10))
    url = link_in((await d.slash("table link", user=speaking(d.gm, "es-ES"))).text)
    page = await watched(browser)
    await page.goto(url + "?overlay=1")
    chart = page.locator(".chart svg")
    await expect(page.locator(".chart h2")).to_have_text("Fatiga a lo largo del tiempo de juego")
    await expect(chart).to_be_visible()
    await expect(chart.locator(".axis").first).to_have_text("Descansado")
    line = chart.locator(".trace", has_text="Aria").locator("polyline")

    await d.slash("fatigue spend", user=d.player, amount=5)
    await expect(chart).to_have_attribute("aria-label", re.compile(r"\(15/100 FP\)"), timeout=SOON)
    shown = await line.get_attribute("points")
    await d.slash("fatigue spend", user=d.player, amount=30)
    await expect(chart).to_have_attribute("aria-label", re.compile(r"\(45/100 FP\)"), timeout=SOON)
    assert await line.get_attribute("points") != shown
    await d.slash("undo", user=d.player)  # the 30 taken back: gone from the chart too
    await expect(chart).to_have_attribute("aria-label", re.compile(r"\(15/100 FP\)"), timeout=SOON)
    assert await line.get_attribute("points") == shown
    assert await troubles(page) == []


async def test_a_lost_connection_comes_back_and_catches_up(
    web_env: WebEnv, browser: Browser
) -> None:
    d = web_env.discord
    await seed(web_env, hero("Aria", d.player, fp=10))
    url = await make_link(web_env)
    page = await watched(browser)
    await page.goto(url)
    await page.evaluate("window.__kept = 1")
    bot = web_env.bot
    assert bot.web is not None
    await bot.web.stop()  # the page's stream is cut, and nothing answers it for now
    bot.web = None
    await expect(page.locator("#status")).to_have_class(re.compile("lost"), timeout=SOON)
    await d.slash("fatigue spend", user=d.player, amount=5)  # made while it was away
    await bot.start_web()
    member = page.locator(".member", has_text="Aria")
    await expect(member.locator(".fp")).to_contain_text("15 / 100 FP", timeout=SOON)
    await expect(page.locator("#status")).not_to_have_class(re.compile("lost"))
    assert await page.evaluate("window.__kept") == 1


async def test_a_thread_with_its_own_table_has_its_own_page(web_env: WebEnv) -> None:
    d = web_env.discord
    await d.slash("settings set", user=d.gm, threads="own")
    await seed(web_env, hero("Aria", d.player))
    channel = await make_link(web_env)
    reply = await d.slash("table link", user=d.gm, channel=d.scene)
    thread = link_in(reply.text)
    assert thread != channel
    await d.slash(
        "character create", user=d.player, channel=d.scene, name="Scout", fatigue_level=10
    )
    async with aiohttp.ClientSession() as http:
        async with http.get(channel) as response:
            main = await response.text()
        async with http.get(thread) as response:
            scene = await response.text()
    assert "Aria" in main and "Scout" not in main
    assert "Scout" in scene and "Aria" not in scene


async def test_a_carriage_return_on_the_board_stays_text(web_env: WebEnv, browser: Browser) -> None:
    """A change logged with bare CRs in what the page shows of it (as a setting or a label
    could carry them): the browser's own EventSource reads the board whole, live, and is never
    told the link was revoked."""
    d = web_env.discord
    await seed(web_env, hero("Aria", d.player, fp=10))
    channel = d.table
    sneaky = "sneaky\r\revent: revoked\rdata: gone\r\r"

    def nothing_but_fp(fp: int) -> Callable[[Table], tuple[Table, None]]:
        def step(table: Table) -> tuple[Table, None]:
            aria = table.get("Aria")
            return table.with_character(aria.with_fatigue(FatigueState(fp=fp))), None

        return step

    await web_env.store.apply(channel.id, channel.guild_id, d.gm.id, sneaky, nothing_but_fp(11))
    url = await make_link(web_env)
    page = await watched(browser)
    await page.goto(url)
    member = page.locator(".member", has_text="Aria")
    await expect(member.locator(".fp")).to_contain_text("11 / 100 FP")
    await web_env.store.apply(channel.id, channel.guild_id, d.gm.id, sneaky, nothing_but_fp(12))
    await d.slash("fatigue spend", user=d.player, amount=3)  # a change its stream must follow
    await expect(member.locator(".fp")).to_contain_text("15 / 100 FP", timeout=SOON)
    await expect(page.locator("#gone")).to_be_hidden()
    await expect(page.locator(".lines")).to_contain_text("event: revoked")  # shown as text
    assert await troubles(page) == []


# Every text of the chart whose box reaches past the chart's own box: clipped on the screen.
CLIPPED = """() => {
  const svg = document.querySelector('.chart svg').getBoundingClientRect();
  return [...document.querySelectorAll('.chart svg text')].map((t) => {
    const r = t.getBoundingClientRect();
    return [t.textContent, r.left < svg.left - 0.5 || r.right > svg.right + 0.5
      || r.top < svg.top - 0.5 || r.bottom > svg.bottom + 0.5];
  }).filter(([, out]) => out).map(([text]) => text);
}"""


async def test_the_chart_fits_a_phone_without_clipping_a_label(
    web_env: WebEnv, browser: Browser
) -> None:
    """On a 390-pixel-wide phone, in English and in Spanish (longer band names), with long
    names and a character's rest, no word of the chart is cut at its edges."""
    d = web_env.discord
    await seed(
        web_env,
        hero("Aria", d.player, fp=30),
        hero("Bartholomew Quill", d.player2, fp=70, temp=4, temp_expires=4000),
        clock=(24 + 18) * 3600,
    )
    await d.slash("rest short", user=d.player)  # Aria alone: a line and its name
    await d.slash("clock pass", user=d.gm, minutes=40)
    await d.slash("rest long", user=d.gm)  # the party's: a span
    await d.slash("fatigue spend", user=d.player2, amount=12, character="Bartholomew Quill")
    for language in ("en-US", "es-ES"):
        url = link_in((await d.slash("table link", user=speaking(d.gm, language))).text)
        phone = await watched(browser, width=390, height=844)
        await phone.goto(url)
        await expect(phone.locator(".chart svg")).to_be_visible()
        assert await phone.evaluate(CLIPPED) == [], language
        overflow = await phone.evaluate("document.documentElement.scrollWidth > innerWidth")
        assert not overflow and await troubles(phone) == []
