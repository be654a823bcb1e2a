"""Command descriptions and choice names in the user's language, from the same catalogs as the
replies: discord.py asks this while syncing and sends the answers to Discord as
`description_localizations` / `name_localizations`. Command and option names stay as written
(`/save wsr level:5`), so a command reads the same in every language, in `/help` and at the
table."""

from __future__ import annotations

from discord import Locale, app_commands

from lang import _, speaking

TRANSLATED = {
    app_commands.TranslationContextLocation.command_description,
    app_commands.TranslationContextLocation.group_description,
    app_commands.TranslationContextLocation.parameter_description,
    app_commands.TranslationContextLocation.choice_name,
}


def described(message: str, /, **params: object) -> app_commands.locale_str:
    """A description or choice name with values in it (a limit, a count): English as
    `message.format(**params)`, other languages from `message` (marked with `N_`) and the same
    values, so the limit is written once and every language shows it."""
    return app_commands.locale_str(message.format(**params), template=message, params=params)


def in_language(text: str | app_commands.locale_str) -> str:
    """A description or choice name in the current language (`/help` shows them too)."""
    if isinstance(text, str):
        return _(text)
    template = text.extras.get("template")
    if template is None:
        return _(text.message)
    return _(template, **text.extras["params"])


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in TRANSLATED:
            return None
        with speaking(locale.value):
            text = in_language(string)
        return None if text == string.message else text
