"""`python -m tests.sandbox` with piped stdin, and the reply-to-text rendering it prints."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

from tests.e2e.test_operations_process import free_port
from tests.localdiscord.render_text import render_reply
from tests.localdiscord.reply import Reply

REPO = Path(__file__).resolve().parents[2]
SETTINGS = ("DISCORD_TOKEN", "DISCORD_API_BASE", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL")
PROMPT = re.compile(r"^\S+ \(\w+\) #[\w-]+> ", re.MULTILINE)  # "pippa (player) #table> "
SCRIPT = """\
/character create name:Aria level:5 wisdom:3
/save wsr vs:7
/sav wsr
/save party kind:wsr vs:7
:as gm
/save party kind:wsr vs:7
/character remove name:Aria
:click Cancel
:click Remove
:quit
/roll
"""


def sandbox(stdin: str, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    # No token and no Discord settings: the sandbox must need none of them.
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "tests.sandbox", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
        check=False,
    )
    return done, time.monotonic() - started


def after(transcript: str, line: str) -> str:
    """The output that follows an echoed input line, up to the next prompt."""
    rest = transcript.split(line + "\n", 1)[1]
    return PROMPT.split(rest, 1)[0]


def test_piped_session_transcript() -> None:
    done, seconds = sandbox(SCRIPT)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert seconds < 15, f"took {seconds:.1f} s"
    # discord.py's logs stay out of the way (a skipped, half-written cog may be named).
    noise = [line for line in done.stderr.splitlines() if not line.startswith("(skipped ")]
    assert noise == []

    banner = out.split("\n", 3)
    assert "/character" in banner[0] and "/save" in banner[0]
    assert "You are pippa (player) in #table" in out

    created = after(out, "pippa (player) #table> /character create name:Aria level:5 wisdom:3")
    assert "== Created Aria ==" in created
    assert "@pippa" in created  # the owner's mention, shown by name

    # WSR bonus: level 5 gives +25, Wisdom +3: +28. Attack Level 7: difficulty 50 + 5·7 = 85.
    save = after(out, "pippa (player) #table> /save wsr vs:7")
    assert save.startswith("== Aria") and "Willpower Save Roll" in save.splitlines()[0]
    assert "+28" in save and "85" in save

    typo = after(out, "pippa (player) #table> /sav wsr")
    assert typo.startswith("! Unknown command /sav. Did you mean ") and "/save" in typo

    refused = after(out, "pippa (player) #table> /save party kind:wsr vs:7")
    assert "Only the GM" in refused

    assert "Now typing as gandra (gm)." in out
    allowed = after(out, "gandra (gm) #table> /save party kind:wsr vs:7")
    assert "Only the GM" not in allowed and "Aria" in allowed

    prompt = after(out, "gandra (gm) #table> /character remove name:Aria")
    assert prompt.startswith("(only you can see this)\n== Remove Aria? ==")
    assert "[Remove] [Cancel]" in prompt
    cancelled = after(out, "gandra (gm) #table> :click Cancel")
    assert "Aria" in cancelled and "[Remove]" not in cancelled  # the prompt lost its buttons
    gone = after(out, "gandra (gm) #table> :click Remove")
    assert gone.startswith("! No clickable 'Remove'")

    assert "/roll" not in out.split(":quit", 1)[1]  # nothing runs after :quit


def test_help_and_mistakes_do_not_end_the_session() -> None:
    lines = [":help", ":help /save wsr", ":as nobody", ":click Remove", "hello", "/save wsr vs:x"]
    done, _ = sandbox("\n".join(lines) + "\n", "--as", "player2")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "You are perrin (player2)" in out
    listing = after(out, "perrin (player2) #table> :help")
    assert ":click LABEL" in listing and "/save wsr - " in listing and "/help - " in listing
    options = after(out, "perrin (player2) #table> :help /save wsr")
    assert "  vs (integer 1..1000): " in options
    assert "! Who? One of: gm, player, player2" in out
    assert "! No reply with buttons yet" in out
    assert "! A command starts with /" in out
    assert "! Option 'vs' needs an integer, not 'x'" in out


def test_db_keeps_the_table_between_runs(tmp_path: Path) -> None:
    db = tmp_path / "kept.db"
    first, _ = sandbox("/character create name:Bo level:2\n", "--db", str(db))
    assert first.returncode == 0, first.stderr
    second, _ = sandbox("/character list\n", "--db", str(db))
    assert second.returncode == 0, second.stderr
    assert "**Bo**" in after(second.stdout, "pippa (player) #table> /character list")


def test_a_second_run_on_a_kept_db_applies_its_commands(tmp_path: Path) -> None:
    """Each run's interactions are new snowflakes: a kept database never takes the second
    run's commands for the first run's, as it would with ids counted the same way each run."""
    db = tmp_path / "kept.db"
    script = "/character create name:Bo level:2 fatigue_level:7\n/fatigue spend amount:3\n"
    first, _ = sandbox(script, "--db", str(db))
    assert first.returncode == 0, first.stderr
    second, _ = sandbox("/fatigue spend amount:4\n/character create name:Cy\n", "--db", str(db))
    assert second.returncode == 0, second.stderr
    assert "Already done" not in second.stdout
    assert "FP 3 → 7" in after(second.stdout, "pippa (player) #table> /fatigue spend amount:4")
    assert "== Created Cy ==" in after(
        second.stdout, "pippa (player) #table> /character create name:Cy"
    )


def test_an_attachment_shows_its_name_and_size() -> None:
    done, _ = sandbox("/character create name:Bo level:2\n:as gm\n/export\n")
    assert done.returncode == 0, done.stderr
    exported = after(done.stdout, "gandra (gm) #table> /export")
    found = re.search(r"^📎 (\S+\.json) \(([\d,]+) bytes\)$", exported, re.MULTILINE)
    assert found, exported
    assert int(found[2].replace(",", "")) > 100  # the table and its history, not an empty file


def test_a_charts_alt_text_shows_with_it() -> None:
    done, _ = sandbox("/character create name:Bo level:2 fatigue_level:7\n/party chart\n")
    assert done.returncode == 0, done.stderr
    chart = after(done.stdout, "pippa (player) #table> /party chart")
    found = re.search(r"^📎 (\S+\.png) \([\d,]+ bytes\) · alt: (.+)$", chart, re.MULTILINE)
    assert found, chart
    assert "Bo Fresh (0/35 FP)" in found[2]  # the picture said in words


def test_render_reply_shows_what_a_user_sees() -> None:
    reply = Reply(
        1,
        4,
        message_id=2,
        content="Hello <@7> in <#8>",
        embeds=(
            {
                "title": "Title",
                "description": "Body",
                "fields": [{"name": "A", "value": "one\ntwo"}, {"name": "B", "value": "3"}],
                "footer": {"text": "Foot"},
            },
        ),
        components=(
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": "Go", "custom_id": "go"},
                    {"type": 2, "style": 2, "label": "Stop", "custom_id": "s", "disabled": True},
                ],
            },
        ),
        ephemeral=True,
    )
    assert render_reply(reply, {7: "pippa", 8: "table"}).splitlines() == [
        "(only you can see this)",
        "Hello @pippa in #table",
        "== Title ==",
        "Body",
        "A: one",
        "  two",
        "B: 3",
        "-- Foot",
        "[Go] [Stop (disabled)]",
    ]
    assert render_reply(reply).splitlines()[1] == "Hello <@7> in <#8>"  # unknown ids stay


def test_render_reply_shows_each_attachment_with_its_alt_text() -> None:
    chart = {"filename": "fatigue.png", "size": 20480, "description": "Aria's FP over 3 rounds"}
    data = {"filename": "table.json", "size": 512}
    reply = Reply(1, 4, message_id=2, content="Files", attachments=(chart, data))
    assert render_reply(reply).splitlines() == [
        "Files",
        "📎 fatigue.png (20,480 bytes) · alt: Aria's FP over 3 rounds",
        "📎 table.json (512 bytes)",
    ]


def test_render_reply_choices_and_followups() -> None:
    choices = Reply(1, 8, choices=({"name": "Aria", "value": "aria"},))
    assert render_reply(choices) == "(choices) Aria ('aria')"
    followup = Reply(1, 4, message_id=3, content="later")
    first = Reply(1, 4, message_id=2, content="first", followups=(followup,))
    assert render_reply(first) == "first\nlater"


TABLE_PLAY = """\
/character create name:Aria level:5 wisdom:10 kin_wsr:5 fatigue_level:7
/roll secret:True label:Sneak attack
:as gm
:click See the roll (GM)
:click Reveal to the channel
/monster create name:Troll rank:3 armor:heavy spots:back
/init add name:Troll score:18
/init add name:Aria score:15
/init start
/init next
:click E
/init next
"""


def test_a_secret_roll_and_a_round_of_initiative() -> None:
    done, _ = sandbox(TABLE_PLAY)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    secret = after(out, "pippa (player) #table> /roll secret:True label:Sneak attack")
    notice, mine = secret.split("(only you can see this)\n")
    assert "Pippa made a secret d100 roll" in notice and "[See the roll (GM)]" in notice
    assert "Your secret d100 roll" in mine and "== d100" in mine
    peek = after(out, "gandra (gm) #table> :click See the roll (GM)")
    assert peek.startswith("(only you can see this)") and "[Reveal to the channel]" in peek
    revealed = after(out, "gandra (gm) #table> :click Reveal to the channel")
    assert "revealed in the channel" in revealed

    started = after(out, "gandra (gm) #table> /init start")
    assert "Round 1 · Troll's turn" in started
    troll_done = after(out, "gandra (gm) #table> /init next")
    assert "Aria's turn" in troll_done and "[N] [NE] [E] [SE] [S] [SW] [W] [NW]" in troll_done
    assert "Troll now faces E" in after(out, "gandra (gm) #table> :click E")
    new_round = out.rsplit("gandra (gm) #table> /init next\n", 1)[1]
    assert "Round 2 begins · Troll's turn" in new_round
    assert "Day 1, 00:00 → **Day 1, 00:01** (+1 min)" in new_round


def test_the_sandbox_speaks_the_client_language_it_is_given() -> None:
    """`--lang es-ES` (or `:lang`) sends the typing client's locale: the bot answers in it."""
    script = "/save wsr level:5 vs:7\n:lang fr\n/save wsr level:5 vs:7\n:lang nonsense!\n"
    done, _seconds = sandbox(script, "--lang", "es-ES")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    spanish, french = out.split("/save wsr level:5 vs:7\n")[1:3]
    assert "Tirada de Salvación de Voluntad" in spanish and "→ 85" in spanish
    assert "Willpower Save Roll" in french and "→ 85" in french  # unsupported: English
    assert "Which language?" in out.split(":lang nonsense!\n")[1]


