"""One "where + message" type (`rollbook.engine.located`): everyone uses or subclasses it."""

from __future__ import annotations

from rollbook.engine.located import LocatedError, Problem
from rollbook.engine.tables import Problem as TableProblem
from rollbook.engine.tables import Table, TableError


def test_a_table_error_is_a_located_error_whose_problems_are_problems() -> None:
    try:
        Table.from_dict({"roll": "1d6"}, {("roll",): 4})
    except TableError as err:
        assert isinstance(err, LocatedError)
        assert err.problem == Problem(err.line, err.message)
        assert all(isinstance(p, Problem) and isinstance(p, TableProblem) for p in err.problems)
        assert err.problems[0].line == err.line and err.problems[0].message == str(err)
    else:
        raise AssertionError("a table without results must not build")


def test_the_markup_and_the_importer_report_the_engine_s_problem() -> None:
    from rollbook.hugo.scan import Finding, scan
    from rollbook.markup import problems

    assert problems.Problem is Problem
    [finding] = scan("text\n\n{{< youtube abc >}}\n", 10)
    assert isinstance(finding, Finding) and isinstance(finding, Problem)
    assert finding.line == 12 and "youtube" in finding.shortcode


def test_problems_sort_by_line_then_message_and_read_as_their_sentence() -> None:
    found = [Problem(3, "b"), Problem(1, "z", "warning"), Problem(3, "a")]
    assert [(p.line, p.message) for p in sorted(found)] == [(1, "z"), (3, "a"), (3, "b")]
    assert str(Problem(2, "the body is bad.")) == "the body is bad."
