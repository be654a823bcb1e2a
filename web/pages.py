"""The page's HTML, from Jinja2 templates (`web/templates/`) that escape every value they are
given (autoescape): a name or label is shown as the characters it is, never read as markup.
The templates' words go through the bot's own catalogs (`_`, `n_`), in the language of the
block they are rendered in (`lang.speaking`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from lang import _, language_of, n_, speaking
from table.event import Event
from table.fatigue_series import FatigueSeries
from table.model import Table
from web.view import board

_env = Environment(
    loader=PackageLoader("web", "templates"),
    autoescape=select_autoescape(["html"], default_for_string=True, default=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.globals.update(_=_, n_=n_)
_env.filters["iso"] = lambda moment: moment.isoformat() if isinstance(moment, datetime) else ""
_env.filters["hhmm"] = lambda moment: f"{moment:%H:%M}" if isinstance(moment, datetime) else ""


def html_language(locale: str | None) -> str:
    """The page's `lang` attribute: the language its words are in."""
    return language_of(locale) or "en"


def fragment(
    table: Table, events: Sequence[Event], series: FatigueSeries | None, locale: str | None
) -> str:
    """The live part of the page: what each update replaces."""
    with speaking(locale):
        return _env.get_template("board.html").render(board=board(table, events, series))


def page(content: str, locale: str | None, *, overlay: bool) -> str:
    """The whole page around the live part (`fragment`, escaped already as it was rendered)."""
    with speaking(locale):
        return _env.get_template("page.html").render(
            content=Markup(content), lang=html_language(locale), overlay=overlay
        )


def missing(locale: str | None = None) -> str:
    """The one page for a link that is unknown, revoked or no link at all."""
    with speaking(locale):
        return _env.get_template("missing.html").render(lang=html_language(locale))
