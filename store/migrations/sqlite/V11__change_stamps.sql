-- Change stamps: a number per channel (and per server) that the database itself bumps, by the
-- triggers below, whenever a row a channel's table or history is made of is inserted, updated
-- or deleted, by any connection in any process. A result kept from a read is still true while
-- its channel's and its server's stamps are what they were when it was read (store/sqlite.py).
-- A channel or server with no stamp row has not changed since this version (NULL reads alike).

CREATE TABLE channel_stamps (
    channel_id INTEGER PRIMARY KEY,
    stamp      INTEGER NOT NULL
);

CREATE TABLE guild_stamps (
    guild_id INTEGER PRIMARY KEY,
    stamp    INTEGER NOT NULL
);

-- The channel row, its characters, monsters, turn order and events: the channel's stamp.
CREATE TRIGGER channels_stamp_insert AFTER INSERT ON channels BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (NEW.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER channels_stamp_update AFTER UPDATE ON channels BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) SELECT NEW.channel_id, 1 WHERE 1
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
    INSERT INTO channel_stamps (channel_id, stamp)
        SELECT OLD.channel_id, 1 WHERE OLD.channel_id IS NOT NEW.channel_id
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER channels_stamp_delete AFTER DELETE ON channels BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (OLD.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER characters_stamp_insert AFTER INSERT ON characters BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (NEW.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER characters_stamp_update AFTER UPDATE ON characters BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) SELECT NEW.channel_id, 1 WHERE 1
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
    INSERT INTO channel_stamps (channel_id, stamp)
        SELECT OLD.channel_id, 1 WHERE OLD.channel_id IS NOT NEW.channel_id
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER characters_stamp_delete AFTER DELETE ON characters BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (OLD.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER monsters_stamp_insert AFTER INSERT ON monsters BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (NEW.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER monsters_stamp_update AFTER UPDATE ON monsters BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) SELECT NEW.channel_id, 1 WHERE 1
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
    INSERT INTO channel_stamps (channel_id, stamp)
        SELECT OLD.channel_id, 1 WHERE OLD.channel_id IS NOT NEW.channel_id
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER monsters_stamp_delete AFTER DELETE ON monsters BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (OLD.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER initiatives_stamp_insert AFTER INSERT ON initiatives BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (NEW.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER initiatives_stamp_update AFTER UPDATE ON initiatives BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) SELECT NEW.channel_id, 1 WHERE 1
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
    INSERT INTO channel_stamps (channel_id, stamp)
        SELECT OLD.channel_id, 1 WHERE OLD.channel_id IS NOT NEW.channel_id
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER initiatives_stamp_delete AFTER DELETE ON initiatives BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (OLD.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER events_stamp_insert AFTER INSERT ON events BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (NEW.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER events_stamp_update AFTER UPDATE ON events BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) SELECT NEW.channel_id, 1 WHERE 1
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
    INSERT INTO channel_stamps (channel_id, stamp)
        SELECT OLD.channel_id, 1 WHERE OLD.channel_id IS NOT NEW.channel_id
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER events_stamp_delete AFTER DELETE ON events BEGIN
    INSERT INTO channel_stamps (channel_id, stamp) VALUES (OLD.channel_id, 1)
        ON CONFLICT (channel_id) DO UPDATE SET stamp = stamp + 1;
END;

-- A server's settings are layered into each of its channels' tables: the server's stamp.
CREATE TRIGGER guild_settings_stamp_insert AFTER INSERT ON guild_settings BEGIN
    INSERT INTO guild_stamps (guild_id, stamp) VALUES (NEW.guild_id, 1)
        ON CONFLICT (guild_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER guild_settings_stamp_update AFTER UPDATE ON guild_settings BEGIN
    INSERT INTO guild_stamps (guild_id, stamp) SELECT NEW.guild_id, 1 WHERE 1
        ON CONFLICT (guild_id) DO UPDATE SET stamp = stamp + 1;
    INSERT INTO guild_stamps (guild_id, stamp)
        SELECT OLD.guild_id, 1 WHERE OLD.guild_id IS NOT NEW.guild_id
        ON CONFLICT (guild_id) DO UPDATE SET stamp = stamp + 1;
END;

CREATE TRIGGER guild_settings_stamp_delete AFTER DELETE ON guild_settings BEGIN
    INSERT INTO guild_stamps (guild_id, stamp) VALUES (OLD.guild_id, 1)
        ON CONFLICT (guild_id) DO UPDATE SET stamp = stamp + 1;
END;
