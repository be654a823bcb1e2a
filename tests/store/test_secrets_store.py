"""Secret rolls in the store, on SQLite and PostgreSQL: kept by message, found again after the
store is reopened, revealed once."""

from __future__ import annotations

from store import Store
from store.roll_log import SecretRoll
from tests.store.conftest import Database

BIG = 2**63 - 1  # snowflakes need BIGINT


def roll(message_id: int = BIG - 5) -> SecretRoll:
    return SecretRoll(
        message_id=message_id,
        channel_id=BIG - 1,
        guild_id=BIG - 2,
        table_id=BIG - 3,
        roller_id=BIG - 4,
        roller_name="Pippa",
        label="Poison — ünïcode",
        what="WSR (Willpower save)",
        embeds=({"title": "Aria — Willpower Save Roll: ✅ Success", "fields": []},),
    )


async def test_a_secret_roll_is_kept_and_revealed_once(db: Database) -> None:
    async with Store.open(db.url) as store:
        assert await store.find_secret(1) is None
        await store.save_secret(roll())
        await store.save_secret(roll())  # a second delivery saves nothing more
    async with Store.open(db.url) as store:
        kept = await store.find_secret(BIG - 5)
        assert kept == roll()
        assert await store.mark_revealed(kept, 7) is True
        assert await store.mark_revealed(kept, 8) is False
        again = await store.find_secret(BIG - 5)
        assert again is not None and again.revealed_by == 7
