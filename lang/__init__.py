"""Words in the reader's language.

`_("You have {fp} FP.", fp=3)` gives the message in the language of the interaction being
answered, with its named placeholders filled in; `n_` picks a plural form by a count; `N_` only
marks a message kept as a constant (a band's name, a choice) for translation where it is shown.
English is the code itself: an unsupported language, or a message with no translation, reads
as written.

The language is set once per interaction (`speak`, from the user's own locale, not the
server's) in a context variable, so everything that runs for that interaction — rules, table,
render, the error handler — speaks it without passing a locale through every call. Only the
standard library here: `rules/` and `table/` import this, and stay pure. The catalogs are read
by `lang.catalogs` (Babel) at start-up and handed to `install`.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

__all__ = [
    "N_",
    "TABLE_LOCALES",
    "_",
    "again",
    "install",
    "installed",
    "language_of",
    "languages",
    "n_",
    "remember",
    "speak",
    "speaking",
    "spoken",
    "words",
]

ENGLISH = gettext.NullTranslations()
CATALOGS = Path(__file__).resolve().parent / "locales"  # <language>/LC_MESSAGES/*.po
# Discord's locale for a catalog's language where Discord has none of that bare name (it has
# `fr`, `de`, `ja`…, but Spanish only as `es-ES` and `es-419`, English as `en-US`, `en-GB`).
_DISCORD_LOCALE = {"en": "en-US", "es": "es-ES", "pt": "pt-BR", "sv": "sv-SE", "zh": "zh-CN"}


def discord_locale(language: str) -> str:
    """The Discord locale that names a catalog's language (`es` -> `es-ES`, `pt_BR` -> `pt-BR`)."""
    return _DISCORD_LOCALE.get(language, language.replace("_", "-"))


# The languages a table may be set to speak, as Discord's locales: English (the code's own
# words) and every language with a catalog in the repository.
TABLE_LOCALES: tuple[str, ...] = (
    discord_locale("en"),
    *sorted(discord_locale(folder.parent.name) for folder in CATALOGS.glob("*/LC_MESSAGES")),
)
_catalogs: dict[str, gettext.NullTranslations] = {}  # language ("es") -> its translations
_current: ContextVar[gettext.NullTranslations] = ContextVar("translations", default=ENGLISH)


# What each message said in this task, while `remember` keeps it: text -> (message, plural, n,
# params), so `again` can say it in another language.
Said = dict[str, tuple[str, str | None, int, dict[str, object]]]
_said: ContextVar[Said | None] = ContextVar("said", default=None)


def _(message: str, /, **params: object) -> str:
    """`message` in the current language, its `{placeholders}` filled from `params`."""
    text = _current.get().gettext(message)
    text = text.format(**params) if params else text
    if (said := _said.get()) is not None:
        said[text] = (message, None, 0, params)
    return text


def n_(singular: str, plural: str, n: int, /, **params: object) -> str:
    """The singular or plural form for the count `n` (also given to the text as `{n}`)."""
    text = _current.get().ngettext(singular, plural, n).format(n=n, **params)
    if (said := _said.get()) is not None:
        said[text] = (singular, plural, n, params)
    return text


def remember() -> None:
    """From here on in this task, keep what each message said, so that `again` can say it in
    another language: a refusal made while a public reply's words were being made in the
    table's language is said privately, in its reader's."""
    if _said.get() is None:
        _said.set({})


def again(text: str) -> str:
    """`text`, one message said in this task while remembered, said anew in the current
    language (its values too, where they were messages); any other text as it is."""
    said = _said.get()
    found = said.get(text) if said else None
    if found is None:
        return text
    message, plural, n, params = found
    params = {k: again(v) if isinstance(v, str) else v for k, v in params.items()}
    if plural is None:
        return _(message, **params)
    return n_(message, plural, n, **params)


def N_(message: str, /) -> str:
    """Mark `message` for translation without translating it (pass it through `_` to show it)."""
    return message


def words() -> gettext.NullTranslations:
    """The translations in force now: part of the key of any cache of translated text, so
    each language keeps its own (a catalog installed anew is a new key, never a stale hit)."""
    return _current.get()


def install(catalogs: Mapping[str, gettext.NullTranslations]) -> None:
    """The languages to speak besides English, by language code (`lang.catalogs.load`): one
    catalog kept per language, those installed and no others."""
    _catalogs.clear()
    _catalogs.update(catalogs)


def installed() -> dict[str, gettext.NullTranslations]:
    """The installed catalogs, by language (to put back what a test replaced)."""
    return dict(_catalogs)


def languages() -> list[str]:
    """The installed languages besides English."""
    return sorted(_catalogs)


def language_of(locale: str | None) -> str | None:
    """The installed language for a Discord locale ("es-ES" and "es-419" are both "es"), or
    None for English."""
    if not locale:
        return None
    for code in (locale, locale.replace("-", "_"), locale.split("-")[0]):
        if code in _catalogs:
            return code
    return None


def spoken() -> str | None:
    """The language in force now ("es"), None for English: to carry it elsewhere (a picture's
    worker speaks it with `speaking`)."""
    current = _current.get()
    return next((code for code, found in _catalogs.items() if found is current), None)


def speak(locale: str | None) -> None:
    """Answer the current interaction in `locale`'s language (English when not installed)."""
    language = language_of(locale)
    _current.set(ENGLISH if language is None else _catalogs[language])


@contextmanager
def speaking(locale: str | None) -> Iterator[None]:
    """`speak` for a block only (tests, and work done outside an interaction's own task)."""
    language = language_of(locale)
    token = _current.set(ENGLISH if language is None else _catalogs[language])
    try:
        yield
    finally:
        _current.reset(token)
