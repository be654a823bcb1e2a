"""The game's rules as a pure library (standard library and `lang` only): dice, Save Rolls,
fatigue and monster defenses, with time and randomness passed in. Its errors
(`rules.errors.RulesError`) carry the sentence a player reads.
"""

from rules.errors import NoSaveError, RulesError

__all__ = ["NoSaveError", "RulesError"]
