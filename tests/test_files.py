"""Tests of the atomic writes (toolkit/files.py) and the measured-on record
(toolkit/provenance.py) every measured JSON carries."""
from __future__ import annotations

import os
import re
import stat
from unittest import mock

from tests.helpers import TempDirCase
from toolkit import provenance
from toolkit.files import write_text_atomic


class AtomicWrite(TempDirCase):
    def test_writes_and_keeps_the_mode(self) -> None:
        path = self.tmp / "kept.txt"
        path.write_text("old")
        os.chmod(path, 0o640)
        write_text_atomic(path, "new\r\n")
        self.assertEqual(path.read_bytes(), b"new\r\n")     # no newline translation
        self.assertEqual(stat.S_IMODE(path.stat().st_mode), 0o640)

    def test_new_file_in_a_new_folder(self) -> None:
        path = self.tmp / "a" / "b" / "new.json"
        write_text_atomic(path, "{}\n")
        self.assertEqual(path.read_text(), "{}\n")
        self.assertNotEqual(stat.S_IMODE(path.stat().st_mode) & 0o044, 0)  # not private

    def test_a_failed_write_leaves_the_old_file_and_no_temporary(self) -> None:
        path = self.tmp / "safe.txt"
        path.write_text("old")
        with mock.patch("os.replace", side_effect=OSError("disk full")):
            with self.assertRaises(OSError):
                write_text_atomic(path, "new")
        self.assertEqual(path.read_text(), "old")
        self.assertEqual([p.name for p in self.tmp.iterdir() if p.name.startswith(".safe")], [])


class MeasuredOn(TempDirCase):
    def test_record_has_cpu_and_iso_date(self) -> None:
        rec = provenance.measured_on()
        self.assertEqual(set(rec), {"cpu_model", "date"})
        self.assertTrue(rec["cpu_model"])
        self.assertRegex(rec["date"], re.compile(r"^\d{4}-\d{2}-\d{2}$"))
