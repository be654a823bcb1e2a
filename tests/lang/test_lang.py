"""`lang`: the current interaction's language, English as written, plural forms, and catalogs
that can't be used refused with one line naming the file."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import lang
from lang import _, n_, speaking
from lang.catalogs import LOCALES, CatalogError, load, load_from, read


def write_catalog(
    root: Path, language: str, messages: dict[object, object], name: str = "messages"
) -> Path:
    catalog = Catalog(locale=language)
    for message_id, text in messages.items():
        catalog.add(message_id, text)  # type: ignore[arg-type]
    folder = root / language / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog)
    path = folder / f"{name}.po"
    path.write_bytes(buffer.getvalue())
    return path


@pytest.fixture
def spanish(tmp_path: Path):  # type: ignore[no-untyped-def]
    write_catalog(
        tmp_path,
        "es",
        {
            "You have {fp} FP.": "Tienes {fp} FP.",
            ("{n} change", "{n} changes"): (
                "{n} cambio",
                "{n} de cambios",
                "{n} cambios",
            ),  # CLDR order: one, many, other,
        },
    )
    before = lang.installed()
    lang.install(load_from(tmp_path))
    yield
    lang.install(before)


def test_english_is_the_message_as_written() -> None:
    assert _("You have {fp} FP.", fp=3) == "You have 3 FP."
    assert _("No {braces} filled without values") == "No {braces} filled without values"
    assert n_("{n} change", "{n} changes", 1) == "1 change"
    assert n_("{n} change", "{n} changes", 4) == "4 changes"


@pytest.mark.usefixtures("spanish")
@pytest.mark.parametrize("locale", ["es-ES", "es-419", "es"])
def test_every_spanish_locale_speaks_spanish(locale: str) -> None:
    with speaking(locale):
        assert _("You have {fp} FP.", fp=3) == "Tienes 3 FP."
        assert n_("{n} change", "{n} changes", 1) == "1 cambio"
        assert n_("{n} change", "{n} changes", 2) == "2 cambios"
        assert n_("{n} change", "{n} changes", 10**6) == "1000000 de cambios"  # CLDR's "many"
        assert _("Not in the catalog: {x}", x=1) == "Not in the catalog: 1"
    assert _("You have {fp} FP.", fp=3) == "You have 3 FP."  # the block is over


@pytest.mark.usefixtures("spanish")
@pytest.mark.parametrize("locale", ["en-US", "fr", "pt-BR", "zz-ZZ", "", None])
def test_an_unsupported_locale_reads_english(locale: str | None) -> None:
    with speaking(locale):
        assert _("You have {fp} FP.", fp=3) == "You have 3 FP."


@pytest.mark.usefixtures("spanish")
async def test_each_task_speaks_its_own_language() -> None:
    async def answer(locale: str) -> str:
        lang.speak(locale)
        await asyncio.sleep(0)  # the other task runs and sets its own language meanwhile
        return _("You have {fp} FP.", fp=1)

    spanish, english = await asyncio.gather(answer("es-ES"), answer("en-US"))
    assert (spanish, english) == ("Tienes 1 FP.", "You have 1 FP.")


def test_a_malformed_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = write_catalog(tmp_path, "es", {"Hello": "Hola"})
    path.write_text(path.read_text() + "\nthis line is not a catalog's\n")
    with pytest.raises(CatalogError) as refused:
        read(path)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


def test_a_translation_naming_an_unknown_placeholder_is_refused(tmp_path: Path) -> None:
    write_catalog(tmp_path, "es", {"You have {fp} FP.": "Tienes {pf} FP."})
    with pytest.raises(CatalogError, match="pf"):
        load_from(tmp_path)


def test_a_translation_with_an_unbalanced_brace_is_refused(tmp_path: Path) -> None:
    write_catalog(tmp_path, "es", {"You have {fp} FP.": "Tienes {fp FP."})
    with pytest.raises(CatalogError, match=r"messages\.po"):
        load_from(tmp_path)


def test_parts_of_a_language_are_merged(tmp_path: Path) -> None:
    write_catalog(tmp_path, "es", {"One": "Uno"}, name="a")
    write_catalog(tmp_path, "es", {"Two": "Dos"}, name="b")
    found = load_from(tmp_path)
    assert [found["es"].gettext(m) for m in ("One", "Two")] == ["Uno", "Dos"]


def test_the_shipped_catalogs_load() -> None:
    assert "es" in load()
    assert LOCALES.is_dir()
