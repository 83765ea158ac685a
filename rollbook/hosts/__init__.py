"""Running rollbook on generators other than MkDocs (Zensical), through their public APIs.

``derived_config`` writes the author's config again with rollbook's Markdown extension,
fences, script and stylesheet added (read as data: no tag runs); ``zensical`` builds and
serves with it, then does the site-wide step (:mod:`rollbook.sitewide.finish`).
"""
