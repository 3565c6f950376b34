-- Answers Discord could not take yet (bot/views/outbox.py): posted, or removed, once it answers again.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT    NOT NULL CHECK (kind IN ('post', 'delete')),
    guild_id    TEXT,                             -- the server it is for (NULL outside one): its shard sends it
    channel_id  TEXT    NOT NULL,                 -- where to post, or where the message to delete is
    game_id     BIGINT,                           -- post: the game whose board it shows, drawn again when sent
    ref         TEXT    NOT NULL,                 -- post: the channel message's nonce; delete: the message id
    reply       TEXT    NOT NULL DEFAULT '{}',    -- post: JSON of the answer (text, ply, ping, buttons), no picture
    created_at  TEXT    NOT NULL
);
