"""Slash-command cogs: one feature per module; private helpers start with an underscore."""
