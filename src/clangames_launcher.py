"""The ``clangames`` console script's entry point.

Loading clangames takes about a fifth of a second, and a Ctrl-C in that time would end in a
traceback, since the command's own handling is not in place yet. This module imports the
command inside a guard, so an early Ctrl-C ends like any other: one line and exit status
130. It lives outside the ``clangames`` package because importing anything inside the
package runs the package's ``__init__``, which loads every game, first.

One window stays open: the milliseconds in which the interpreter starts (site, then the
installer-generated script importing `re` and this module). A Ctrl-C there is Python's own (a
traceback through the standard library, none of it clangames code, or inside `site` a "Fatal
Python error" with status 1); closing it would need a native launcher, which a pure-Python
package cannot install portably. This module's own body is kept to what cannot be
interrupted for long: ``sys`` is built in, and no ``from __future__`` import (which reads a
module from disk) comes before the guard.
"""

import sys

INTERRUPTED_EXIT = 130
"""The exit status of a command stopped by Ctrl-C (as ``clangames.cli.errors`` says)."""


def main() -> int:
    """Run the ``clangames`` command; a Ctrl-C while it loads exits 130 with one line."""
    try:
        from clangames.cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("clangames: error: interrupted while starting\n")
        return INTERRUPTED_EXIT
    return run()


if __name__ == "__main__":
    sys.exit(main())
