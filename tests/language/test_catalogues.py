"""Every shipped catalogue is complete: each English key (the engine's sentences included),
the same placeholders, and the plural forms its language has in CLDR (Babel's data);
authors' overrides are checked."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from babel import Locale

from rollbook.engine.messages import ENGLISH as ENGINE_ENGLISH
from rollbook.engine.systems import field_help
from rollbook.language import LANGUAGES, StringsError, catalogue, check_overrides, resolve
from rollbook.language.catalogue import ENGINE_PREFIXES, placeholders

STRINGS = resources.files("rollbook.language") / "strings"


def _load(language: str) -> dict[str, object]:
    """A language's file; English is ``en.json``, the engine's own English sentences and the
    systems' field help."""
    data: dict[str, object] = json.loads((STRINGS / f"{language}.json").read_text("utf-8"))
    return {**data, **ENGINE_ENGLISH, **field_help()} if language == "en" else data


ENGLISH = _load("en")


def test_the_engines_english_has_one_home() -> None:
    own = json.loads((STRINGS / "en.json").read_text("utf-8"))
    assert not set(own) & set(ENGINE_ENGLISH)
    assert all(key.startswith(ENGINE_PREFIXES) for key in ENGINE_ENGLISH)
    assert not any(key.startswith(ENGINE_PREFIXES) for key in own)
    assert catalogue("en").strings["log.dd.slain"] == "{name} is slain."
    assert catalogue("en").strings["stat.help.dark-dungeons.hp"] == "hit points"


def test_every_catalogue_file_is_a_shipped_language() -> None:
    files = sorted(
        p.name.removesuffix(".json") for p in STRINGS.iterdir() if p.name.endswith(".json")
    )
    assert files == sorted(LANGUAGES)
    assert {"en", "fr", "de", "es", "it", "pt-BR", "pl", "ru", "he"} <= set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_is_there_and_no_other(language: str) -> None:
    assert set(_load(language)) == set(ENGLISH)


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_are_the_english_ones(language: str) -> None:
    for key, text in _load(language).items():
        english = ENGLISH[key]
        assert isinstance(text, type(english)), key
        wanted = placeholders(english)  # type: ignore[arg-type]
        if isinstance(text, dict):
            # A form may spell its number out ("one": "un seul"), never add or lose another.
            for form, value in text.items():
                assert placeholders(value) - {"count"} == wanted - {"count"}, (key, form)
            assert placeholders(text["other"]) == wanted, key
        else:
            assert placeholders(text) == wanted, key  # type: ignore[arg-type]


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_are_the_languages_cldr_categories(language: str) -> None:
    categories = Locale.parse(language.replace("-", "_")).plural_form.tags | {"other"}
    plural_keys = [key for key, text in ENGLISH.items() if isinstance(text, dict)]
    assert len(plural_keys) >= 8
    for key in plural_keys:
        forms = _load(language)[key]
        assert isinstance(forms, dict)
        assert set(forms) == categories, (key, sorted(forms), sorted(categories))


@pytest.mark.parametrize("language", [name for name in LANGUAGES if name != "en"])
def test_a_translation_is_written_not_copied(language: str) -> None:
    # Words that read the same in many languages ("Chance", "Link", "Markdown") may stay;
    # a catalogue that is mostly English is not a translation.
    data = _load(language)
    same = [key for key, text in data.items() if text == ENGLISH[key]]
    assert len(same) < len(ENGLISH) // 15, same


@pytest.mark.parametrize(
    ("count", "language", "expected"),
    [
        (1, "pl", "Symuluj 1 walkę"),
        (3, "pl", "Symuluj 3 walki"),
        (5, "pl", "Symuluj 5 walk"),
        (22, "pl", "Symuluj 22 walki"),
        (1, "ru", "Смоделировать 1 бой"),
        (3, "ru", "Смоделировать 3 боя"),
        (11, "ru", "Смоделировать 11 боёв"),
        (21, "ru", "Смоделировать 21 бой"),
        (2, "he", "הדמיה של שני קרבות"),
        (1000, "fr", "Simuler 1\u202f000 combats"),
        (1, "en", "Simulate 1 fight"),
        (1000, "en", "Simulate 1,000 fights"),
    ],
)
def test_counts_pick_their_form_and_are_written_in_the_language(
    count: int, language: str, expected: str
) -> None:
    assert catalogue(language)("combat.simulate", count=count) == expected


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("fr_FR", "fr"),
        ("pt", "pt-BR"),
        ("pt-br", "pt-BR"),
        ("de-AT", "de"),
        ("HE", "he"),
        ("tlh", "en"),
        (None, "en"),
        ("", "en"),
    ],
)
def test_theme_codes_resolve_to_a_shipped_language(code: str | None, name: str) -> None:
    assert resolve(code) == name


def test_right_to_left_is_known_from_the_language() -> None:
    assert catalogue("he").rtl and catalogue("he").for_browser()["dir"] == "rtl"
    assert not catalogue("fr").rtl


def test_author_overrides_apply_to_every_language_or_to_one() -> None:
    words = {"table.roll": "Tirage", "de": {"table.roll": "Ziehen"}}
    assert catalogue("fr", words)("table.roll") == "Tirage"
    assert catalogue("de", words)("table.roll") == "Ziehen"
    assert catalogue("fr", words)("table.copy_link") == "Copier le lien"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"table.rol": "x"}, "there is no key 'table.rol' (keys of that group:"),
        ({"table.roll": 3}, "table.roll must be text"),
        (
            {"gm.moved": "{item} to {where}"},
            "gm.moved has placeholders where (it knows: count, item, place)",
        ),
        ({"klingon": {"table.roll": "x"}}, "'klingon' is neither a catalogue key nor a language"),
        ([1], "strings must be a mapping"),
    ],
)
def test_a_bad_override_is_one_sentence(overrides: object, message: str) -> None:
    with pytest.raises(StringsError) as caught:
        check_overrides(overrides)
    assert message in str(caught.value)
