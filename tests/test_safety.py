"""The generator and make vendor never lose or corrupt a user's files, and
every failure is one line with exit status 2 (issue 14): files they did not
write are refused, not deleted; a kernel folder is replaced all at once
(file-system faults simulated with a read-only folder and a size limit);
configs must be regular files of at most 1 MB with a safe name and a
one-line description; messages name the key and the fix; files get the
usual permissions; progress shows in a log too."""
from __future__ import annotations

import io
import os
import resource
import stat
import subprocess
import sys
import time
import unittest
from pathlib import Path
from unittest import mock

import kfolder
from gen import config, progress
from gen.errors import GenError
from tests.helpers import KERNELS, ROOT, TempDirCase, tree_hash
from toolkit.files import FolderError, replace_folder

FACCT = (KERNELS / "facct.toml").read_text()   # builds in about a second


def gen(*args: str, cwd: Path = ROOT, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gen", "render", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, **kwargs)  # type: ignore[call-overload]


def without_dac() -> list[str]:
    """A command prefix that makes permission bits apply (root ignores them
    otherwise): the process keeps uid 0 but loses the override capabilities."""
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"] if os.geteuid() == 0 else []


class OneLine(unittest.TestCase):
    def assert_one_line(self, run: subprocess.CompletedProcess[str], fragment: str) -> None:
        self.assertEqual(run.returncode, 2, run.stderr)
        lines = run.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, run.stderr)
        self.assertIn(fragment, lines[0])
        self.assertNotIn("Traceback", run.stderr)


class WithConfig(TempDirCase, OneLine):
    """A fresh copy of the facct config for each test, in self.cfg."""

    def setUp(self) -> None:
        self.cfg = self.tmp / "facct.toml"
        self.cfg.write_text(FACCT)


class UserFiles(WithConfig):
    """Defect 1: files in an output folder that the generator did not write."""

    def test_unknown_files_make_the_render_refuse_and_stay(self) -> None:
        out = self.tmp / "out1"
        self.assertEqual(gen(str(self.cfg), "--out", str(out), "--quiet").returncode, 0)
        mine = {"NOTES.txt": "notes\n", "my_wrapper.c": "int w;\n", "README.local": "r\n"}
        for name, text in mine.items():
            (out / "facct" / name).write_text(text)
        before = tree_hash(out)
        self.cfg.write_text(FACCT.replace("explicit coefficients", "explicit coefficients, changed"))
        self.assert_one_line(gen(str(self.cfg), "--out", str(out), "--quiet"), "did not write (NOTES.txt")
        self.assertEqual(tree_hash(out), before)

    def test_a_config_named_like_a_user_folder(self) -> None:
        out = self.tmp / "p3"
        (out / "src").mkdir(parents=True)
        (out / "src" / "main.c").write_text("int main(void) { return 0; }\n")
        cfg = self.tmp / "src.toml"
        cfg.write_text(FACCT.replace('name = "facct"', 'name = "src"'))
        self.assert_one_line(gen(str(cfg), "--out", str(out), "--quiet"), "main.c")
        self.assertEqual((out / "src" / "main.c").read_text(), "int main(void) { return 0; }\n")

    def test_make_vendor_keeps_a_users_files(self) -> None:
        dest = self.tmp / "dest"
        (dest / "falcon_x86").mkdir(parents=True)
        (dest / "falcon_x86" / "NOTES.txt").write_text("mine\n")
        run = subprocess.run(["make", "-s", "vendor", "KERNEL=falcon_x86", f"DEST={dest}"], cwd=ROOT,
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 2)
        self.assertIn("NOTES.txt", run.stderr)
        self.assertEqual((dest / "falcon_x86" / "NOTES.txt").read_text(), "mine\n")

    def test_permissions_and_nothing_rewritten_when_unchanged(self) -> None:
        out = self.tmp / "out2"
        old = os.umask(0o022)
        try:
            self.assertEqual(gen(str(self.cfg), "--out", str(out), "--quiet").returncode, 0)
        finally:
            os.umask(old)
        for path in (out / "facct").rglob("*"):
            mode = stat.S_IMODE(path.stat().st_mode)
            self.assertEqual(mode, 0o755 if path.is_dir() else 0o644, path)
        stamp = (out / "facct" / "facct.h").stat().st_mtime_ns
        run = gen(str(self.cfg), "--out", str(out))
        self.assertIn("unchanged", run.stderr)
        self.assertEqual((out / "facct" / "facct.h").stat().st_mtime_ns, stamp)


