"""Renders: pure functions from a domain or rules result to a `discord.Embed`."""
