"""`python -m cardplay.cli`: the same as the `cardplay` command."""

import sys

from . import main

sys.exit(main())