class Faults(WithConfig):
    """Defects 2 and 5: a failed write leaves the old folder whole, with one line."""

    def test_size_limit_half_way_leaves_the_old_folder(self) -> None:
        out = self.tmp / "limited"
        self.assertEqual(gen(str(self.cfg), "--out", str(out), "--quiet").returncode, 0)
        before = tree_hash(out)
        self.cfg.write_text(FACCT.replace("degree = 12", "degree = 12\nmax_abs_error_log2 = -40"))
        limit = (out / "facct" / "facct.h").stat().st_size + 4096   # the header fits, the sidecar does not
        run = gen(str(self.cfg), "--out", str(out), "--quiet",
                  preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)))
        self.assert_one_line(run, "nothing written")
        self.assertEqual(tree_hash(out), before)
        self.assertEqual(sorted(p.name for p in out.iterdir()), ["facct"])     # no half-made folder left
        kfolder.load(out, "facct")                                           # header and sidecar agree

    def test_read_only_output_folder(self) -> None:
        out = self.tmp / "readonly"
        out.mkdir()
        os.chmod(out, 0o555)
        try:
            run = subprocess.run([*without_dac(), sys.executable, "-m", "gen", "render", str(self.cfg),
                                  "--out", str(out), "--quiet"], cwd=ROOT, capture_output=True, text=True)
        finally:
            os.chmod(out, 0o755)
        self.assert_one_line(run, "nothing written")
        self.assertEqual(list(out.iterdir()), [])

    def test_out_names_a_regular_file(self) -> None:
        target = self.tmp / "a_file"
        target.write_text("mine\n")
        self.assert_one_line(gen(str(self.cfg), "--out", str(target), "--quiet"), "not a folder")
        self.assertEqual(target.read_text(), "mine\n")

    def test_every_step_of_the_swap(self) -> None:
        # An error in the check or at either rename leaves the old folder.
        target = self.tmp / "swap" / "k"
        owned = {"k.h", "provenance/k.json"}
        replace_folder(target, {"k.h": "old\n", "provenance/k.json": "{}\n"}, owned)
        new = {"k.h": "new\n", "provenance/k.json": "{}\n"}

        def refuse(_: Path) -> None:
            raise FolderError("check failed")
        with self.assertRaises(FolderError):
            replace_folder(target, new, owned, refuse)
        with mock.patch("toolkit.files._exchange", side_effect=OSError(5, "I/O error")), \
                self.assertRaises(OSError):
            replace_folder(target, new, owned)
        self.assertEqual((target / "k.h").read_text(), "old\n")
        # Without an atomic exchange: the old folder is moved aside, and put
        # back when moving the new one in fails.
        real_rename, calls = os.rename, []

        def second_fails(a: object, b: object) -> None:
            calls.append(b)
            if len(calls) == 2:
                raise OSError(5, "I/O error")
            real_rename(a, b)
        with mock.patch("toolkit.files._exchange", return_value=False), \
                mock.patch("os.rename", side_effect=second_fails), self.assertRaises(OSError):
            replace_folder(target, new, owned)
        self.assertEqual((target / "k.h").read_text(), "old\n")
        with mock.patch("toolkit.files._exchange", return_value=False):     # the two-rename fallback
            replace_folder(target, new, owned)
        self.assertEqual((target / "k.h").read_text(), "new\n")
        self.assertEqual(sorted(p.name for p in target.parent.iterdir()), ["k"])


class ConfigFiles(TempDirCase, OneLine):
    """Defect 5: what is not a small regular file is refused at once."""

    def test_fifo_device_folder_and_oversize(self) -> None:
        fifo = self.tmp / "fifo.toml"
        os.mkfifo(fifo)
        big = self.tmp / "big.toml"
        big.write_text(FACCT.replace('description = "', 'description = "' + "x" * (10 << 20)))
        for path, fragment in ((fifo, "not a regular file"), (Path("/dev/zero"), "not a regular file"),
                               (self.tmp, "not a regular file"), (big, "more than the limit")):
            with self.subTest(str(path)):
                self.assert_one_line(gen(str(path), "--out", str(self.tmp / "o"), "--quiet"), fragment)


