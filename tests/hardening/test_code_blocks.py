"""Every code form Markdown accepts builds with rollbook, and ``rollbook check`` agrees.

A plain code block (no language, an attribute-only info string, an unknown or upper-case
language, indented code, fences nested in lists, quotes and admonitions) is not rollbook's
business: it must build as it does without rollbook, in the zero-config set-up
(``plugins: [rollbook]`` alone) and in an explicit one (our fences listed under
superfences). Our own fences keep rendering when their info string carries attributes.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest

from rollbook.markup.pages import MarkdownSetup, convert_page
from rollbook.mkdocs_plugin.site_config import markdown_setup
from tests.hardening.bounded import rollbook, run_bounded

ROOT = Path(__file__).resolve().parents[2]
TABLE = "roll: 1d2\nresults:\n  1: heads\n  2: tails\n"

# name -> page source; every page holds the word CODEMARK inside its code.
PLAIN: dict[str, str] = {
    "bare_backticks": "# P\n\n```\nCODEMARK = 1\n```\n",
    "bare_tildes": "# P\n\n~~~\nCODEMARK = 1\n~~~\n",
    "four_tildes": "# P\n\n~~~~\nCODEMARK\n~~~\n~~~~\n",
    "long_backticks_nesting": "# P\n\n`````\n```\nCODEMARK\n```\n`````\n",
    "attr_only": "# P\n\n``` {#only-id}\nCODEMARK\n```\n",
    "attr_only_spaced": "# P\n\n```{ #only-id .extra }\nCODEMARK\n```\n",
    "empty_braces": "# P\n\n```{}\nCODEMARK\n```\n",
    "class_lang": "# P\n\n```{.python}\nCODEMARK = 1\n```\n",
    "class_lang_spaced_id": "# P\n\n```{ .python #id }\nCODEMARK = 1\n```\n",
    "lang_then_attrs": "# P\n\n``` python {#py .x}\nCODEMARK = 1\n```\n",
    "options": '# P\n\n```python title="a.py" linenums="1" hl_lines="1"\nCODEMARK = 1\n```\n',
    "unknown_lang": "# P\n\n```no-such-language-x\nCODEMARK\n```\n",
    "upper_case_lang": "# P\n\n```PYTHON\nCODEMARK = 1\n```\n",
    "mixed_case_tilde": "# P\n\n~~~ Rust\nCODEMARK\n~~~\n",
    "indented": "# P\n\nText.\n\n    CODEMARK = 1\n    ![roll:1d6]()\n",
    "tab_indented": "# P\n\nText.\n\n\tCODEMARK\n",
    "in_list": "# P\n\n- item\n\n    ```\n    CODEMARK\n    ```\n\n- other\n",
    "in_list_tilde_lang": "# P\n\n1. step\n\n    ~~~yaml\n    CODEMARK: 1\n    ~~~\n",
    "in_admonition": '# P\n\n!!! note "N"\n\n    ```\n    CODEMARK\n    ```\n',
    "in_blockquote": "# P\n\n> ```\n> CODEMARK\n> ```\n",
    "in_blockquote_lang": "# P\n\n> ```ROLL-TABLE-NOT\n> CODEMARK\n> ```\n",
    "unclosed": "# P\n\n```\nCODEMARK\n",
    "empty_bare": "# P\n\n```\n```\n\nCODEMARK\n",
    "code_span": "# P\n\nSome `CODEMARK` and ``` `tick` ``` here.\n",
    "dialect_name_in_plain_code": "# P\n\n```\n```roll-table\nCODEMARK\n```\n",
    "cell_with_code": (
        "# P\n\n```roll-table\nroll: 1d2\nresults:\n  1: 'use `CODEMARK` here'\n"
        "  2: '<code>x</code>'\n```\n"
    ),
    "our_fence_upper": f"# P\n\nCODEMARK\n\n```ROLL-TABLE\n{TABLE}```\n",
    "our_fence_attrs": f"# P\n\nCODEMARK\n\n``` {{.roll-table #coin}}\n{TABLE}```\n",
    "our_fence_options": f'# P\n\nCODEMARK\n\n```roll-table title="x"\n{TABLE}```\n',
    "our_fence_tildes": f"# P\n\nCODEMARK\n\n~~~~roll-table\n{TABLE}~~~~\n",
}

ZERO_CONFIG = """\
site_name: code
plugins:
  - rollbook:
      pyodide_path: {pyodide}
      snapshot: false
