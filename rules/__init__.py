"""Tablekeeper's rules engine: a pure, standard-library-only package.

Modules: `dice` (open-ended d100), `saves` (Save Rolls), `fatigue` (Fatigue Points),
`defense` (monster Defense & Armor). Errors are `rules.errors.RulesError` subclasses.
"""

from rules.errors import NoSaveError, RulesError

__all__ = ["NoSaveError", "RulesError"]
