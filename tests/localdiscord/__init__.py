"""A local Discord on loopback (REST + gateway) that the unmodified discord.py client talks to.

Start with `LocalDiscord` (client.py) and the `local_discord` fixture (fixtures.py).
"""
