"""Load an mkdocs.yml without running anything it says, for the command line's page commands.

MkDocs reads its config with PyYAML's full loader, where a tag such as
``!!python/object/apply:os.system`` calls a function while the file is read. A checker that
reads a config must never do that. :func:`load_safely` uses the safe loader plus only what
an MkDocs config needs:

- ``!!python/name:MODULE.NAME`` gives the named object without calling it, and only for
  modules of the Markdown tool chain (:data:`NAME_MODULES`): a named function is called
  later (a fence formatter is called with the page's text), so ``os.system`` or
  ``rollbook.cli.main`` are refused like any other tag;
- ``!ENV`` and ``!relative``, exactly as MkDocs reads them;
- ``INHERIT: base.yml``, read the same way and merged as MkDocs merges it.

Every other tag is refused with one sentence naming the file and the line. The YAML limits
of `rollbook.markup.yamlsize` apply too. The result is plain data: MkDocs' validation, which
imports ``hooks:`` and plugins, never runs (`rollbook.mkdocs_plugin.site_config` takes what
the page commands need from it).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import yaml

from rollbook.markup.yamlsize import read_mapping

__all__ = ["NAME_MODULES", "ConfigRefused", "load_safely"]

#: Packages whose objects ``!!python/name:`` may name (fence formatters, slugifiers, emoji
#: indexes): Python-Markdown, its extensions and themes, and rollbook's Markdown side only.
NAME_MODULES = ("markdown", "pymdownx", "material", "rollbook.markup")

_NAME_TAG = "tag:yaml.org,2002:python/name:"


class ConfigRefused(ValueError):
    """The config asks for something the checker will not do; one sentence with file:line."""


class _NameOnlyLoader(yaml.SafeLoader):
    """The safe loader, plus ``!!python/name:`` references into :data:`NAME_MODULES`."""

    source = "mkdocs.yml"


def _where(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    return f"{getattr(loader, 'source', 'mkdocs.yml')}:{node.start_mark.line + 1}"


def _construct_name(loader: _NameOnlyLoader, suffix: str, node: yaml.Node) -> Any:
    module_name, _, attr = suffix.rpartition(".")
    allowed = any(module_name == m or module_name.startswith(f"{m}.") for m in NAME_MODULES)
    if not allowed or not attr:
        raise ConfigRefused(
            f"{_where(loader, node)}: the reference !!python/name:{suffix} is refused; "
            f"rollbook reads names only under {', '.join(NAME_MODULES)}."
        )
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError):
        raise ConfigRefused(
            f"{_where(loader, node)}: !!python/name:{suffix} names nothing that is installed."
        ) from None


def _refuse(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    tag = node.tag.replace("tag:yaml.org,2002:", "!!", 1)
    raise ConfigRefused(
        f"{_where(loader, node)}: the tag {tag} is refused; rollbook reads only plain "
        "YAML, !ENV, !relative and !!python/name: references."
    )


_NameOnlyLoader.add_multi_constructor(_NAME_TAG, _construct_name)


def _loader_for(config: Any, source: Path) -> type[yaml.SafeLoader]:
    from mkdocs.utils.yaml import get_yaml_loader

    loader = get_yaml_loader(loader=_NameOnlyLoader, config=config)
    loader.source = str(source)
    # Last, so the tags above keep their constructors: anything else is refused.
    loader.add_multi_constructor("", _refuse)
    return loader


def _read(path: Path, config: Any, seen: tuple[Path, ...]) -> dict[str, Any]:
    data = read_mapping(path, _loader_for(config, path), ConfigRefused)
    parent_name = data.pop("INHERIT", None)
    if parent_name is None:
        return data
    parent = (path.parent / str(parent_name)).resolve()
    if parent in seen:
        raise ConfigRefused(f"{path}: INHERIT comes back to {parent}.")
    if not parent.is_file():
        raise ConfigRefused(f"{path}: INHERIT names {parent_name}, which does not exist.")
    from mergedeep import merge  # an MkDocs dependency, used the same way there

    merged: dict[str, Any] = merge(_read(parent, config, (*seen, parent)), data)
    return merged


def load_safely(config_file: Path) -> dict[str, Any]:
    """The settings of ``config_file`` as plain data, read without running anything.

    Only the YAML is read (with ``INHERIT`` merged): MkDocs' own validation is not run,
    since it imports the ``hooks:`` modules and every plugin named; the caller takes the
    few settings it needs and checks them itself.

    Raises:
        ConfigRefused: a refused tag or name, or a YAML error.
    """
    from mkdocs.config.defaults import MkDocsConfig

    path = Path(config_file)
    config = MkDocsConfig(config_file_path=str(path))  # for !relative only; never validated
    return _read(path, config, (path.resolve(),))
