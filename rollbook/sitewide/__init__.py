"""The site-wide step, for every generator: what a built site needs from rollbook, in order.

:mod:`~rollbook.sitewide.finish` runs it (the MkDocs plugin after its build, ``rollbook
assets`` after any other, ``rollbook build``/``serve`` after Zensical's): the runtime files
(:mod:`rollbook.site_runtime`), the GM screen page (:mod:`~rollbook.sitewide.gm_page`), the
copies of referenced tables (:mod:`~rollbook.sitewide.refs_refresh`) and the offline
service worker (:mod:`rollbook.offline`); :mod:`~rollbook.sitewide.author_problems` finds the
author problems a built site still shows, for ``--strict``.
"""
