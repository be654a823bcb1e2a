-- A character's own TSR and WSR special modifiers, as sqlite/V4__special_modifiers.sql.
-- Characters made before they existed have none: 0.

ALTER TABLE characters ADD COLUMN special_tsr INTEGER NOT NULL DEFAULT 0
    CHECK (special_tsr BETWEEN -100 AND 100);

ALTER TABLE characters ADD COLUMN special_wsr INTEGER NOT NULL DEFAULT 0
    CHECK (special_wsr BETWEEN -100 AND 100);
