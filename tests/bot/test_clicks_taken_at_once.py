"""A click on a restart-proof button is taken (`bot.ack.take`) in the step discord.py's dispatch
scheduled it in, before the unclaimed-click check looks: so no `from_custom_id`, which discord.py
runs before the button's `interaction_check`, may wait for anything (docs/architecture.md,
"Unclaimed clicks and forms")."""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap

from bot.client import COGS
from cogs._buttons import TableButton


def every_button() -> list[type[TableButton]]:
    for name in COGS:
        importlib.import_module(name)
    found, waiting = [], [TableButton]
    while waiting:
        for sub in waiting.pop().__subclasses__():
            found.append(sub)
            waiting.append(sub)
    return found


def test_no_from_custom_id_waits() -> None:
    buttons = every_button()
    assert len(buttons) >= 10  # the cogs' buttons were found
    for button in buttons:
        if "from_custom_id" not in vars(button):
            continue
        source = textwrap.dedent(inspect.getsource(vars(button)["from_custom_id"].__func__))
        awaits = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Await)]
        assert not awaits, f"{button.__qualname__}.from_custom_id waits for something"
