"""python3 -m explore: see explore/cli.py."""
import sys

from explore.cli import main

sys.exit(main())
