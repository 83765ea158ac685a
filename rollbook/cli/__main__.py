"""``python -m rollbook.cli``: the ``rollbook`` command."""

import sys

from rollbook.cli import main

sys.exit(main())
