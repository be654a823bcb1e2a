-- A change in one or two round trips instead of four (store/store.py, `Store.apply`): the
-- channel is read in one statement, without a transaction (or the table this process's last
-- change left is used), and its change is written in one statement that first calls this
-- guard. The guard takes the channel's lock (the one a change in a transaction holds from its
-- BEGIN: the two kinds wait for each other) and then checks, in a snapshot of its own taken
-- after the lock, that the channel's newest event is still the one the change's table was
-- read with (every change to a channel's table logs an event), and that its server's settings
-- row reads as it did then (a server's settings are changed from any of its channels). If
-- not, it raises TK001 and the statement writes nothing; the store reads and tries again.
CREATE FUNCTION tk_server_version(guild BIGINT) RETURNS TEXT
LANGUAGE sql STABLE AS $$
    SELECT md5(CAST(ROW(g.*) AS TEXT)) FROM guild_settings AS g WHERE g.guild_id = guild
$$;

CREATE FUNCTION tk_unchanged(channel BIGINT, newest BIGINT, guild BIGINT, server TEXT)
RETURNS BIGINT
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(channel);
    IF (SELECT id FROM events WHERE channel_id = channel ORDER BY id DESC LIMIT 1)
            IS DISTINCT FROM newest
        OR tk_server_version(guild) IS DISTINCT FROM server THEN
        RAISE EXCEPTION 'channel % changed since it was read', channel USING ERRCODE = 'TK001';
    END IF;
    RETURN channel;
END
$$;
