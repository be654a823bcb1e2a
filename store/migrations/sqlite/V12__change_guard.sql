-- As postgres's change_guard in number only: PostgreSQL writes a change in one statement
-- guarded by its `tk_unchanged` function. SQLite runs each change whole on its connection's
-- thread, under its write lock: nothing to guard. This version keeps both dialects' numbers
-- in step.
SELECT 1;
