"""Run the rollbook plugin's own handlers of an event, in MkDocs' order.

Some events have handlers at several priorities (``CombinedEvent``), which are not
callable as methods; a collection holding only our plugin runs them as a build would.
"""

from __future__ import annotations

from mkdocs.plugins import BasePlugin, PluginCollection

__all__ = ["only"]


def only(plugin: BasePlugin) -> PluginCollection:
    """A plugin collection of ``plugin`` alone (``only(plugin).on_post_build(config=c)``)."""
    collection = PluginCollection()
    collection["rollbook"] = plugin
    return collection
