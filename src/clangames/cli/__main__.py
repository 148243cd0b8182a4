"""``python -m clangames.cli``: the same as the ``clangames`` command."""

import sys

from clangames.cli.main import main

sys.exit(main())
