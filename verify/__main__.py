"""One CLI for the user-facing kernel commands:

    python3 -m verify kernel CONFIG --generated OUT --build DIR [...]
        check and audit one rendered user kernel (`make kernel`)
    python3 -m verify vendor KERNEL_FOLDER DEST
        copy a kernel folder to DEST/<name>/ and prove it compiles alone
        (`make vendor`)

Each subcommand takes the options its module documents (--help).
"""
from __future__ import annotations

import sys
from typing import Callable

from verify import user_kernel, vendor

COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "kernel": user_kernel.main,
    "vendor": vendor.main,
}


def main(argv: list[str]) -> int:
    """Dispatch to the subcommand; a missing or unknown one is a one-line
    error with exit status 2."""
    if not argv or argv[0] not in COMMANDS:
        got = f"unknown command {argv[0]!r}" if argv else "no command"
        print(f"verify: error: {got}; use one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
