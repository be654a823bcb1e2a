"""Which parts of a channel's table a command reads besides the channel's own row (its clock,
settings and server's settings, always read): a command never pays to read what it doesn't
show or change. A Table read without a part simply has none of it."""

CHARACTERS, MONSTERS, INITIATIVE = "characters", "monsters", "initiative"
PARTS = (CHARACTERS, MONSTERS, INITIATIVE)
Parts = frozenset[str]

EVERYTHING: Parts = frozenset(PARTS)
# Most commands need the party, the bestiary's commands their monsters, the settings nothing
# more. The turn order goes with both (it lists characters and monsters), so a change to
# either sees it.
PARTY: Parts = frozenset({CHARACTERS, INITIATIVE})
BESTIARY: Parts = frozenset({MONSTERS, INITIATIVE})
CHANNEL_ONLY: Parts = frozenset()
