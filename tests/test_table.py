"""Tests of the shared table printer (toolkit/table.py)."""
from __future__ import annotations

import unittest

from toolkit import table


class TablePrinter(unittest.TestCase):
    HEADER = ("kernel", "cycles", "ok")
    ROWS = [("facct", 89.9, True), ("falcon_x86", 68.0, None)]

    def test_text_pads_aligns_and_rules(self) -> None:
        self.assertEqual(table.text(self.HEADER, self.ROWS),
                         "kernel      cycles    ok\n"
                         "----------  ------  ----\n"
                         "facct         89.9  True\n"
                         "falcon_x86    68.0     -")

    def test_text_takes_an_alignment(self) -> None:
        out = table.text(("a", "b"), [("x", "long"), ("yy", "s")], align="rl")
        self.assertEqual(out.splitlines(), [" a  b", "--  ----", " x  long", "yy  s"])

    def test_markdown(self) -> None:
        self.assertEqual(table.markdown(self.HEADER, self.ROWS),
                         "| kernel | cycles | ok |\n"
                         "|---|---:|---:|\n"
                         "| facct | 89.9 | True |\n"
                         "| falcon_x86 | 68.0 | - |")

    def test_markdown_escapes_pipes(self) -> None:
        out = table.markdown(("t",), [("max |t|",)])
        self.assertIn("| max \\|t\\| |", out)

    def test_render_dispatches_and_refuses_unknown_styles(self) -> None:
        self.assertEqual(table.render(self.HEADER, self.ROWS, "markdown"),
                         table.markdown(self.HEADER, self.ROWS))
        self.assertEqual(table.render(self.HEADER, self.ROWS), table.text(self.HEADER, self.ROWS))
        with self.assertRaises(ValueError):
            table.render(self.HEADER, self.ROWS, "html")

    def test_ragged_rows_and_bad_alignments_are_refused(self) -> None:
        with self.assertRaises(ValueError):
            table.text(self.HEADER, [("only", "two")])
        with self.assertRaises(ValueError):
            table.markdown(self.HEADER, self.ROWS, align="lr")
        with self.assertRaises(ValueError):
            table.text(self.HEADER, self.ROWS, align="lxr")

    def test_empty_table_is_the_header(self) -> None:
        self.assertEqual(table.text(("a", "bb"), []), "a  bb\n-  --")


if __name__ == "__main__":
    unittest.main()
