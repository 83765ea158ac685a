"""Python-Markdown extensions for the roll markup: inline rolls and roll-table/roll-list fences.

Everything that turns markup into HTML lives here (not in the MkDocs plugin), so any
Python-Markdown host runs it unchanged: MkDocs, Zensical, or plain ``markdown.markdown``.
"""

from rollbook.markup import moved
from rollbook.markup.problems import PageContext, Problem, page_context

moved.install()

__all__ = ["PageContext", "Problem", "page_context"]
