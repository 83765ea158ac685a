"""The author's mkdocs.yml with rollbook added, for generators that run no MkDocs plugin.

Zensical reads mkdocs.yml but skips ``plugins:``, so what the plugin adds at ``on_config``
(the ``rollbook`` Markdown extension with its presets, our superfences fences, the module
script and the stylesheet) must be in the file it reads. :func:`derive` reads the author's
file as data, keeping every tag it does not know as it was written (``!ENV``,
``!!python/name:``, ...; nothing is constructed, so nothing runs here), adds what is
missing exactly as the plugin would (:func:`rollbook.mkdocs_plugin.markdown_setup.
add_rollbook_markdown`), and writes the result beside the original (the generator resolves
``docs_dir`` against the config's folder). The author's file is never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rollbook.markup.yamlsize import read_mapping

__all__ = ["DERIVED_NAME", "ConfigProblem", "Derived", "Tagged", "derive", "dump_data", "load_data"]

#: The derived file's name, beside the author's config (hidden; remove it freely).
DERIVED_NAME = ".rollbook-derived.yml"
SCRIPT = "assets/rollbook/rollbook.js"
STYLESHEET = "assets/rollbook/rollbook.css"
#: The plugin's site-wide options (their defaults: ``rollbook.mkdocs_plugin.config``).
SITE_OPTIONS = (
    "enabled", "pyodide_path", "pyodide_required", "wheels_icepool", "snapshot",
    "snapshot_cache", "gm_screen", "offline",
)  # fmt: skip


def _site_defaults() -> dict[str, Any]:
    """The plugin's defaults of ``SITE_OPTIONS``, from its settings schema (one home)."""
    from rollbook.mkdocs_plugin.config import RollbookConfig

    schema = dict(RollbookConfig._schema)
    return {name: schema[name].default for name in SITE_OPTIONS}


class ConfigProblem(ValueError):
    """The config cannot be read as a mapping of settings; one sentence naming the file."""


@dataclass
class Tagged:
    """A node with a tag this reader does not construct, kept to be written back as it was."""

    tag: str
    value: Any
    style: str | None = field(default=None, compare=False)


class _Reader(yaml.SafeLoader):
    pass


def _keep(loader: _Reader, suffix: str, node: yaml.Node) -> Tagged:
    if isinstance(node, yaml.ScalarNode):
        return Tagged(node.tag, loader.construct_scalar(node), node.style)
    if isinstance(node, yaml.SequenceNode):
        return Tagged(node.tag, loader.construct_sequence(node, deep=True))
    return Tagged(node.tag, loader.construct_mapping(node, deep=True))  # type: ignore[arg-type]


_Reader.add_multi_constructor("", _keep)


class _Writer(yaml.SafeDumper):
    pass


def _write_tagged(dumper: _Writer, data: Tagged) -> yaml.Node:
    if isinstance(data.value, list):
        return dumper.represent_sequence(data.tag, data.value)
    if isinstance(data.value, dict):
        return dumper.represent_mapping(data.tag, data.value)
    return dumper.represent_scalar(data.tag, str(data.value), style=data.style)


def _write_callable(dumper: _Writer, data: Callable[..., Any]) -> yaml.Node:
    # Our fences' functions: Zensical (and MkDocs) accept their dotted names.
    name = f"{data.__module__}.{data.__qualname__}"
    return dumper.represent_scalar("tag:yaml.org,2002:python/name:" + name, "")


_Writer.add_representer(Tagged, _write_tagged)
_Writer.add_representer(type(lambda: None), _write_callable)


