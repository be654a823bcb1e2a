-- What the GM keeps behind the screen, and what a fight keeps of its own:
-- a monster the GM made stays hidden (1) until it appears (it enters the initiative, is hit, or
-- the GM shows it); each character and monster has the bonus /init add adds to the channel's
-- initiative dice; a character kept out of the party (0: a familiar, an NPC) is left out of
-- party-wide commands while it stays trackable.
ALTER TABLE monsters ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1));
ALTER TABLE monsters ADD COLUMN init_bonus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE characters ADD COLUMN init_bonus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE characters ADD COLUMN in_party INTEGER NOT NULL DEFAULT 1 CHECK (in_party IN (0, 1));
