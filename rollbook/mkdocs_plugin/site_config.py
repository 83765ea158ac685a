"""Read a site's mkdocs.yml for the CLI's page commands, as ``mkdocs build`` would, safely.

Like ``mkdocs``, the commands read the config the user names (``--config``) or the one in
the current folder, never one found in a parent folder; and they read it without running
any YAML tag (`rollbook.mkdocs_plugin.safe_config`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rollbook.markup.page_state import FEATURES
from rollbook.markup.pages import MarkdownSetup
from rollbook.mkdocs_plugin.markdown_setup import EXTENSION_NAMES, add_rollbook_markdown

__all__ = ["CONFIG_NAMES", "find_config", "markdown_setup"]

#: The names ``mkdocs`` looks for, in its order.
CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")


def find_config(folder: Path) -> Path | None:
    """The mkdocs.yml (or mkdocs.yaml) in ``folder`` itself; parents are not searched."""
    for name in CONFIG_NAMES:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def markdown_setup(config_file: Path) -> MarkdownSetup:
    """Extensions, their configs and the rollbook presets from ``config_file``, as data.

    Nothing the config names runs while it is read: ``hooks:`` are never imported, plugins
    never loaded (only the ``rollbook`` entry's options are read, and checked by its own
    settings schema), and a Markdown extension that is a module of the site's own folder
    (rather than an installed package) is refused.

    Raises:
        rollbook.mkdocs_plugin.safe_config.ConfigRefused: a tag it will not run, a YAML
            error or an invalid setting, as one sentence naming the file.
    """
    from rollbook.mkdocs_plugin.safe_config import ConfigRefused, load_safely

    path = Path(config_file)
    data = load_safely(path)
    try:
        extensions, configs = _extensions(data.get("markdown_extensions", []))
        options = _rollbook_options(data.get("plugins", []))
    except ValueError as err:
        raise ConfigRefused(f"{path}: {err}") from None
    if options is not None:
        options = _validated(options, path)
    for name in extensions:
        local = _local_module(name, (path.resolve().parent, Path.cwd().resolve()))
        if local is not None:
            raise ConfigRefused(
                f"{path}: the Markdown extension {name!r} is {local}, a module of the site's "
                "own folder, not an installed package; rollbook check and table never run "
                "a site's own code."
            )
    presets = dict((options or {}).get("presets") or {})
    features = {n: bool(v) for n in FEATURES if (v := (options or {}).get(n)) is not None}
    if options is not None and options["enabled"] and options["configure_markdown"]:
        add_rollbook_markdown(extensions, configs)
    _load_extensions(extensions, configs, path)
    language, strings = _language(data, options or {}, configs)
    return MarkdownSetup(
        extensions=extensions,
        configs=configs,
        presets=presets,
        features=features,
        language=language,
        strings=strings,
    )


def _language(
    data: dict[str, Any], options: dict[str, Any], configs: dict[str, dict[str, Any]]
) -> tuple[str | None, dict[str, Any] | None]:
    """The site's language and the author's ``strings``, read as the plugin reads them.

    The plugin's, the theme's, the extension's (`rollbook.mkdocs_plugin.site_language`).
    """
    theme = data.get("theme")
    ours = next((configs[n] for n in EXTENSION_NAMES if isinstance(configs.get(n), dict)), {})
    codes = [options.get("language")]
    if isinstance(theme, dict):
        codes += [theme.get("language"), theme.get("locale")]
    codes.append(ours.get("language"))
    language = next((str(code).strip() for code in codes if code), None)
    strings = options.get("strings") or ours.get("strings") or None
    return language, dict(strings) if isinstance(strings, dict) else None


#: Extensions MkDocs always adds before the site's own (``mkdocs.config.defaults``).
BUILTIN_EXTENSIONS = ("toc", "tables", "fenced_code")


def _entries(value: object, key: str, noun: str) -> list[tuple[Any, Any]]:
    """A ``key:`` setting read as MkDocs reads it: ``(name, options)`` pairs.

    MkDocs takes a mapping of names to options, or a list whose items are names or
    one-key mappings of a name to its options; ``noun`` names what the names are.
    """
    if isinstance(value, dict):
        return list(value.items())
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list of {noun} names.")
    a_name = f"{'an' if noun[0] in 'aeiou' else 'a'} {noun} name"
    entries: list[tuple[Any, Any]] = []
    for item in value:
        if isinstance(item, dict) and len(item) == 1:
            entries.append(next(iter(item.items())))
        elif isinstance(item, str):
            entries.append((item, None))
        else:
            raise ValueError(f"{key}: {item!r} is not {a_name}.")
    return entries


def _extensions(value: object) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """``markdown_extensions`` read as MkDocs reads it: names and their options."""
    items = _entries([] if value is None else value, "markdown_extensions", "extension")
    names: list[str] = list(BUILTIN_EXTENSIONS)
    configs: dict[str, dict[str, Any]] = {}
    for name, options in items:
        if not isinstance(name, str):
            raise ValueError(f"markdown_extensions: {name!r} is not an extension name.")
        if options and not isinstance(options, dict):
            raise ValueError(f"markdown_extensions: the options of {name!r} must be a mapping.")
        if options:
            configs[name] = dict(options)
        if name not in names:
            names.append(name)
    return names, configs


def _rollbook_options(value: object) -> dict[str, Any] | None:
    """The options of the ``rollbook`` plugin entry ({} without any); None if not listed."""
    if value is None:
        return None
    for name, options in _entries(value, "plugins", "plugin"):
        if name == "rollbook":
            if options is not None and not isinstance(options, dict):
                raise ValueError("plugins: the options of 'rollbook' must be a mapping.")
            return dict(options or {})
    return None


def _validated(options: dict[str, Any], path: Path) -> dict[str, Any]:
    """The ``rollbook`` options checked by the plugin's own settings schema (no other code)."""
    from rollbook.mkdocs_plugin.config import RollbookConfig
    from rollbook.mkdocs_plugin.safe_config import ConfigRefused

    config = RollbookConfig(config_file_path=str(path))
    config.load_dict(options)
    errors, _warnings = config.validate()
    if errors:
        name, error = errors[0]
        raise ConfigRefused(f"{path}: the rollbook setting {name!r} is not valid: {error}")
    return dict(config)


def _local_module(name: str, folders: tuple[Path, ...]) -> str | None:
    """Where ``name``'s top-level module is, if an import would take it from ``folders``.

    Only a module not yet imported counts, found through the first ``sys.path`` entry
    that holds it (``python -m`` puts the current folder first).
    """
    import sys
    from importlib.machinery import PathFinder

    top = name.partition(":")[0].split(".")[0]
    if not top or top in sys.modules:
        return None
    for entry in sys.path:
        spec = PathFinder.find_spec(top, [entry])
        if spec is None:
            continue
        if Path(entry or ".").resolve() not in folders:
            return None
        return str(spec.origin or next(iter(spec.submodule_search_locations or []), top))
    return None


def _load_extensions(extensions: list[str], configs: dict[str, Any], path: Path) -> None:
    """Refuse, in one sentence, an extension Markdown cannot load (as MkDocs would)."""
    import markdown

    from rollbook.mkdocs_plugin.safe_config import ConfigRefused

    for name in extensions:
        try:
            markdown.Markdown().registerExtensions((name,), configs)
        except Exception as err:
            raise ConfigRefused(
                f"{path}: the Markdown extension {name!r} cannot be loaded "
                f"({type(err).__name__}: {err})."
            ) from None
