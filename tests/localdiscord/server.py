"""The REST side of the local Discord (aiohttp on 127.0.0.1), plus the gateway route.

Every JSON body is checked against Discord's OpenAPI description; what Discord would reject
gets its 400 and a line in `violations`, as do unknown routes and late interaction answers.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from tests.localdiscord.attachments import attach_uploads, check_uploads, read_multipart
from tests.localdiscord.default_world import World
from tests.localdiscord.faults import Faults
from tests.localdiscord.gateway import Gateway
from tests.localdiscord.http_json import (
    BODY,
    FORM_PROBLEMS,
    UPLOADS,
    discord_error,
    json_response,
)
from tests.localdiscord.records import InteractionRecord, MessageRecord
from tests.localdiscord.routes_interactions import add_interaction_routes
from tests.localdiscord.validate import validate_request
from tests.localdiscord.world import guild_create_payload, new_id, user_payload

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
# Interaction callbacks and webhook calls carry their token in the path, not a header.
NO_AUTH = ("/interactions/", "/webhooks/", "/attachments/")  # the last: the CDN's files


class LocalServer:
    def __init__(self, world: World) -> None:
        self.world = world
        self.token = f"local.{secrets.token_urlsafe(24)}"
        self.violations: list[str] = []
        self.violation_added = asyncio.Event()
        self.requests: list[str] = []  # "METHOD /path", in order
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.commands_registered = asyncio.Event()
        self.interactions: dict[int, InteractionRecord] = {}
        self.cdn: dict[str, bytes] = {}  # path -> a file users attached to a command
        self.messages: dict[int, MessageRecord] = {}
        self.gateway = Gateway(self.token, self._ready, self._guilds, self.record)
        self.port = 0
        self.deadline = 3.0  # seconds Discord gives a bot to answer an interaction
        # Check each JSON body against the OpenAPI description. Benchmarks turn it off once
        # their warm-up replies passed: the check is the test's cost, not the bot's.
        self.check_schemas = True
        self.faults = Faults()  # 429s, 5xx and lost connections a test asks for
        self._runner: web.AppRunner | None = None

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def record(self, problem: str) -> None:
        self.violations.append(problem)
        self.violation_added.set()

    async def start(self) -> None:
        app = web.Application(
            middlewares=[self._middleware, self.faults.middleware], client_max_size=64 * 2**20
        )
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get(API + "/users/@me", self._me)
        app.router.add_get(API + "/oauth2/applications/@me", self._application)
        app.router.add_get(API + "/gateway/bot", self._gateway_bot)
        app.router.add_get(API + "/gateway", self._gateway_bot)
        for prefix in (
            "/applications/{app}/commands",
            "/applications/{app}/guilds/{guild}/commands",
        ):
            app.router.add_get(API + prefix, self._get_commands)
            app.router.add_put(API + prefix, self._put_commands)
        add_interaction_routes(self, app, API)
        app.router.add_get("/attachments/{guild}/{id}/{filename}", self._cdn_file)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    @property
    def cdn_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _cdn_file(self, request: web.Request) -> web.StreamResponse:
        data = self.cdn.get(request.path)
        if data is None:
            return web.Response(status=404, text="404: Not Found")
        return web.Response(body=data, content_type="application/octet-stream")

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path.removeprefix(API)
        self.requests.append(f"{request.method} {path}")
        if request.path == "/gateway":
            return await handler(request)
        needs_auth = not any(path.startswith(p) for p in NO_AUTH)
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
            self.record(f"{request.method} {path}: missing or wrong Authorization header")
            return discord_error(401, "401: Unauthorized")
        request[BODY] = body = await _read_body(request)
        uploads = request.get(UPLOADS, {})
        if request.method in ("POST", "PUT", "PATCH"):
            problems = request.get(FORM_PROBLEMS, []) + check_uploads(body, uploads)
            if self.check_schemas:
                problems += validate_request(request.method, path, body)
            if problems:
                for problem in problems:
                    self.record(problem)
                return discord_error(400, "Invalid Form Body: " + "; ".join(problems), 50035)
            attach_uploads(body, uploads)
        try:
            return await handler(request)
        except web.HTTPException as exc:
            if exc.status not in (404, 405):
                raise
            self.record(f"unknown route: {request.method} {path}")
            return discord_error(404, "404: Not Found")

    def _ready(self, session_id: str) -> dict[str, Any]:
        return {
            "v": 10,
            "user": user_payload(self.world.bot) | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.world.guilds],
            "session_id": session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
        }

    def _guilds(self) -> list[dict[str, Any]]:
        return [guild_create_payload(g) for g in self.world.guilds]

    async def _me(self, request: web.Request) -> web.Response:
        return json_response(user_payload(self.world.bot) | {"verified": True, "flags": 0})

    async def _application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.world.application_id),
                "name": self.world.bot.username,
                "description": "",
                "icon": None,
                "rpc_origins": [],
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": user_payload(self.world.owner),
                "team": None,
                "summary": "",
                "verify_key": "0" * 64,
                "flags": 0,
                "interactions_endpoint_url": None,
                "bot": user_payload(self.world.bot),
            }
        )

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        shards = self.gateway.shard_count
        return json_response(
            {"url": self.gateway_url, "shards": shards, "session_start_limit": limit}
        )

    def _check_app(self, request: web.Request) -> int | None:
        if request.match_info["app"] != str(self.world.application_id):
            self.record(f"{request.path}: application id is not the bot's")
        guild = request.match_info.get("guild")
        return int(guild) if guild else None

    async def _get_commands(self, request: web.Request) -> web.Response:
        found = self.commands.get(self._check_app(request), [])
        if request.query.get("with_localizations") == "true":
            return json_response(found)
        return json_response([without_localizations(c) for c in found])

    async def _put_commands(self, request: web.Request) -> web.Response:
        guild_id = self._check_app(request)
        stored = []
        old = {c["name"]: c["id"] for c in self.commands.get(guild_id, [])}
        for command in request[BODY] or []:
            full = {"type": 1, "description": "", "options": []} | command
            full |= {
                "id": old.get(command["name"], str(new_id())),
                "application_id": str(self.world.application_id),
                "version": str(new_id()),
            }
            if guild_id is not None:
                full["guild_id"] = str(guild_id)
            stored.append(full)
        self.commands[guild_id] = stored
        self.commands_registered.set()
        return json_response(stored)


async def _read_body(request: web.Request) -> Any:
    if not request.can_read_body:
        return None
    if request.content_type == "multipart/form-data":
        body, request[UPLOADS], request[FORM_PROBLEMS] = await read_multipart(request)
        return body
    return json.loads(await request.text())


def without_localizations(node: dict[str, Any]) -> dict[str, Any]:
    """A command as Discord lists it without `with_localizations=true`: the localization
    dictionaries left out (PUT keeps and returns them whole)."""
    kept = {
        k: v
        for k, v in node.items()
        if k not in ("name_localizations", "description_localizations")
    }
    for key in ("options", "choices"):
        if isinstance(node.get(key), list):
            kept[key] = [without_localizations(o) if isinstance(o, dict) else o for o in node[key]]
    return kept
