"""The one fence lifecycle (`rollbook.markup.fence_runner`): a new fence only describes itself."""

from __future__ import annotations

import textwrap

import markdown

from rollbook.markup import superfences
from rollbook.markup.combat import fence as combat_fence
from rollbook.markup.fence_runner import Fence, Parsed, accept, run
from rollbook.markup.problems import Problem, page_context
from rollbook.markup.roll_list import fence as roll_list_fence
from rollbook.markup.roll_table import fence as fences
from rollbook.markup.statblock import fence as statblock_fence
from tests.markup.helpers import EXTENSIONS


class Toy(Fence):
    """A fence written only as a description: body "ok", "bad" or "crash"."""

    NAME = "toy"
    KIND = "toy"
    ERROR_TITLE = "This toy has errors"

    def parse(self) -> Parsed:
        text = self.src.strip()
        if text == "crash":
            raise RuntimeError("boom")
        if text == "bad":
            return Parsed(problems=[Problem(2, "the body is bad.")])
        note = Problem(3, "a note for the author.", "warning")
        return Parsed(text, "toy-id", [note], blocking=False)

    def render(self, parsed: Parsed, anchor: str, own_id: bool, errors: list[str]) -> str:
        return f'<div class="toy" data-anchor="{anchor}" data-own="{own_id}">{parsed.value}</div>'


def toy_formatter(
    src: str, language: str, class_name: str, options: object, md: object, **kw: object
) -> str:
    return run(Toy, src, md)  # type: ignore[arg-type]


def convert(src: str) -> tuple[str, list[tuple[int, str, str]]]:
    toy = {"name": "toy", "class": "toy", "validator": accept, "format": toy_formatter}
    md = markdown.Markdown(
        extensions=EXTENSIONS,
        extension_configs={"pymdownx.superfences": {"custom_fences": [toy]}},
    )
    with page_context("page.md") as ctx:
        html = md.convert(textwrap.dedent(src).lstrip("\n"))
    return html, [(p.line, p.severity, p.message) for p in sorted(ctx.problems)]


def test_a_described_fence_gets_problems_and_anchors_from_the_runner() -> None:
    html, problems = convert("```toy\nok\n```\n\n```toy\nok\n```\n")
    assert '<div class="toy" data-anchor="toy-id" data-own="True">ok</div>' in html
    assert '<div class="toy" data-anchor="toy-id-2" data-own="True">ok</div>' in html
    assert (3, "warning", "toy: a note for the author.") in problems
    clash = [m for _, _, m in problems if "already used" in m]
    assert clash == [
        "toy: the id 'toy-id' is already used on this page; this block's anchor is 'toy-id-2'."
    ]


def test_a_blocking_problem_becomes_the_error_box() -> None:
    html, problems = convert("```toy\nbad\n```\n")
    assert "This toy has errors" in html and "line 2: toy: the body is bad." in html
    assert 'class="toy"' not in html
    assert problems == [(2, "error", "toy: the body is bad.")]


def test_a_crash_in_any_step_is_one_problem_never_a_traceback() -> None:
    html, problems = convert("```toy\ncrash\n```\n")
    assert "could not be built (RuntimeError: boom)." in html
    assert [m for _, _, m in problems] == ["toy: could not be built (RuntimeError: boom)."]


def test_the_configured_hook_names_are_the_runner_s() -> None:
    """mkdocs.yml files name these functions; they must stay and run the shared lifecycle."""
    import pickle

    for module in (fences, roll_list_fence, statblock_fence, combat_fence, superfences):
        for hook in (module.validator, module.formatter):
            assert pickle.loads(pickle.dumps(hook)) is hook  # hosts such as Zensical pickle them
    assert statblock_fence.validator is combat_fence.validator is accept
    names = [f["name"] for f in superfences.CUSTOM_FENCES]
    assert names == ["roll-table", "roll-list", "statblock", "combat"]


def test_no_markup_module_imports_the_extension() -> None:
    """The per-page state has its own module; the extension only registers it (no cycles)."""
    import pathlib

    import rollbook.markup as markup

    for path in pathlib.Path(markup.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "rollbook.markup.extension import" not in text, path.name
