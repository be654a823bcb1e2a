-- Every change is now one transaction that takes its channel's advisory lock at BEGIN, reads,
-- writes and commits: nothing writes in one statement guarded by V12's functions any more, so
-- they go. (SQLite's version of this migration drops V11's change stamps, which PostgreSQL
-- never had.)

DROP FUNCTION tk_unchanged(BIGINT, BIGINT, BIGINT, TEXT);
DROP FUNCTION tk_server_version(BIGINT);
