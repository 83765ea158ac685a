"""The released package as a user gets it: ``pip install rollbook``, one line in mkdocs.yml.

One wheel (``make dist``), one fresh venv with it and the newest mkdocs-material from the
package index, and commands run with a PATH that has neither node nor npm.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import rollbook
from rollbook.site_runtime.runtime import PYODIDE_VERSION
from tests.browser.conftest import READY_TIMEOUT_MS
from tests.browser.server import serve, snapshot_forced

REPO = Path(__file__).resolve().parents[2]
SiteFactory = Callable[[str, str, dict[str, str]], Path]

PAGE = textwrap.dedent("""\
    # Encounters

    Roll ![roll:1d20]() under your Agility.

    ## Reaction

    ```roll-table
    id: reaction
    roll: 2d6
    results:
      2--5: Hostile
      6--8: Wary
      9--12: Friendly
    ```

    ```roll-list
    id: loot
    results:
      - Lantern
      - Rope
    ```

    ```statblock
    system: dark-dungeons
    name: Orc
    hp: 6
    damage: 1d8
    ```

    ```combat
    system: dark-dungeons
    sides:
      party:
        - name: Hero
          hp: 8
          damage: 1d8
      foes:
        - orc
    ```
""")
# A site whose own folders are named like rollbook's old top-level packages.
OWN_MODULES = {
    "plugins/__init__.py": "",
    "plugins/markup.py": "NAME = 'the site's own plugins package'\n",
    "engine/__init__.py": "",
    "engine/dice.py": "def roll() -> int:\n    return 4\n",
}
ZERO_CONFIG = (
    "site_name: Test rules\ntheme:\n  name: material\nplugins:\n  - search\n  - rollbook\n"
)


def run(bin_dir: Path, env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess:
    command = [str(bin_dir / args[0]), *args[1:]]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def log_lines(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if re.match(r"(WARNING|ERROR)\b", line)]


@pytest.fixture(scope="module")
def user_site(
    installed_venv: Path, no_node_env: dict[str, str], site_factory: SiteFactory
) -> Iterator[tuple[str, Path, subprocess.CompletedProcess]]:
    """(URL, folder, build) of the zero-config site, built strictly by the venv's mkdocs."""
    root = site_factory("user-site", ZERO_CONFIG, {"docs/index.md": PAGE, **OWN_MODULES})
    # `python -m` puts the site's folder first on sys.path: its own plugins/ and engine/
    # would shadow packages of those names.
    command = ("python", "-m", "mkdocs", "build", "--strict")
    built = run(installed_venv, no_node_env, *command, cwd=root)
    assert built.returncode == 0, built.stderr
    with serve(root / "site") as base:
        yield base, root, built


def test_make_dist_writes_the_wheel_with_pyodide_and_a_snapshot(dist_wheel: Path) -> None:
    assert dist_wheel.parent == REPO / "dist"
    assert dist_wheel.name == f"rollbook-{rollbook.__version__}-py3-none-any.whl"
    names = set(zipfile.ZipFile(dist_wheel).namelist())
    pyodide = "rollbook/runtime/pyodide/"
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "package.json"):
        assert pyodide + name in names
    assert pyodide + "LICENSE" in names
    assert [n for n in names if n.startswith("rollbook/runtime/snapshots/snapshot-")]
    # The standard library, the engine and icepool compiled by that Pyodide (bytecode.py).
    assert len([n for n in names if n.startswith("rollbook/runtime/bytecode/bytecode-")]) == 3
    assert f"rollbook-{rollbook.__version__}.dist-info/licenses/LICENSE" in names


def test_make_dist_is_byte_identical_on_a_second_run(dist_wheel: Path, tmp_path: Path) -> None:
    script = REPO / "scripts" / "make_dist.py"
    subprocess.run([sys.executable, str(script), "--out", str(tmp_path)], check=True, cwd=REPO)
    (again,) = tmp_path.glob("rollbook-*.whl")
    assert again.name == dist_wheel.name
    assert again.read_bytes() == dist_wheel.read_bytes()


def test_the_distribution_adds_one_import_name(installed_venv: Path) -> None:
    (record,) = installed_venv.parent.glob("lib/python*/site-packages/rollbook-*.dist-info/RECORD")
    top = set()
    for line in record.read_text(encoding="utf-8").splitlines():
        first = line.split(",")[0].split("/")[0]
        if first and first != ".." and not first.endswith(".dist-info"):
            top.add(first)
    assert top == {"rollbook"}


def test_version_and_metadata(installed_venv: Path, no_node_env: dict[str, str]) -> None:
    done = run(installed_venv, no_node_env, "rollbook", "--version", cwd=installed_venv)
    assert done.stdout.strip() == f"rollbook {rollbook.__version__}"


def test_zero_config_site_builds_strictly_without_node(
    user_site: tuple[str, Path, subprocess.CompletedProcess],
) -> None:
    _, root, built = user_site
    assert log_lines(built) == []
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    for widget in ('class="rb-inline"', "rb-table", "rb-statblock", "rb-combat"):
        assert widget in html
    manifest = json.loads((root / "site/assets/rollbook/manifest.json").read_text())
    assert manifest["pyodide_version"] == PYODIDE_VERSION
    # The bytecode and snapshot that came with the wheel: this PATH has no node to make them.
    assert manifest["bytecode"] == ["engine", "icepool", "stdlib"]
    assert manifest["snapshot"].startswith("snapshot-")


