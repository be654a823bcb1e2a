"""An export that would be over Discord's upload limit leaves out its oldest rolls, as few as
it must, and stays the bot's own signed export; one too large without any is not made."""

from __future__ import annotations

import json

from exports.document import export_bytes, export_document, fit, signed, vouches
from table.model import Table
from tests.store.importing import EXPORTED_AT, KEY, ROLLS

DOCUMENT = export_document(Table(1, guild_id=2), [], EXPORTED_AT, ROLLS)
WHOLE = export_bytes(signed(DOCUMENT, KEY))


def test_a_document_that_fits_is_sent_whole() -> None:
    assert fit(DOCUMENT, KEY, len(WHOLE)) == (WHOLE, 0)


def test_the_fewest_oldest_rolls_are_left_out() -> None:
    for most in range(len(WHOLE) - 1, len(WHOLE) - 1500, -97):
        fitted = fit(DOCUMENT, KEY, most)
        assert fitted is not None
        data, left_out = fitted
        assert 0 < left_out < len(ROLLS) and len(data) <= most
        document = json.loads(data)
        assert document["rolls"] == DOCUMENT["rolls"][left_out:]  # the newest stay
        assert vouches(document, KEY)
        one_more = {**DOCUMENT, "rolls": DOCUMENT["rolls"][left_out - 1 :]}
        assert len(export_bytes(signed(one_more, KEY))) > most  # no roll left out needlessly


def test_a_document_too_large_without_rolls_is_none() -> None:
    bare = len(export_bytes(signed({**DOCUMENT, "rolls": []}, KEY)))
    assert fit(DOCUMENT, KEY, bare)[1] == len(ROLLS)  # type: ignore[index]
    assert fit(DOCUMENT, KEY, bare - 1) is None
