"""Discord replies: pure functions from table values and rules results to embeds and text, in
the reader's language. No database, no state of their own beyond caches of what they said.
"""
