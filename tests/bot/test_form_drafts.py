"""What a refused form keeps of what was typed (`cogs._forms.Drafts`): for its typist alone,
for the reply's 15 minutes, and at most DRAFTS_KEPT of them, the oldest dropped first."""

from __future__ import annotations

import pytest

from cogs import _forms
from cogs._forms import DRAFTS_KEPT, Drafts
from cogs._views import FORM_SECONDS


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(_forms.time, "monotonic", clock)
    return clock


def test_a_draft_is_kept_for_its_typist_for_fifteen_minutes(clock: Clock) -> None:
    drafts = Drafts()
    code = drafts.keep(1, {"name": "Bo", "level": "999"})
    assert drafts.find(code, 1) == {"name": "Bo", "level": "999"}
    assert drafts.find(code, 2) is None  # someone else's click: nothing of it
    clock.now += FORM_SECONDS
    assert drafts.find(code, 1) is not None  # the reply's 15 minutes, to the end
    clock.now += 1
    assert drafts.find(code, 1) is None


def test_drafts_are_bounded_and_the_oldest_go_first(clock: Clock) -> None:
    drafts = Drafts()
    codes = [drafts.keep(1, {"name": str(n)}) for n in range(DRAFTS_KEPT + 1)]
    assert drafts.find(codes[0], 1) is None
    assert drafts.find(codes[1], 1) == {"name": "1"}
    assert drafts.find(codes[-1], 1) == {"name": str(DRAFTS_KEPT)}
    assert len(set(codes)) == len(codes)


def test_an_expired_draft_is_dropped_when_the_next_is_kept(clock: Clock) -> None:
    drafts = Drafts()
    old = drafts.keep(1, {"name": "old"})
    clock.now += FORM_SECONDS + 1
    drafts.keep(1, {"name": "new"})
    assert old not in drafts._kept  # memory isn't held past its use
