"""Site-wide work shared by the MkDocs plugin and ``rollbook assets``: wheels, Pyodide, manifest."""

from rollbook.site_runtime.build import MANIFEST_NAME, SitewideError, build_site_assets

__all__ = ["MANIFEST_NAME", "SitewideError", "build_site_assets"]
