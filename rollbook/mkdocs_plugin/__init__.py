"""The MkDocs plugin ``rollbook``: site-wide work only (markup -> HTML is in rollbook.markup)."""
