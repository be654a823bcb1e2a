-- As sqlite's change_stamps in number only: SQLite's change stamps serve the results
-- its quick reads keep (store/sqlite.py). PostgreSQL's reads are not kept (each is one
-- statement, one round trip), so it needs no stamps; this version keeps both dialects' numbers
-- in step.
SELECT 1;
