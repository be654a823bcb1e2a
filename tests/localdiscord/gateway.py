"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, shards.

Like Discord, it is sharded: IDENTIFY carries `[shard_id, shard_count]`, and each event goes to
the sessions of the shard its guild belongs to (`shards.shard_of`); events without a guild (DMs)
go to shard 0. Two sessions claiming one shard both get its events, as on Discord.

Frames go out as uncompressed text: discord.py asks for zlib-stream but decompresses only
binary frames (DiscordWebSocket.received_message) and reads text frames as plain JSON.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.localdiscord.shards import event_shard, shard_of

HELLO, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 10, 1, 2, 6, 8
HEARTBEAT_ACK, DISPATCH, INVALID_SESSION = 11, 0, 9
RESUMABLE_CLOSE = 4000  # "unknown error": discord.py resumes after it
AUTHENTICATION_FAILED = 4004
INVALID_SHARD = 4010


@dataclass
class Session:
    """One IDENTIFYed session: its shard, sequence and every dispatch (for RESUME replay)."""

    shard: int
    ws: web.WebSocketResponse | None
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed


class Gateway:
    def __init__(
        self,
        token: str,
        ready: Callable[[str], dict[str, Any]],
        guilds: Callable[[], list[dict[str, Any]]],
        record: Callable[[str], None],
    ) -> None:
        self._token = token
        self._ready = ready
        self._guilds = guilds
        self._record = record
        self.shard_count = 1  # what /gateway/bot reports and IDENTIFY must carry
        self.sessions: list[Session] = []
        self.identified = asyncio.Event()
        self.identify_payload: dict[str, Any] = {}
        self.identified_shards: list[int] = []  # in IDENTIFY order, repeats kept
        self.connections = 0
        self.resumes = 0
        self.resumed = asyncio.Event()
        self._lock = asyncio.Lock()

    @property
    def ws(self) -> web.WebSocketResponse | None:
        """The latest live session's socket (the only one, unless sharded)."""
        live = [s for s in self.sessions if s.live]
        return live[-1].ws if live else None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        if request.query.get("v") != "10" or request.query.get("encoding") != "json":
            self._record(f"gateway connected with {dict(request.query)}; expected v=10, json")
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.connections += 1
        await ws.send_json({"op": HELLO, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._receive(ws, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    self._record("gateway: the client sent a binary frame (expected JSON text)")
        finally:
            for session in self.sessions:
                if session.ws is ws:
                    session.ws = None  # kept: it may still RESUME
        return ws

    async def _receive(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data: Any = payload.get("d")  # any JSON: an object for IDENTIFY, a number for HEARTBEAT
        if op == HEARTBEAT:
            await ws.send_json({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(ws, data)
        elif op == RESUME:
            await self._resume(ws, data)
        elif op == REQUEST_MEMBERS:
            for guild in self._guilds():
                if guild["id"] == str(data.get("guild_id")):
                    chunk = {"guild_id": guild["id"], "members": guild["members"]}
                    chunk |= {"chunk_index": 0, "chunk_count": 1, "nonce": data.get("nonce")}
                    await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        elif op not in (3, 4):  # presence and voice updates need no answer here
            self._record(f"gateway: unexpected opcode {op}")

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self._token:
            await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        shard, count = data.get("shard") or [0, 1]
        if count != self.shard_count or not 0 <= shard < count:
            has = f"Discord has {self.shard_count} shards"
            self._record(f"gateway: IDENTIFY as shard {[shard, count]}; {has}")
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        self.identify_payload = data
        async with self._lock:
            # A new session for a shard replaces its disconnected ones (a restarted process);
            # a live one stays, so two processes claiming one shard both get its events.
            self.sessions = [s for s in self.sessions if s.shard != shard or s.live]
            session = Session(shard, ws)
            self.sessions.append(session)
        ready = self._ready(session.session_id)
        ready["guilds"] = [g for g in ready["guilds"] if shard_of(int(g["id"]), count) == shard]
        if "shard" in data:  # a sharded client (AutoShardedBot) reads its shard back
            ready["shard"] = data["shard"]
        async with self._lock:
            await self._send(session, "READY", ready)
            for guild in self._guilds():
                if shard_of(int(guild["id"]), count) == shard:
                    await self._send(session, "GUILD_CREATE", guild)
        self.identified_shards.append(shard)
        self.identified.set()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
        if session is None or data.get("token") != self._token:
            await ws.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        async with self._lock:  # replay before going live, so no event is lost or reordered
            for frame in session.sent:
                if frame["s"] > (data.get("seq") or 0):
                    await ws.send_json(frame)
            session.seq += 1
            await ws.send_json({"op": DISPATCH, "t": "RESUMED", "s": session.seq, "d": {}})
            session.ws = ws
        self.resumes += 1
        self.resumed.set()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to its shard's sessions now, or keep it for a session's RESUME."""
        shard = event_shard(data, self.shard_count)
        async with self._lock:
            for session in self.sessions:
                if session.shard == shard:
                    await self._send(session, event, data)

    async def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        if session.ws is not None and not session.ws.closed:
            try:
                await session.ws.send_json(frame)
            except (ConnectionResetError, RuntimeError):
                session.ws = None  # kept in `sent`; the client gets it when it resumes

    async def drop(self) -> None:
        """Close the sockets as a network fault would look to the client: resumable."""
        async with self._lock:
            sockets = [s.ws for s in self.sessions if s.ws is not None]
            for session in self.sessions:
                session.ws = None
            self.resumed.clear()
        for ws in sockets:
            await ws.close(code=RESUMABLE_CLOSE, message=b"dropped by the test")

    async def close(self) -> None:
        for session in self.sessions:
            if session.ws is not None:
                await session.ws.close()