class NamesAndDescriptions(TempDirCase, OneLine):
    """Defects 3 and 4: names that break the build, text that escapes its comment."""

    BASE = {"degree": 3, "scale_bits": 31, "word_bits": 32, "segments": {"kind": "equal", "count": 4}}

    def test_names_that_collide_are_refused(self) -> None:
        for name, fragment in (("fxp", "fxp"), ("stdint", "standard header"), ("string", "standard header"),
                               ("int", "keyword"), ("class", "keyword"), ("eval", "errno"),
                               ("total", "ctype"), ("a__b", "'__'"), ("k_", "'__'")):
            with self.subTest(name), self.assertRaises(GenError) as cm:
                config.validate({"name": name, **self.BASE}, "t.toml", "0")
            self.assertTrue(str(cm.exception).startswith("name: "), str(cm.exception))
            self.assertIn(fragment, str(cm.exception))
        for name in ("falcon_x86", "my_kernel2", "e"):
            self.assertEqual(config.validate({"name": name, **self.BASE}, "t.toml", "0").name, name)

    def test_descriptions(self) -> None:
        for text, fragment in (("two\nlines", "one line"), ("x" * 121, "at most 120"), ("tab\there", "one line")):
            with self.subTest(text[:10]), self.assertRaises(GenError) as cm:
                config.validate({"name": "d", "description": text, **self.BASE}, "t.toml", "0")
            self.assertIn(fragment, str(cm.exception))

    def test_comment_delimiters_in_a_description_stay_in_the_comment(self) -> None:
        cfg = self.tmp / "inj.toml"
        cfg.write_text(FACCT.replace('name = "facct"', 'name = "inj"')
                       .replace('description = "FACCT', 'description = "x */ #error injected /* ??/ FACCT'))
        out = self.tmp / "out"
        self.assertEqual(gen(str(cfg), "--out", str(out), "--quiet").returncode, 0)
        k = kfolder.load(out, "inj")
        for header in (k.header, k.annotated_header):
            done = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-trigraphs",
                                   "-fsyntax-only", "-x", "c", str(header)], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("x * / #error injected / * ? ?/", k.annotated_header.read_text())


class Messages(TempDirCase, OneLine):
    """Defect 6 (and 5): each message names the key and, where known, the fix."""

    CASES = (
        ('name = "m"\ndegree = 32\nscale_bits = 63\n', "precision_digits: ", "raise precision_digits"),
        ('name = "m"\ndegree = 8\nscale_bits = 31\nword_bits = 32\ndomain = ["0", "0.0000000075"]\n'
         '[segments]\nkind = "equal"\ncount = 4\n', "segments: segment 0 holds", "use fewer segments"),
        ('name = "m"\ndegree = 2\nscale_bits = 31\nword_bits = 32\n[coefficients]\nscale = 31\n'
         'values = ["0x80000000", "-0x7FFFFFFFFFF", "0x4000"]\n', "coefficients.values: ", "does not fit"),
        ('name = "m"\ndegree = 3\nscale_bits = 31\nword_bits = 32\ndomain = ["log(0)", "0.5"]\n',
         "domain: ", "not a finite real"),
        ('name = "m"\ndegree = 3\nscale_bits = 31\nword_bits = 32\ndomain = ["sqrt(-1)", "0.5"]\n',
         "domain: ", "not a finite real"),
    )

    def test_messages(self) -> None:
        for i, (text, key, fix) in enumerate(self.CASES):
            cfg = self.tmp / f"m{i}.toml"
            cfg.write_text(text)
            with self.subTest(key):
                run = gen(str(cfg), "--out", str(self.tmp / "o"), "--quiet")
                self.assert_one_line(run, f"{cfg}: {key}")
                self.assertIn(fix, run.stderr)


class Progress(TempDirCase):
    """Defect 13: progress in a log too, with a line at least every heartbeat."""

    def test_heartbeat_when_not_a_terminal(self) -> None:
        stream = io.StringIO()
        with progress.Reporter(stream, heartbeat=0.05):
            progress.report("a long stage")
            progress.jobs(3, 10, "fit segment")
            time.sleep(1.5)
        lines = stream.getvalue().splitlines()
        self.assertGreaterEqual(len(lines), 3, lines)
        self.assertIn("fit segment 3/10", lines[-1])

    def test_render_reports_its_stages_in_a_log(self) -> None:
        cfg = self.tmp / "facct.toml"
        cfg.write_text(FACCT)
        run = gen(str(cfg), "--out", str(self.tmp / "o"))
        self.assertEqual(run.returncode, 0, run.stderr)
        for stage in ("facct: segmentation", "facct: fit of 1 segment(s)", "facct: self-check"):
            self.assertIn(stage, run.stderr)
        quiet = gen(str(cfg), "--out", str(self.tmp / "q"), "--quiet")
        self.assertEqual(quiet.stderr, "")


if __name__ == "__main__":
    unittest.main()
