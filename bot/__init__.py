"""Tablekeeper's Discord process: the client and its start-up (`python -m bot`), the command tree
and its one error handler, acknowledgement within Discord's 3 seconds, settings, health,
metrics, logs and the admin's tools.

Below it: `render/` (the replies) and `store/` (persistence), over `table/`, `rules/` and `lang/`;
above it, `cogs/` (the commands). docs/architecture.md shows the layers.
"""
