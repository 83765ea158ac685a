"""The catalogue of every text a reader sees or hears, in the site's language.

One JSON file per language in ``strings/`` (``fr.json``, ``pt-BR.json``): keys are the
English file's, values are text with ``{name}`` placeholders, or for a text that counts
something its CLDR plural forms (``{"one": ..., "few": ..., "other": ...}``). Adding a
language is a file (tests/language checks it has every key, the same placeholders and
its language's plural forms). Authors override any key in ``mkdocs.yml`` (``strings:``).

The engine's sentences and words (dice errors, fight logs, stat labels: keys ``error.*``,
``log.*``, ``stat.*``) are
English in the engine itself (`rollbook.engine.messages.ENGLISH`, their only English home);
the other languages' files hold them like any key.

The same catalogue reaches the browser (`Catalogue.for_browser`, written by
`rollbook.site_runtime` as ``strings.js``; the engine's sentences as ``strings-engine.js``,
fetched with ``said.js`` the first time a reply needs them); build messages for authors
stay English.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from rollbook.language.numbers import NumberStyle, number_style, plural_category

__all__ = [
    "LANGUAGES",
    "RTL",
    "Catalogue",
    "StringsError",
    "catalogue",
    "check_overrides",
    "resolve",
]

#: The languages that come with rollbook (file names in ``strings/``).
LANGUAGES = ("en", "fr", "de", "es", "it", "pt-BR", "pl", "ru", "he")
#: Languages written right to left (Material's ``dir="rtl"``).
RTL = frozenset({"ar", "fa", "he", "ur", "yi"})
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
#: Texts only the build writes (into the HTML); the page's catalogue leaves them out, so the
#: bytes before the first roll stay small (tests/language checks no page module uses them).
BUILD_ONLY = frozenset(
    {
        "combat.against", "combat.attacking", "combat.caption", "combat.col.hp",
        "combat.col.name", "combat.col.side", "combat.col.status", "combat.end",
        "combat.log", "combat.next", "combat.odds", "combat.reset", "combat.seed",
        "combat.seed_random", "combat.simulate", "combat.start", "gm.intro", "gm.title",
        "roll.summary", "table.chance", "table.copy_link", "table.other", "table.ref_title",
        "table.result", "table.roll", "table.sentence",
    }
)  # fmt: skip
#: Keys of the engine's sentences and the rule systems' words (`rollbook.engine.messages`):
#: the page fetches them only when a reply holds one (a dice error, a fight), not with its
#: first bytes.
ENGINE_PREFIXES = ("error.", "log.", "stat.")
#: The statblock fields' help (tooltips the build writes): English from each system's
#: ``Param.help`` (`rollbook.engine.systems.field_help`).
HELP_PREFIX = "stat.help."
Text = str | dict[str, str]


class StringsError(ValueError):
    """An author's ``strings`` override that cannot be used (one sentence)."""


def resolve(code: str | None) -> str:
    """The shipped language for a code as themes write it, else ``en``.

    ``fr_FR`` -> ``fr``, ``pt-br`` and ``pt`` -> ``pt-BR``.
    """
    if not code:
        return "en"
    parts = re.split(r"[-_]", code.strip())
    base = parts[0].lower()
    region = parts[1].upper() if len(parts) > 1 else ""
    for name in (f"{base}-{region}", base):
        if name in LANGUAGES:
            return name
    return next((name for name in LANGUAGES if name.split("-")[0] == base), "en")


@functools.cache
def _shipped(language: str) -> dict[str, Text]:
    path = resources.files("rollbook.language") / "strings" / f"{language}.json"
    data: dict[str, Text] = json.loads(path.read_text(encoding="utf-8"))
    if language == "en":
        from rollbook.engine.messages import ENGLISH
        from rollbook.engine.systems import field_help

        data = {**data, **ENGLISH, **field_help()}
    return data


def placeholders(text: Text) -> frozenset[str]:
    """The ``{name}`` placeholders of a text (of all its plural forms)."""
    forms = text.values() if isinstance(text, dict) else [text]
    return frozenset(name for form in forms for name in _PLACEHOLDER.findall(form))


def _fill(text: str, params: Mapping[str, Any]) -> str:
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)


