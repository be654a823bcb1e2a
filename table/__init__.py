"""The channel's table: characters, monsters, settings and clock, and the operations on them.

Pure and Discord-free (a test proves it): a cog parses and checks who may act, calls a table
operation over `rules` inside one store transaction, renders the result and replies.
"""