def _read_toml(path: Path) -> dict[str, Any]:
    """zensical.toml: its ``[project]`` table holds what mkdocs.yml holds at the top."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigProblem(f"{path}: cannot be read ({type(err).__name__}).") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigProblem(f"{path}: not valid TOML ({err}).") from None
    project = data.get("project", data)
    if not isinstance(project, dict):
        raise ConfigProblem(f"{path}: [project] must be a table of settings.")
    return project


def _read(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    if path.suffix.lower() == ".toml":
        return _read_toml(path)
    data = read_mapping(path, _Reader, ConfigProblem)  # a SafeLoader: tags kept, never run
    parent = data.pop("INHERIT", None)
    if parent is None:
        return data
    parent_path = (path.parent / str(parent)).resolve()
    if parent_path in seen or not parent_path.is_file():
        raise ConfigProblem(f"{path}: INHERIT names {parent}, which cannot be read.")
    return _merge(_read(parent_path, (*seen, parent_path)), data)


def load_data(config_file: Path) -> dict[str, Any]:
    """The config as data (INHERIT merged, unknown tags kept as :class:`Tagged`).

    Raises:
        ConfigProblem: the file cannot be read as a mapping of settings.
    """
    path = Path(config_file)
    return _read(path, (path.resolve(),))


def dump_data(data: dict[str, Any]) -> str:
    """YAML for ``data``, tags written back as they were read; our functions by name."""
    return yaml.dump(data, Dumper=_Writer, sort_keys=False, allow_unicode=True)


def _merge(base: Any, over: Any) -> Any:
    """As Zensical merges INHERIT (deepmerge's always_merger): maps merge, lists append."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = _merge(base[key], value) if key in base else value
        return out
    if isinstance(base, list) and isinstance(over, list):
        return base + over
    return over


def _extensions(value: Any) -> tuple[list[str], dict[str, Any]]:
    """``markdown_extensions`` (a list or a mapping) as names and their options."""
    names: list[str] = []
    configs: dict[str, Any] = {}
    items = list(value.items()) if isinstance(value, dict) else None
    if items is None:
        items = []
        for entry in value if isinstance(value, list) else []:
            if isinstance(entry, dict):
                items.extend(entry.items())
            else:
                items.append((entry, None))
    hoisted: list[
        tuple[Any, Any]
    ] = []  # zensical.toml may group pymdownx's extensions under one key
    for name, options in items:
        if name == "pymdownx" and isinstance(options, dict):
            hoisted.extend((f"pymdownx.{sub}", opts) for sub, opts in options.items())
        else:
            hoisted.append((name, options))
    for name, options in hoisted:
        key = str(name)
        names.append(key)
        if options is not None:
            configs[key] = options
    return names, configs


def _plugin_options(plugins: Any) -> dict[str, Any]:
    """The rollbook plugin's options in ``plugins:`` (none when it is not listed)."""
    entries = list(plugins.items()) if isinstance(plugins, dict) else []
    if isinstance(plugins, list):
        for entry in plugins:
            entries.extend(entry.items() if isinstance(entry, dict) else [(entry, None)])
    for name, options in entries:
        if name == "rollbook":
            return dict(options) if isinstance(options, dict) else {}
    return {}


def _has_entry(entries: list[Any], path: str) -> bool:
    for entry in entries:
        if isinstance(entry, dict):
            entry = entry.get("path")
        if isinstance(entry, str) and entry.lstrip("./") == path:
            return True
    return False


@dataclass
class Derived:
    """The derived config's path and the plugin's site-wide settings read from it."""

    path: Path
    site_dir: Path
    options: dict[str, Any] = field(default_factory=dict)
    #: The docs folder as messages and table references name it (``docs``).
    docs_prefix: str = "docs"
    directory_urls: bool = True
    #: The readers' language: the plugin's ``language``, else the theme's, else ``en``
    #: (as `rollbook.mkdocs_plugin.site_language` reads it); and the author's ``strings``.
    language: str = "en"
    strings: dict[str, Any] = field(default_factory=dict)


def derive(config_file: Path) -> Derived:
    """Write the derived config beside ``config_file``; return where and the site settings.

    Raises:
        ConfigProblem: the file cannot be read, or a setting has the wrong type.
    """
    from rollbook.mkdocs_plugin.markdown_setup import EXTENSION_NAMES, add_rollbook_markdown

    source = Path(config_file)
    data = load_data(source)
    plugin = _plugin_options(data.get("plugins"))
    defaults = _site_defaults()
    options = {**defaults, **{k: v for k, v in plugin.items() if k in SITE_OPTIONS}}
    for key, default in defaults.items():
        value = options[key]
        wanted = type(default) if default is not None else str
        if value is not None and not isinstance(value, wanted):
            raise ConfigProblem(
                f"{source}: the rollbook option {key!r} must be {wanted.__name__}, not {value!r}."
            )
    language, strings = _language(plugin, data.get("theme"))
    if options["enabled"] and plugin.get("configure_markdown", True) is not False:
        names, configs = _extensions(data.get("markdown_extensions"))
        add_rollbook_markdown(names, configs)
        name = next(n for n in names if n in EXTENSION_NAMES)
        found = configs.get(name)
        own: dict[str, Any] = dict(found) if isinstance(found, dict) else {}
        presets = plugin.get("presets")
        if isinstance(presets, dict) and presets:
            own["presets"] = {**(own.get("presets") or {}), **presets}
        # The pages speak the site's language (a page's front matter `language:` wins).
        language = str(own.get("language") or language)
        strings = dict(own.get("strings") or strings)
        if language != "en":
            own["language"] = language
        if strings:
            own["strings"] = strings
        if own:
            configs[name] = own
        data["markdown_extensions"] = [{n: configs[n]} if n in configs else n for n in names]
        scripts = list(data.get("extra_javascript") or [])
        if not _has_entry(scripts, SCRIPT):
            scripts.append({"path": SCRIPT, "type": "module"})
        data["extra_javascript"] = scripts
        sheets = list(data.get("extra_css") or [])
        if not _has_entry(sheets, STYLESHEET):
            sheets.append(STYLESHEET)
        data["extra_css"] = sheets
    target = source.parent / DERIVED_NAME
    header = (
        f"# Written by rollbook from {source.name} for a generator without MkDocs plugins;\n"
        "# rebuilt on every `rollbook build`/`serve`. Edit the original, not this.\n"
    )
    target.write_text(header + dump_data(data), encoding="utf-8")
    site_dir = data.get("site_dir")
    folder = site_dir if isinstance(site_dir, str) and site_dir else "site"
    docs = data.get("docs_dir")
    docs_path = Path(docs if isinstance(docs, str) and docs else "docs")
    root = source.parent.resolve()
    if docs_path.is_absolute() and docs_path.resolve().is_relative_to(root):
        docs_path = docs_path.resolve().relative_to(root)
    return Derived(
        target,
        (source.parent / folder).resolve(),
        options,
        docs_prefix=docs_path.as_posix(),
        directory_urls=data.get("use_directory_urls", True) is not False,
        language=language,
        strings=strings,
    )


def _language(plugin: dict[str, Any], theme: Any) -> tuple[str, dict[str, Any]]:
    """The plugin's ``language`` and ``strings``, the theme's ``language``/``locale``."""
    theme = theme if isinstance(theme, dict) else {}
    for code in (plugin.get("language"), theme.get("language"), theme.get("locale")):
        if isinstance(code, str) and code.strip():
            language = code.strip()
            break
    else:
        language = "en"
    strings = plugin.get("strings")
    return language, dict(strings) if isinstance(strings, dict) else {}
