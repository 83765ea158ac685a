"""Offline reading: the service worker the build writes (``service_worker``).

Its browser code is ``rollbook/assets/offline/``; the page's "Save this site" control is
``rollbook/assets/page/offline.js``.
"""