def test_a_file_is_attached_by_its_path_and_a_replys_file_is_saved() -> None:
    """`/import file:PATH` attaches the file there, as a user picks one to upload; each file a
    reply carries is saved where a later command can attach it."""
    export = REPO / "tests/store/exports/v1-fc21989.json"
    script = f":as gm\n/import file:{export}\n/export\n/import file:no/such.json\n"
    done, _ = sandbox(script)
    assert done.returncode == 0, done.stderr
    imported = after(done.stdout, f"gandra (gm) #table> /import file:{export}")
    assert imported.splitlines()[1].startswith("Imported into this channel:"), imported
    exported = after(done.stdout, "gandra (gm) #table> /export")
    saved = re.search(r"^\(saved as (\S+\.json)\)$", exported, re.MULTILINE)
    assert saved, exported
    assert not Path(saved[1]).exists()  # the scratch folder goes with the session
    missing = after(done.stdout, "gandra (gm) #table> /import file:no/such.json")
    assert missing.startswith("! Could not read no/such.json: No such file"), missing


async def test_the_web_page_served_from_the_sandbox_follows_its_table() -> None:
    """`--web PORT`: /table link gives a link the page answers, and a change shows on it."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "tests.sandbox", "--web", str(port), "--as", "gm"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        cwd=REPO,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"/character create name:Aria level:5 fatigue_level:7\n/table link\n")
        link = None
        while link is None:
            line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
            assert line, "the sandbox ended before giving a link"
            found = re.search(rf"http://127\.0\.0\.1:{port}/t/[\w-]+", line)
            link = found and found.group(0)
        async with aiohttp.ClientSession() as http:
            async with http.get(link) as page:
                assert page.status == 200 and "Aria" in await page.text()
            async with http.get(link + "/live") as stream:
                await asyncio.wait_for(stream.content.readuntil(b'class="fp">0<'), 10)
                process.stdin.write(b"/fatigue spend amount:4 character:Aria\n")
                await asyncio.wait_for(stream.content.readuntil(b'class="fp">4<'), 10)
        process.stdin.write(b":quit\n")
        await process.stdin.drain()
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def test_a_kept_table_keeps_its_files_and_each_picture_has_its_own(tmp_path: Path) -> None:
    """With `--db`, the files replies carried are kept beside it, as the table is; two
    pictures of one kind are two files, the second never over the first; the opening lines
    name everyone who can type, by the names replies show."""
    db = tmp_path / "kept.db"
    script = (
        ":as gm\n/monster create name:Imp rank:1 armor:light\n"
        "/monster show name:Imp\n/monster face name:Imp facing:E\n"
    )
    done, _ = sandbox(script, "--db", str(db))
    assert done.returncode == 0, done.stderr
    saved = re.findall(r"^\(saved as (\S+\.png)\)$", done.stdout, re.MULTILINE)
    assert len(saved) == 2 and len(set(saved)) == 2, saved
    assert all(Path(path).parent == tmp_path / "kept.db-files" for path in saved)
    assert all(Path(path).exists() for path in saved)  # kept after the session
    assert Path(saved[0]).read_bytes() != Path(saved[1]).read_bytes()  # facing N, then E
    cast = next(line for line in done.stdout.splitlines() if line.startswith("At the table:"))
    for name in ("gandra (gm)", "pippa (player)", "perrin (player2)", "(owner)", "(named_gm)"):
        assert name in cast, cast
