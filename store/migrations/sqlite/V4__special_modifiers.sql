-- A character's own TSR and WSR special modifiers (a ring, a blessing, a trained resistance),
-- used by every save it makes. Characters made before they existed have none: 0.

ALTER TABLE characters ADD COLUMN special_tsr INTEGER NOT NULL DEFAULT 0
    CHECK (special_tsr BETWEEN -100 AND 100);

ALTER TABLE characters ADD COLUMN special_wsr INTEGER NOT NULL DEFAULT 0
    CHECK (special_wsr BETWEEN -100 AND 100);