@dataclass(frozen=True, eq=False)
class Catalogue:
    """The strings and number style of one language (with the author's overrides).

    One object per language and overrides (`catalogue` keeps them), compared and hashed by
    identity, so a catalogue can key a cache.

    Attributes:
        language: The language code as the catalogue files name it (``"pt-BR"``).
        strings: Key -> text or plural forms; every English key is present.
        numbers: Decimal and group signs and the percent pattern, from Babel (CLDR).
    """

    language: str
    strings: Mapping[str, Text]
    numbers: NumberStyle = field(repr=False)

    @property
    def rtl(self) -> bool:
        """Whether the language is written right to left."""
        return self.language.split("-")[0] in RTL

    def __call__(self, key: str, **params: Any) -> str:
        """The text of ``key`` with its placeholders filled (``count`` picks a plural form)."""
        text = self.strings[key]
        if isinstance(text, dict):
            form = plural_category(self.language, params.get("count", 0))
            text = text.get(form, text["other"])
            params = {**params, "count": self.number(params.get("count", 0))}
        return _fill(text, params)

    def number(self, value: Any) -> str:
        """A number (int, or decimal text such as ``"10.5"``) as the language writes it."""
        return self.numbers.number(str(value))

    def percent(self, text: str) -> str:
        """A percentage of `rollbook.engine.numbers.percent_text` as the language writes it.

        ``"27.8%"`` -> ``"27,8 %"`` in French; ``"<0.1%"`` keeps its ``<``.
        """
        return self.numbers.percent(text)

    def for_browser(self) -> dict[str, Any]:
        """What the page needs: ``{"lang", "dir", "numbers", "strings"}`` (JSON-safe)."""
        return {
            "dir": "rtl" if self.rtl else "ltr",
            "lang": self.language,
            "numbers": self.numbers.for_browser(),
            "strings": {
                k: v
                for k, v in sorted(self.strings.items())
                if k not in BUILD_ONLY and not k.startswith(ENGINE_PREFIXES)
            },
        }

    def engine_for_browser(self) -> dict[str, Any]:
        """The engine's sentences and words for the page, JSON-safe.

        ``error.*``, ``log.*``, ``stat.*`` but the statblock tooltips (only the HTML has them).
        """
        return {
            k: v
            for k, v in sorted(self.strings.items())
            if k.startswith(ENGINE_PREFIXES) and not k.startswith(HELP_PREFIX)
        }


def check_overrides(overrides: Any) -> dict[str, dict[str, Text]]:
    """An author's ``strings`` option as ``{language or "*": {key: text}}``.

    ``{key: text}`` applies to every language; ``{language: {key: text}}`` to that one.

    Raises:
        StringsError: an unknown key, a text that is not text, or placeholders other than
            the English text's.
    """
    if overrides is None:
        return {}
    if not isinstance(overrides, dict):
        raise StringsError("strings must be a mapping of catalogue keys to texts")
    english = _shipped("en")
    grouped: dict[str, dict[str, Text]] = {}
    for key, value in overrides.items():
        if isinstance(value, dict) and str(key) not in english:
            scope, entries = resolve(str(key)), value
            if resolve(str(key)) == "en" and str(key).split("-")[0].lower() != "en":
                raise StringsError(f"strings: {key!r} is neither a catalogue key nor a language")
        else:
            scope, entries = "*", {key: value}
        for name, text in entries.items():
            grouped.setdefault(scope, {})[str(name)] = _checked(str(name), text, english)
    return grouped


def _checked(key: str, text: Any, english: Mapping[str, Text]) -> Text:
    if key not in english:
        near = sorted(k for k in english if k.split(".")[0] == key.split(".")[0])
        hint = f" (keys of that group: {', '.join(near)})" if near else ""
        raise StringsError(f"strings: there is no key {key!r}{hint}")
    forms_ok = isinstance(text, dict) and all(isinstance(v, str) for v in text.values())
    if not isinstance(text, str) and not (forms_ok and "other" in text):
        raise StringsError(f"strings: {key} must be text (or plural forms with 'other')")
    clean: Text = dict(text) if isinstance(text, dict) else text
    if placeholders(clean) - placeholders(english[key]):
        extra = ", ".join(sorted(placeholders(clean) - placeholders(english[key])))
        known = ", ".join(sorted(placeholders(english[key]))) or "none"
        raise StringsError(f"strings: {key} has placeholders {extra} (it knows: {known})")
    return clean


def catalogue(language: str | None = None, overrides: Any = None) -> Catalogue:
    """The catalogue for ``language``, with the author's ``strings`` overrides applied.

    Any code themes use; unknown ones get English. Overrides: see `check_overrides`.
    """
    name = resolve(language)
    return _catalogue(name, json.dumps(check_overrides(overrides), sort_keys=True))


@functools.lru_cache(maxsize=64)
def _catalogue(name: str, overrides_json: str) -> Catalogue:
    grouped: dict[str, dict[str, Text]] = json.loads(overrides_json)
    strings = {**_shipped("en"), **_shipped(name), **grouped.get("*", {}), **grouped.get(name, {})}
    return Catalogue(name, strings, number_style(name))
