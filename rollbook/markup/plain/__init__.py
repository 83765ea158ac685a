"""What rollbook lights up in pages not written for it: plain dice tables, dice in prose,
Obsidian Dice Roller rolls (each on by default; the extension's and the plugin's
``plain_tables``, ``prose_dice`` and ``obsidian`` options turn them off)."""
