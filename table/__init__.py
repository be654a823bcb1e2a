"""The channel's table: its characters, monsters, settings, clock and turn order, and the pure
operations a command applies to them (`Table -> (Table, result)`). No Discord, no database: a
cog checks who may act, the store runs the operation in one transaction, a render shows it.
"""
