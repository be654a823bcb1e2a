"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME.

Frames go out as uncompressed text: discord.py asks for zlib-stream but decompresses only
binary frames (DiscordWebSocket.received_message) and reads text frames as plain JSON.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

HELLO, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 10, 1, 2, 6, 8
HEARTBEAT_ACK, DISPATCH, INVALID_SESSION = 11, 0, 9
RESUMABLE_CLOSE = 4000  # "unknown error": discord.py resumes after it
AUTHENTICATION_FAILED = 4004


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
        self.session_id = secrets.token_hex(16)
        self.seq = 0
        self.sent: list[dict[str, Any]] = []  # every dispatch, kept for RESUME replay
        self.ws: web.WebSocketResponse | None = None
        self.identified = asyncio.Event()
        self.identify_payload: dict[str, Any] = {}
        self.connections = 0
        self.resumes = 0
        self.resumed = asyncio.Event()
        self._lock = asyncio.Lock()

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
            if self.ws is ws:
                self.ws = None
        return ws

    async def _receive(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data: Any = payload.get("d")  # any JSON: an object for IDENTIFY, a number for HEARTBEAT
        if op == HEARTBEAT:
            await ws.send_json({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            if data.get("token") != self._token:
                await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
                return
            self.identify_payload = data
            async with self._lock:
                self.ws = ws
            ready = self._ready(self.session_id)
            if "shard" in data:  # a sharded client (AutoShardedBot) reads its shard back
                ready["shard"] = data["shard"]
            await self.dispatch("READY", ready)
            for guild in self._guilds():
                await self.dispatch("GUILD_CREATE", guild)
            self.identified.set()
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

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("session_id") != self.session_id or data.get("token") != self._token:
            await ws.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        async with self._lock:  # replay before going live, so no event is lost or reordered
            for frame in self.sent:
                if frame["s"] > (data.get("seq") or 0):
                    await ws.send_json(frame)
            self.seq += 1
            await ws.send_json({"op": DISPATCH, "t": "RESUMED", "s": self.seq, "d": {}})
            self.ws = ws
        self.resumes += 1
        self.resumed.set()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event now, or keep it for the client's RESUME if it is disconnected."""
        async with self._lock:
            self.seq += 1
            frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
            self.sent.append(frame)
            if self.ws is not None and not self.ws.closed:
                try:
                    await self.ws.send_json(frame)
                except (ConnectionResetError, RuntimeError):
                    self.ws = None  # kept in `sent`; the client gets it when it resumes

    async def drop(self) -> None:
        """Close the socket as a network fault would look to the client: resumable."""
        async with self._lock:
            ws, self.ws = self.ws, None
            self.resumed.clear()
        if ws is not None:
            await ws.close(code=RESUMABLE_CLOSE, message=b"dropped by the test")
