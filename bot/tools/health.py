"""`python -m bot health`: ask the running bot's `/healthz` (HEALTH_PORT) on this machine; the
exit code is the answer, for a container's HEALTHCHECK (no curl in the slim image)."""

from __future__ import annotations

import urllib.error
import urllib.request

from bot.settings import one_setting
from bot.tools import ToolError

TIMEOUT = 3.0


def check_health(port: int | None) -> str:
    if port is None:
        value = one_setting("HEALTH_PORT")
        if value is None or not value.isdigit():
            raise ToolError("HEALTH_PORT is not set: the bot serves /healthz only when it is")
        port = int(value)
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            return f"healthy: {response.read().decode().strip()}"
    except urllib.error.HTTPError as error:
        raise ToolError(f"unhealthy: {error.read().decode().strip()}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ToolError(f"no answer on {url}: {reason}") from None
