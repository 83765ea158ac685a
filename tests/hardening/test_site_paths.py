"""Path options of the plugin name places inside the site, or the build stops at the config.

``gm_screen``, ``assets_javascript`` and ``assets_stylesheet`` are site paths: what the
plugin writes there must land inside ``site_dir`` and be addressed under the site's base.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

OPTIONS = ("gm_screen", "assets_javascript", "assets_stylesheet")
HOSTILE = [
    "../x", "../../mkdocs.yml", "a/../../b", "/etc/x", "./gm", "a//b", "a\\\\..\\\\b",
    "https://example.com/x.js", "//example.com/x", "%2e%2e/x", "gm/?x=1", "gm\\t/",
]  # fmt: skip


def _load(tmp_path: Path, option: str, value: str) -> object:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "mkdocs.yml").write_text(
        f'site_name: t\nplugins:\n  - rollbook:\n      {option}: "{value}"\n', encoding="utf-8"
    )
    return load_config(str(tmp_path / "mkdocs.yml"))


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("value", HOSTILE)
def test_a_path_leaving_the_site_is_a_config_error(tmp_path, caplog, option, value) -> None:
    with pytest.raises(Abort):
        _load(tmp_path, option, value)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert f"{option}" in said and "must be a path inside the site" in said, said


@pytest.mark.parametrize(
    ("option", "value"),
    [("gm_screen", "tools/gm/"), ("gm_screen", ""), ("assets_javascript", "js/rb.js")],
)
def test_paths_inside_the_site_are_kept(tmp_path, option, value) -> None:
    config = _load(tmp_path, option, value)
    plugin = config.plugins["rollbook"]  # type: ignore[attr-defined]
    assert plugin.config[option] == value