"""
EXPLICIT = """\
site_name: code
plugins:
  - rollbook:
      pyodide_path: {pyodide}
      snapshot: false
      configure_markdown: false
markdown_extensions:
  - toc
  - tables
  - attr_list
  - admonition
  - pymdownx.highlight
  - pymdownx.superfences:
      custom_fences:
        - name: roll-table
          class: rollbook
          validator: !!python/name:rollbook.markup.fences.validator
          format: !!python/name:rollbook.markup.fences.formatter
        - name: roll-list
          class: rollbook
          validator: !!python/name:rollbook.markup.fences.validator
          format: !!python/name:rollbook.markup.fences.formatter
  - rollbook
"""
SETUPS = {"zero-config": ZERO_CONFIG, "explicit": EXPLICIT}


def _site(root: Path, config: str) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# Code\n", encoding="utf-8")
    for name, source in PLAIN.items():
        (docs / f"{name}.md").write_text(source, encoding="utf-8")
    pyodide = ROOT / "node_modules" / "pyodide"
    (root / "mkdocs.yml").write_text(config.format(pyodide=pyodide), encoding="utf-8")
    return root


@pytest.fixture(scope="module", params=sorted(SETUPS))
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site of the whole corpus, built with ``mkdocs build --strict`` in one set-up."""
    root = _site(tmp_path_factory.mktemp(f"code-{request.param}"), SETUPS[request.param])
    done = run_bounded(["mkdocs", "build", "--strict", "-d", str(root / "site")], root)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    return root


def test_every_code_form_builds_and_keeps_its_code(built: Path) -> None:
    for name in PLAIN:
        html = (built / "site" / name / "index.html").read_text(encoding="utf-8")
        assert "CODEMARK" in html, name
    for name in ("our_fence_upper", "our_fence_attrs", "our_fence_options", "our_fence_tildes"):
        html = (built / "site" / name / "index.html").read_text(encoding="utf-8")
        assert 'class="rb-table' in html, name  # our fence is still ours
    cell = (built / "site" / "cell_with_code" / "index.html").read_text(encoding="utf-8")
    assert "<code>CODEMARK</code>" in cell and 'class="rb-table' in cell
    indented = (built / "site" / "indented" / "index.html").read_text(encoding="utf-8")
    assert "![roll:1d6]()" in indented and "rb-inline" not in indented  # code stays code


def test_rollbook_check_agrees_with_the_build(built: Path) -> None:
    done = rollbook(built, "check", "docs")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert re.search(rf"{len(PLAIN) + 1} page\(s\) checked, 0 problem", done.stderr)


@pytest.mark.parametrize("setup_name", sorted(SETUPS))
@pytest.mark.parametrize("name", sorted(PLAIN))
def test_each_form_converts_without_problems(tmp_path: Path, setup_name: str, name: str) -> None:
    root = _site(tmp_path, SETUPS[setup_name])
    result = convert_page(root / "docs" / f"{name}.md", markdown_setup(root / "mkdocs.yml"))
    assert result.problems == [] and "CODEMARK" in result.html


@pytest.mark.parametrize("language", [None, "", "  ", "PyThOn", "{.x}"])
def test_our_fence_tests_take_any_language_superfences_gives(language: str | None) -> None:
    from rollbook.markup.fences import validator

    assert validator(language, {}, {}, {}, markdown.Markdown()) is False  # type: ignore[arg-type]
    html = convert_page_text("```\nCODEMARK\n```\n")
    assert "CODEMARK" in html


def convert_page_text(text: str) -> str:
    """Convert with the default (explicit) extensions, as ``rollbook check`` without a config."""
    setup = MarkdownSetup()
    md = markdown.Markdown(extensions=list(setup.extensions), extension_configs=setup.configs)
    return md.convert(text)
