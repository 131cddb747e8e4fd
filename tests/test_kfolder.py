"""Tests of the kernel-folder library (kfolder/): every shipped kernel and
control loads, and each kind of bad folder gives one line naming the file."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import kfolder
from certify import gappa_script as gappa
from tests.helpers import (GENERATED, ROOT, TempDirCase, fpr_only_folder, minimal_sidecar, shipped_kernels,
                           write_kernel_folder)


class ShippedFolders(unittest.TestCase):
    def test_every_shipped_kernel_loads(self) -> None:
        names = kfolder.names(GENERATED)
        self.assertEqual(names, shipped_kernels())
        for name in names:
            k = kfolder.load(GENERATED, name)
            self.assertEqual(k.header, GENERATED / name / f"{name}.h")
            self.assertEqual(k.falcon_header, k.header)
            self.assertEqual(k.sidecar_path, GENERATED / name / "provenance" / f"{name}.json")
            self.assertTrue(k.annotated_header.is_file(), name)
            self.assertEqual(k.headers, (f"{name}.h",))
            self.assertIsNotNone(k.headline_bound_2p63, name)
            self.assertRegex(k.content_hash, r"^[0-9a-f]{16}$")
            # The generator writes a Gappa script unless the products are
            # truncated limbs, which the certificate does not model, or the
            # kernel is of form head (certify/gappa_head.py renders its
            # scripts from the sidecar's claims, one per piece), or has no
            # fixed-point interface (form eft: no polynomial to certify).
            expected = (not gappa.has_limb_products(k.sidecar) and k.sidecar.get("form") != "head"
                        and k.fixed_point)
            self.assertEqual(k.gappa_script.is_file(), expected, name)
            # Nothing else: one header, the rest in provenance/.
            files = {p.relative_to(k.folder).as_posix() for p in k.folder.rglob("*") if p.is_file()}
            self.assertLessEqual(files, k.layout.written(), name)
            self.assertEqual([f for f in files if f.endswith(".h") and "/" not in f], [f"{name}.h"])

    def test_bounds_and_facts_of_falcon_m3_v1(self) -> None:
        k = kfolder.load(GENERATED, "falcon_m3_v1")
        self.assertEqual((k.word_bits, k.scale_bits, k.table_access), (64, 63, "direct"))
        self.assertEqual(k.table_bytes, 10240)
        # The sidecar's bounds against the header's own #defines (written by
        # another template from the same proof).
        text = k.header.read_text()
        fpr = float(re.search(r"#define FALCON_M3_V1_FPR_EXPM_P63_ERR_BOUND (\S+)", text).group(1))
        expm = float(re.search(r"#define FALCON_M3_V1_EXPM_P63_ERR_BOUND (\S+)", text).group(1))
        self.assertEqual(k.fpr_bound_2p63, fpr)     # the adaptors' own bound
        self.assertEqual(k.expm_bound_2p63, expm)
        self.assertNotEqual(fpr, expm)
        self.assertAlmostEqual(k.headline_bound_log2 or 0.0, math.log2(fpr) - 63)
        self.assertFalse(k.uses_float)

    def test_facts_of_falcon_m3(self) -> None:
        """Form mcu: the Falcon adaptors only, a 2,848-byte secret-indexed table."""
        k = kfolder.load(GENERATED, "falcon_m3")
        self.assertEqual((k.form, k.fixed_point, k.table_access, k.table_bytes), ("mcu", False, "direct", 2848))
        text = k.header.read_text()
        fpr = float(re.search(r"#define FALCON_M3_FPR_EXPM_P63_ERR_BOUND (\S+)", text).group(1))
        self.assertEqual(k.fpr_bound_2p63, fpr)
        self.assertIsNone(k.expm_bound_2p63)

    def test_32_bit_kernel_is_judged_on_eval(self) -> None:
        k = kfolder.load(GENERATED, "paper_m3")
        self.assertIsNone(k.fpr_bound_2p63)
        self.assertEqual(k.headers, ("paper_m3.h",))
        self.assertAlmostEqual(k.headline_bound_log2 or 0.0, math.log2(3.40188) - 31)

    def test_fixed_point_and_batch_of_the_shipped_kernels(self) -> None:
        # Against the headers themselves: a kernel has the fixed-point
        # interface when its header defines _eval, batch forms when it
        # defines the batch entry of each instruction set the property names.
        for name in shipped_kernels():
            k = kfolder.load(GENERATED, name)
            text = k.header.read_text()
            self.assertEqual(k.fixed_point, re.search(rf"\buint(32|64)_t {name}_eval\(uint\1_t z\)", text) is not None,
                             name)
            for isa in ("avx512", "avx2"):
                self.assertEqual(isa in k.batch_isas, f"{name}_fpr_expm_p63_batch_{isa}(" in text, (name, isa))
        self.assertEqual(kfolder.load(GENERATED, "falcon_x86_batch").batch_isas, ("avx512", "avx2"))

    def test_for_32bit_cores(self) -> None:
        # The Cortex-M tools' selection: the kernels that need neither
        # unsigned __int128 nor binary64 code nor an x86 extension.
        self.assertTrue(kfolder.load(GENERATED, "falcon_m3").for_32bit_cores)
        self.assertTrue(kfolder.load(GENERATED, "falcon_m3_v1").for_32bit_cores)
        self.assertTrue(kfolder.load(GENERATED, "paper_m3").for_32bit_cores)
        for name in ("falcon_x86", "falcon_x86_batch"):
            self.assertFalse(kfolder.load(GENERATED, name).for_32bit_cores, name)

    def test_ct_controls_load_through_the_library(self) -> None:
        # The controls are configs; rendered, they are kernel folders like the others.
        from ct.controls import render as controls
        with tempfile.TemporaryDirectory() as tmp:
            controls.render_controls(Path(tmp))
            for name in ("ctl_poly", "ctl_direct", "ctl_branch"):
                k = kfolder.load(Path(tmp), name)
                self.assertTrue(k.falcon_adaptors, name)
            self.assertEqual(kfolder.load(Path(tmp), "ctl_direct").table_access, "direct")

    def test_load_path_takes_a_folder_or_its_sidecar(self) -> None:
        a = kfolder.load_path(GENERATED / "facct")
        b = kfolder.load_path(GENERATED / "facct" / "provenance" / "facct.json")
        self.assertEqual((a.name, a.folder), (b.name, b.folder))
        with self.assertRaises(kfolder.KernelFolderError):
            kfolder.load_path(GENERATED / "facct" / "facct.h")


class BadFolders(TempDirCase):
    """Each broken folder: KernelFolderError, one line, naming the problem."""

    def expect_error(self, name: str, fragment: str) -> None:
        with self.assertRaises(kfolder.KernelFolderError) as cm:
            kfolder.load(self.tmp, name)
        message = str(cm.exception)
        self.assertEqual(len(message.splitlines()), 1, message)
        self.assertIn(fragment, message)

    def test_a_good_folder_loads(self) -> None:
        write_kernel_folder(self.tmp, minimal_sidecar("good"))
        self.assertEqual(kfolder.load(self.tmp, "good").word_bits, 64)

    def test_missing_folder(self) -> None:
        self.expect_error("absent", "no kernel folder")

    def test_bad_name(self) -> None:
        self.expect_error("not-a-name", "not a C identifier")

    def test_missing_sidecar(self) -> None:
        (self.tmp / "nosidecar").mkdir()
        self.expect_error("nosidecar", "no sidecar")

    def test_bad_json(self) -> None:
        folder = write_kernel_folder(self.tmp, minimal_sidecar("badjson"))
        (folder / "provenance" / "badjson.json").write_text('{"schema_version": 2, "name": ')
        self.expect_error("badjson", "not valid JSON")

    def test_not_an_object(self) -> None:
        folder = write_kernel_folder(self.tmp, minimal_sidecar("listy"))
        (folder / "provenance" / "listy.json").write_text("[1, 2]")
        self.expect_error("listy", "JSON object")

    def test_wrong_schema_version(self) -> None:
        write_kernel_folder(self.tmp, minimal_sidecar("v3", schema_version=3))
        self.expect_error("v3", "schema_version 3 is not supported")

    def test_folder_of_the_earlier_layout(self) -> None:
        folder = self.tmp / "old"
        folder.mkdir()
        (folder / "old.json").write_text(json.dumps(minimal_sidecar("old", schema_version=1)))
        (folder / "old.h").write_text("/* several headers */\n")
        self.expect_error("old", "schema-1 layout")

    def test_header_and_sidecar_of_two_renders(self) -> None:
        # What a failed or hand-made copy would leave: the header of one
        # render beside the sidecar of another.
        write_kernel_folder(self.tmp, minimal_sidecar("mixed", content_hash="1111111111111111"))
        folder = self.tmp / "mixed"
        (folder / "mixed.h").write_text("#define MIXED_CONTENT_HASH 0x2222222222222222u\n")
        self.expect_error("mixed", "two renders")
        (folder / "mixed.h").write_text("/* no hash */\n")
        self.expect_error("mixed", "MIXED_CONTENT_HASH")

    def test_missing_schema_version(self) -> None:
        write_kernel_folder(self.tmp, minimal_sidecar("v0", schema_version=None))
        self.expect_error("v0", "schema_version None is not supported")

    def test_name_mismatch(self) -> None:
        write_kernel_folder(self.tmp, minimal_sidecar("other"), folder_name="liar")
        self.expect_error("liar", "expected 'liar'")

    def test_bad_facts(self) -> None:
        cases = {"w48": {"word_bits": 48}, "acc": {"table_access": "random"},
                 "scale": {"scale_bits": "63"}, "flag": {"falcon_adaptors": "yes"},
                 "bnd": {"bound": [1.0]}}
        for name, override in cases.items():
            write_kernel_folder(self.tmp, minimal_sidecar(name, **override))
            self.expect_error(name, f"\"{next(iter(override))}\"")

    def test_kernel_without_the_fixed_point_interface(self) -> None:
        k = fpr_only_folder(self.tmp / "eft")
        self.assertFalse(k.fixed_point)
        self.assertFalse(k.for_32bit_cores)
        self.assertEqual(k.batch_isas, ("avx512", "avx2"))   # the top-level key
        self.assertIsNone(k.eval_bound_ulp)
        self.assertIsNone(k.expm_bound_2p63)
        self.assertEqual(k.headline_bound_2p63, k.fpr_bound_2p63)
        self.assertEqual(k.fpr_bound_2p63, kfolder.load(GENERATED, "falcon_x86_batch").fpr_bound_2p63)
        # Top-level "batch" wins over "head"."batch"; [] means none.
        write_kernel_folder(self.tmp, minimal_sidecar("nobatch", batch=[], head={"batch": ["avx2"]}))
        self.assertEqual(kfolder.load(self.tmp, "nobatch").batch_isas, ())
        write_kernel_folder(self.tmp, minimal_sidecar("oldbatch", head={"batch": ["avx2"]}))
        self.assertEqual(kfolder.load(self.tmp, "oldbatch").batch_isas, ("avx2",))
        self.assertFalse(kfolder.load(self.tmp, "oldbatch").for_32bit_cores)
        self.assertTrue(kfolder.load(self.tmp, "oldbatch").fixed_point)   # absent: true

    def test_bad_fixed_point_and_batch(self) -> None:
        cases = {"fpbad": ({"fixed_point": "no"}, "\"fixed_point\""),
                 "fpnoadapt": ({"fixed_point": False, "falcon_adaptors": False}, "Falcon adaptors"),
                 "bsse": ({"batch": ["sse2"]}, "\"batch\""),
                 "bstr": ({"batch": "avx2"}, "\"batch\""),
                 "bhead": ({"head": {"batch": ["neon"]}}, "\"batch\"")}
        for name, (override, fragment) in cases.items():
            write_kernel_folder(self.tmp, minimal_sidecar(name, **override))
            self.expect_error(name, fragment)

    def test_missing_header(self) -> None:
        folder = write_kernel_folder(self.tmp, minimal_sidecar("nohdr"))
        (folder / "nohdr.h").unlink()
        self.expect_error("nohdr", "missing")

    def test_64_bit_kernel_without_adaptors(self) -> None:
        folder = write_kernel_folder(self.tmp, minimal_sidecar("noadapt", falcon_adaptors=False))
        self.assertEqual(kfolder.load(self.tmp, "noadapt").headers, ("noadapt.h",))
        # ... refused by a tool that calls every 64-bit kernel through them.
        with self.assertRaises(kfolder.KernelFolderError) as cm:
            kfolder.load(self.tmp, "noadapt", adaptors_for_64bit=True)
        self.assertIn("without Falcon adaptors", str(cm.exception))
        self.assertTrue(folder.is_dir())

    def test_names_lists_only_folders_with_a_sidecar(self) -> None:
        root = self.tmp / "names"
        write_kernel_folder(root, minimal_sidecar("k1"))
        (root / "empty").mkdir()
        self.assertEqual(kfolder.names(root), ["k1"])
        self.assertEqual(kfolder.names(self.tmp / "nowhere"), [])


class CommandLine(TempDirCase):
    """python3 -m kfolder, which the Makefile's rules call."""

    def run_cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "kfolder", *args], capture_output=True,
                              text=True, cwd=ROOT)

    def test_adaptors_lists_the_kernels_with_falcon_adaptors(self) -> None:
        root = self.tmp / "cli"
        write_kernel_folder(root, minimal_sidecar("with"))
        write_kernel_folder(root, minimal_sidecar("without", falcon_adaptors=False))
        done = self.run_cli("adaptors", str(root), "without", "with")
        self.assertEqual((done.returncode, done.stdout), (0, "with\n"))
        shipped = self.run_cli("adaptors", str(GENERATED), *shipped_kernels())
        self.assertEqual(shipped.stdout.split(),
                         [n for n in shipped_kernels()
                          if f"{n}_fpr_expm_p63_domain(" in (GENERATED / n / f"{n}.h").read_text()])

    def test_fixed_point_lists_the_kernels_with_eval(self) -> None:
        root = self.tmp / "fp"
        write_kernel_folder(root, minimal_sidecar("fixed"))
        fpr_only_folder(root, "floating")
        done = self.run_cli("fixed-point", str(root), "floating", "fixed")
        self.assertEqual((done.returncode, done.stdout), (0, "fixed\n"))
        both = self.run_cli("adaptors", str(root), "floating", "fixed")
        self.assertEqual(both.stdout, "floating fixed\n")
        shipped = self.run_cli("fixed-point", str(GENERATED), *shipped_kernels())
        self.assertEqual(shipped.stdout.split(),
                         [n for n in shipped_kernels() if f"{n}_eval(" in (GENERATED / n / f"{n}.h").read_text()])

    def test_cflags_and_errors(self) -> None:
        self.assertEqual(self.run_cli("cflags", str(GENERATED / "falcon_x86_single")).stdout, "-mfma\n")
        # Form twin is inline assembly with MULX, RORX and SHRX besides FMA.
        self.assertEqual(self.run_cli("cflags", str(GENERATED / "falcon_x86")).stdout, "-mfma -mbmi2\n")
        for args in (("adaptors", str(self.tmp), "absent"), ("fixed-point", str(self.tmp), "absent"),
                     ("cflags",), ("frob", "x")):
            done = self.run_cli(*args)
            self.assertEqual(done.returncode, 2, args)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)


if __name__ == "__main__":
    unittest.main()
