"""Tablekeeper's Discord side: settings, the store, the Bot, the error handler, the entry point.

`rules/` holds the game; `cogs/` hold the commands; this package glues them to Discord.
"""
