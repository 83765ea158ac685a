import sys

from plugins.cli import main

sys.exit(main())
