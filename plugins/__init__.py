"""rollbook's MkDocs plugin, Markdown extensions, browser assets and CLI."""
