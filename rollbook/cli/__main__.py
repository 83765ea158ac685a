import sys

from rollbook.cli import main

sys.exit(main())
