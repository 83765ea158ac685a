"""What rollbook lights up in pages not written for it.

Plain dice tables, dice in prose and Obsidian Dice Roller rolls, each on by default; the
extension's and the plugin's ``plain_tables``, ``prose_dice`` and ``obsidian`` options (and
a page's front matter) turn them off.
"""
