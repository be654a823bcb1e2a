"""`tests.e2e.english`: the check the Spanish end-to-end tests make, on plain text."""

from __future__ import annotations

from tests.e2e.english import english_words


def test_finds_common_english_words() -> None:
    assert english_words("Aria spends 3 FP; Now Fatigued (was Fresh)") == [
        "spends",
        "now",
        "fatigued",
        "was",
        "fresh",
    ]


def test_spanish_and_the_games_terms_pass() -> None:
    text = "Tirada de Salvación de Voluntad (WSR): ✅ Éxito · Nivel 5 +25 · no hay FP, VP, HD, d100"
    assert english_words(text) == []
    assert english_words("Rank 3 · TSR · SR · HP 40 / 40 · FL 20 · total 85 · base") == []


def test_names_commands_and_markup_are_not_english() -> None:
    assert english_words("Fresh Bob gasta 3 FP", names=["Fresh Bob"]) == []
    assert english_words("crea uno con `/character create name:Bob`") == []
    assert english_words("cámbialos con /settings set o /undo; <@1> <@&2> <t:5:f>") == []
    assert english_words("mira https://example.org/the/rules o define SOURCE_URL") == []
    assert english_words("/settings show the") == ["the"]  # only the command's own words