def test_in_chromium_the_rolls_answer_and_a_seeded_link_equals_the_cli(
    page: Page,
    user_site: tuple[str, Path, subprocess.CompletedProcess],
    installed_venv: Path,
    no_node_env: dict[str, str],
) -> None:
    base, root, _ = user_site
    with snapshot_forced(base):
        page.goto(base)
        page.wait_for_function(
            "document.documentElement.dataset.rbEngine === 'ready'", timeout=READY_TIMEOUT_MS
        )
    assert page.evaluate("window.rollbook.restored") is True  # the bundled snapshot
    inline = page.locator(".rb-inline").first
    inline.locator("button.rb-roll").click()
    expect(inline.locator("output.rb-out")).to_have_text(re.compile(r"^(1[0-9]|20|[1-9])$"))
    table = page.locator(".rb-table[data-rb-anchor=reaction]")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    expect(table.locator(".rb-result")).to_contain_text(re.compile("Hostile|Wary|Friendly"))

    page.goto(f"{base}?roll=reaction&seed=31#reaction")
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=READY_TIMEOUT_MS)
    row = int(table.locator("[aria-current=true]").get_attribute("data-rb-row") or "-1")
    command = ("rollbook", "table", "docs/index.md", "reaction", "--seed", "31", "--json")
    cli = run(installed_venv, no_node_env, *command, cwd=root)
    assert cli.returncode == 0, cli.stderr
    reply = json.loads(cli.stdout)
    assert (row, table.locator(".rb-result").inner_html()) == (reply["row"], reply["text"])


def test_the_readthedocs_theme_works_too(
    installed_venv: Path, no_node_env: dict[str, str], site_factory: SiteFactory
) -> None:
    yml = "site_name: t\ntheme:\n  name: readthedocs\nplugins:\n  - rollbook\n"
    root = site_factory("rtd-site", yml, {"docs/index.md": PAGE})
    built = run(installed_venv, no_node_env, "mkdocs", "build", "--strict", cwd=root)
    assert built.returncode == 0 and log_lines(built) == [], built.stderr
    assert 'class="rb-inline"' in (root / "site" / "index.html").read_text(encoding="utf-8")


MISCONFIGURED = {
    "plugin option under the extension": (
        "plugins: [rollbook]\nmarkdown_extensions:\n  - rollbook:\n      snapshot: false\n",
        "ERROR   -  rollbook: `snapshot` is an option of the rollbook MkDocs plugin, not of the "
        "Markdown extension: move it under `plugins: - rollbook:` in mkdocs.yml.",
    ),
    "extension turned off": (
        "plugins:\n  - rollbook:\n      configure_markdown: false\n",
        "WARNING -  rollbook: the plugin's `configure_markdown: false` leaves out the `rollbook` "
        "Markdown extension, so rolls render as broken images: add `- rollbook` under "
        "`markdown_extensions`, or drop `configure_markdown: false`.",
    ),
    "extension without the fences": (
        "plugins:\n  - rollbook:\n      configure_markdown: false\n"
        "markdown_extensions:\n  - rollbook\n",
        "WARNING -  docs/index.md:7: roll-table: this block was not rendered (it shows as code): "
        "pymdownx.superfences does not list rollbook's `roll-table` fence. Use the MkDocs plugin "
        "`rollbook` (it adds the fences), or add rollbook's fences to superfences' "
        "`custom_fences` (see the README).",
    ),
    "wrong Pyodide version": (
        "plugins:\n  - rollbook:\n      pyodide_path: old-pyodide\n",
        f"ERROR   -  rollbook: found Pyodide 0.27.1 in {{root}}/old-pyodide (the folder named "
        f"for Pyodide), rollbook {rollbook.__version__} needs Pyodide {PYODIDE_VERSION}.",
    ),
}


@pytest.mark.parametrize("case", MISCONFIGURED)
def test_each_misconfiguration_gives_its_sentence(
    case: str, installed_venv: Path, no_node_env: dict[str, str], site_factory: SiteFactory
) -> None:
    yml, sentence = MISCONFIGURED[case]
    old = {"old-pyodide/pyodide.mjs": "", "old-pyodide/package.json": '{"version": "0.27.1"}'}
    root = site_factory("misconfigured", "site_name: t\n" + yml, {"docs/index.md": PAGE, **old})
    built = run(installed_venv, no_node_env, "mkdocs", "build", "--strict", cwd=root)
    assert built.returncode == 1
    assert "Traceback" not in built.stderr and "KeyError" not in built.stderr
    assert log_lines(built)[0] == sentence.format(root=root)


def test_a_site_without_pyodide_still_loads_our_scripts_and_says_why(
    page: Page, installed_venv: Path, no_node_env: dict[str, str], site_factory: SiteFactory
) -> None:
    yml = (
        "site_name: t\ntheme: material\nplugins:\n  - rollbook:\n"
        "      pyodide_required: false\n      pyodide_path: nowhere\n"
    )
    root = site_factory("no-runtime", yml, {"docs/index.md": PAGE})
    built = run(installed_venv, no_node_env, "mkdocs", "build", "--strict", cwd=root)
    assert built.returncode == 0 and log_lines(built) == [], built.stderr
    assert "pyodide_required: false" in built.stderr  # said, as information
    with serve(root / "site") as base:
        page.goto(base)
        inline = page.locator(".rb-inline").first
        inline.locator("button.rb-roll").click()  # the scripts loaded: the button answers
        expect(inline.locator("output.rb-out")).to_have_text(
            "The dice engine could not start: this site has no dice runtime."
        )
