"""`python -m bot import FILE --channel ID [--guild ID] [--replace]`: a Tablekeeper export into
a channel, from a shell (an admin restoring a backup, or moving many channels), with the checks
and the one transaction `/import` uses (`exports.reading`, `Store.import_channel`).

Into an empty channel at once. A channel with a table is left alone and what would be replaced
is said, unless `--replace` is given: then the table is replaced as one change ("import") that
a GM's `/undo` takes back. The change is logged as made from the command line (`/history`
and `/undo` say so in words), or as `--actor`'s, a Discord user id. The file's changes keep who
made them only if it is this bot's own export (signed with a key from its DISCORD_TOKEN, which
is read if set) and `--guild` is the server it came from; so do its rolls. Of its rolls, the
newest the roll log keeps (ROLL_LOG_KEEP) join the channel's.
"""

from __future__ import annotations

from pathlib import Path

from bot.settings import SettingsError, one_setting, redacted_url, roll_log_keep
from bot.tools import ToolError
from exports.document import export_key
from exports.reading import check_size, read_export
from rules.errors import RulesError
from store import Store
from store.errors import StoreError
from store.import_write import TableThere
from table.actions import COMMAND_LINE

DEFAULT_URL = "sqlite:///tablekeeper.db"


async def import_file(
    path: str,
    channel_id: int,
    guild_id: int | None = None,
    *,
    replace: bool = False,
    actor_id: int = COMMAND_LINE,
    database_url: str | None = None,
) -> str:
    """Import the export at `path` into `channel_id`; the line that says what was done."""
    url = database_url or one_setting("DATABASE_URL") or DEFAULT_URL
    secret = one_setting("DISCORD_TOKEN")
    try:
        rolls_keep = roll_log_keep()  # a channel's roll log keeps no more of the file's
    except SettingsError as error:
        raise ToolError(str(error)) from None
    file = Path(path)
    try:
        check_size(file.stat().st_size)
        key = None if secret is None else export_key(secret)
        imported = read_export(file.read_bytes(), guild_id, key)
    except OSError as error:
        raise ToolError(f"Could not read {path}: {error.strerror or error}") from None
    except RulesError as refused:
        raise ToolError(f"{path}: {refused}") from None
    try:
        async with Store.open(url) as store:
            try:
                done = await store.import_channel(
                    channel_id, guild_id, actor_id, imported, rolls_keep=rolls_keep
                )
            except TableThere as there:
                if not replace:
                    raise ToolError(
                        f"Channel {channel_id} has a table ({len(there.table.characters)}"
                        f" characters, {len(there.table.monsters)} monsters, {there.changes}"
                        " changes): nothing was imported. Run again with --replace to replace"
                        " it (a GM's /undo puts it back)"
                    ) from None
                done = await store.import_channel(
                    channel_id,
                    guild_id,
                    actor_id,
                    imported,
                    replace=(there.newest,),
                    rolls_keep=rolls_keep,
                )
    except RulesError as refused:
        raise ToolError(str(refused)) from None
    except StoreError as error:
        raise ToolError(f"{redacted_url(url)}: {error}") from None
    what = "replaced its table with" if done.replaced else "imported"
    left_out = (
        f" (and left out its {done.left_out} oldest, past the {done.table.settings.history_keep}"
        " the channel keeps)"
        if done.left_out
        else ""
    )
    rolls = f", {done.rolls} rolls" if done.rolls else ""
    if done.rolls_left_out:
        rolls += f" (and left out its {done.rolls_left_out} oldest, past the {rolls_keep} kept)"
    return (
        f"Channel {channel_id}: {what} {len(done.table.characters)} characters,"
        f" {len(done.table.monsters)} monsters{rolls} and {done.changes} changes from"
        f" {path}{left_out}"
    )
