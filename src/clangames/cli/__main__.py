"""``python -m clangames.cli``: the same as the ``clangames`` command, except for a Ctrl-C
while clangames loads: Python imports the package before this module runs, so only the
console script (``clangames_launcher``) can end that one with a line and status 130."""

import sys

from clangames.cli.main import main

sys.exit(main())
