"""rollbook: a static rules-site generator with live dice.

One import package: ``rollbook.engine`` (pure-Python dice, tables and rule systems; the only
part the browser loads), ``rollbook.markup`` (Python-Markdown extensions),
``rollbook.mkdocs_plugin`` (site-wide work), ``rollbook.site_runtime`` (the files a site serves),
``rollbook.cli`` (the ``rollbook`` command) and ``rollbook.assets`` (browser code).

This module stays import-free: the browser's copy of the engine ships it too.
"""

__version__ = "0.2.0"
