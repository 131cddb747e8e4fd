"""Print the Markdown table of an explorer run (how docs/explore.md's
tables are made): the measured candidates, the front marked, from the JSON
the run wrote.

Usage: python3 -m explore.doc_table build/explore/<target>.json
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .report import table


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m explore.doc_table build/explore/<target>.json", file=sys.stderr)
        return 2
    try:
        doc = json.loads(Path(argv[0]).read_text())
    except (OSError, ValueError) as exc:
        print(f"doc_table: error: {argv[0]}: {exc}", file=sys.stderr)
        return 2
    print(f"{doc['target']}, budget 2^{doc['budget_log2']}, max table bytes {doc['max_table_bytes']}; "
          f"measured on {doc['measured_on']['cpu_model']}, {doc['measured_on']['date']}\n")
    print(table(doc["candidates"], "markdown"))
    print(f"\nRecommended: {doc['recommended']}.  Shipped kernel: {doc['shipped_comparison']}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
