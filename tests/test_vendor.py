"""The header a user vendors (issue 14): its banner, its size, one table per
program, helpers that two kernels never share, no read outside the table
for any input, the licence, and the template slips that are gone."""
from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import kfolder
from gen import config, fingerprint
from tests.helpers import GENERATED, KERNELS, ROOT, shipped_kernels

ROW = re.compile(r"^    \{ UINT(32|64)_C\(0x")
MCU_ROW = re.compile(r"^    (0x[0-9a-f]{8}u, ){7}0x[0-9a-f]{8}u,$")    # form mcu: 8 words a row


def _banner(header: str) -> list[str]:
    return header[:header.index("*/\n") + 2].split("\n")


class Banner(unittest.TestCase):
    def test_every_shipped_banner(self) -> None:
        for name in shipped_kernels():
            with self.subTest(name):
                k = kfolder.load(GENERATED, name)
                banner = _banner(k.header.read_text())
                text = "\n".join(banner)
                self.assertLessEqual(len(banner), 12)
                self.assertEqual(banner[0], "/* SPDX-License-Identifier: CC0-1.0")
                self.assertIn("DO NOT EDIT", text)
                self.assertIn(f"python3 -m gen render kernels/{name}.toml --out generated", text)
                config_sha = hashlib.sha256((KERNELS / f"{name}.toml").read_bytes()).hexdigest()
                self.assertIn(f"(sha256 {config_sha})", text)
                self.assertIn(f"generator and templates sha256 {fingerprint.short()}", text)
                self.assertNotRegex(text, r"\bversion\b")
                listed = set(re.findall(r"(\w+) = ", text.split("Parameters other than the defaults:")[1]
                                        .split("Proven bounds")[0]))
                cfg = config.load(KERNELS / f"{name}.toml")
                changed = {key for key, value in cfg.parameters().items()
                           if key != "name" and config.DEFAULTS.get(key, object()) != value}
                self.assertEqual(listed - {"kind", "count", "bits"}, changed)
                # The banner prints each bound rounded up to a fixed number of
                # digits (0.887680) while the sidecar holds the same float
                # (0.88768): compare the numbers, not their spelling.
                stated = {float(v) for v in re.findall(r"<= ([0-9][0-9.e+-]*)", text)}
                for key in ("eval_ulp", "expm_p63_2p63", "fpr_expm_p63_2p63"):
                    value = (k.sidecar["bound"] or {}).get(key)
                    if value is not None:
                        self.assertIn(float(value), stated, key)

    def test_config_outside_the_project_regenerates_with_the_stated_command(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            cfg = Path(tmp) / "conf dir" / "mine.toml"
            cfg.parent.mkdir()
            cfg.write_text((KERNELS / "facct.toml").read_text().replace('name = "facct"', 'name = "mine"'))
            out = Path(tmp) / "out"
            run = subprocess.run([sys.executable, "-m", "gen", "render", str(cfg), "--out", str(out), "--quiet"],
                                 cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            first = (out / "mine" / "mine.h").read_text()
            command = re.search(r"regenerate in the project root with:\n \* +(.*)\n", first).group(1)  # type: ignore[union-attr]
            self.assertIn("../", command)           # relative to the project, not a basename
            shutil.rmtree(out)
            again = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(again.returncode, 0, again.stderr)
            self.assertEqual((out / "mine" / "mine.h").read_text(), first)


class Size(unittest.TestCase):
    """make vendor copies one header: at most 300 lines of C for falcon_x86,
    and for the Cortex-M3 kernels apart from their table rows (814 and 1077
    before)."""

    def test_vendored_line_counts(self) -> None:
        x86 = (GENERATED / "falcon_x86" / "falcon_x86.h").read_text().splitlines()
        self.assertLessEqual(len(x86), 300)
        for name, row, rows in (("falcon_m3_v1", ROW, 256), ("falcon_m3", MCU_ROW, 89)):
            m3 = (GENERATED / name / f"{name}.h").read_text().splitlines()
            self.assertLessEqual(len([line for line in m3 if not row.match(line)]), 300, name)
            self.assertEqual(len([line for line in m3 if row.match(line)]), rows, name)

    def test_make_vendor_copies_the_header_and_provenance_on_request(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            # The head form has no single Gappa script (certify writes one per
            # piece), so the provenance files are those the folder holds.
            provenance = {p.relative_to(GENERATED / "falcon_x86").as_posix()
                          for p in (GENERATED / "falcon_x86" / "provenance").iterdir()}
            self.assertLessEqual({"provenance/falcon_x86.json", "provenance/falcon_x86_annotated.h"}, provenance)
            for extra, expected in (([], {"falcon_x86.h"}), (["PROVENANCE=1"], {"falcon_x86.h"} | provenance)):
                dest = Path(tmp) / ("p" if extra else "h")
                run = subprocess.run(["make", "-s", "vendor", "KERNEL=falcon_x86", f"DEST={dest}", *extra],
                                     cwd=ROOT, capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stderr)
                got = {p.relative_to(dest / "falcon_x86").as_posix() for p in (dest / "falcon_x86").rglob("*")
                       if p.is_file()}
                self.assertEqual(got, expected)
                self.assertIn("falcon_x86.h: 2", run.stdout)   # the line count it reports


class LeanForm(unittest.TestCase):
    def test_same_machine_code_as_the_annotated_header(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            for name in shipped_kernels():
                with self.subTest(name):
                    k = kfolder.load(GENERATED, name)
                    dumps = []
                    for label, header in (("lean", k.header), ("annotated", k.annotated_header)):
                        folder = Path(tmp) / label / name
                        folder.mkdir(parents=True)
                        shutil.copy(header, folder / f"{name}.h")
                        probe = folder / "probe.c"
                        probe.write_text(_probe_all(k))
                        obj = folder / "probe.o"
                        subprocess.run(["gcc", "-O2", *k.cflags, "-c", f"-I{folder}", str(probe), "-o", str(obj)],
                                       check=True)
                        dumps.append(subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(obj)],
                                                    capture_output=True, text=True, check=True)
                                     .stdout.split("\n", 3)[3])
                    self.assertEqual(dumps[0], dumps[1])

    def test_only_documentation_comments_and_the_banner(self) -> None:
        for name in shipped_kernels():
            header = (GENERATED / name / f"{name}.h").read_text()
            body = header[header.index("*/\n") + 3:]
            comments = re.findall(r"/\*.*?\*/", body, re.S)
            self.assertTrue(comments, name)
            self.assertTrue(all(c.startswith("/**") for c in comments), name)


def _probe_all(k: kfolder.Kernel) -> str:
    """A translation unit with one non-inlined function per entry point."""
    W, name = k.word_bits, k.name
    lines = [f'#include "{name}.h"']
    if k.fixed_point:
        lines += [f"uint{W}_t p_eval(uint{W}_t z);", f"uint{W}_t p_eval(uint{W}_t z) {{ return {name}_eval(z); }}"]
    if W == 64 and k.fixed_point:
        lines += ["uint64_t p_expm(uint64_t z, uint64_t w);",
                  f"uint64_t p_expm(uint64_t z, uint64_t w) {{ return {name}_expm_p63(z, w); }}"]
    if k.falcon_adaptors:
        for entry, args, params in (("fpr_expm_p63", "x, c", "uint64_t x, uint64_t c"),
                                    ("fpr_expm_p63_native", "x, c", "double x, double c"),
                                    ("fpr_expm_p63_domain", "x, c", "double x, double c"),
                                    ("fpr_expm_p63_domain_bits", "x, c", "uint64_t x, uint64_t c")):
            lines += [f"uint64_t p_{entry}({params});",
                      f"uint64_t p_{entry}({params}) {{ return {name}_{entry}({args}); }}"]
    return "\n".join(lines) + "\n"


TWO_FILES_MAIN = """#include <stdio.h>
#include "{name}.h"
uint{W}_t second_call(uint{W}_t z);
int main(void)
{{
    uint{W}_t z = {arg};
    printf("%d\\n", {call} == second_call(z));
    return 0;
}}
"""
TWO_FILES_SECOND = """#define {NAME}_TABLE_EXTERN
#include "{name}.h"
uint{W}_t second_call(uint{W}_t z);
uint{W}_t second_call(uint{W}_t z) {{ return {call}; }}
"""


def _two_files_format(k: kfolder.Kernel) -> dict[str, object]:
    """What the two-file program calls: _eval, or for a kernel with the
    Falcon adaptors only (form mcu) _domain_bits on x = 0.25, ccs = 0.75."""
    if k.fixed_point:
        return {"name": k.name, "NAME": k.name.upper(), "W": k.word_bits, "arg": f"{k.name.upper()}_Z_MAX / 3",
                "call": f"{k.name}_eval(z)"}
    return {"name": k.name, "NAME": k.name.upper(), "W": 64, "arg": "UINT64_C(0x3FD0000000000000)",
            "call": f"{k.name}_fpr_expm_p63_domain_bits(z, UINT64_C(0x3FE8000000000000))"}


class VendorWithoutFixedPointInterface(unittest.TestCase):
    """A kernel of form eft's kind (tests/helpers.fpr_only_folder: _eval,
    _expm_p63 and their macros renamed away) vendors: the probe calls its
    adaptors and macros only, and compiles with every standard."""

    def test_vendor_calls_only_the_adaptors(self) -> None:
        from tests.helpers import fpr_only_folder
        from verify import vendor
        with tempfile.TemporaryDirectory() as tmp:
            kernel = fpr_only_folder(Path(tmp) / "gen")
            probe = vendor.probe_source(kernel) + vendor.second_file(kernel)
            self.assertNotIn("_eval", probe)
            self.assertNotIn("_Z_MAX", probe)
            self.assertIn("mock_fpr_fpr_expm_p63_domain_bits(", probe)
            done = subprocess.run([sys.executable, "-m", "verify", "vendor", str(kernel.folder), str(Path(tmp) / "dest")],
                                  cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertTrue((Path(tmp) / "dest" / "mock_fpr" / "mock_fpr.h").is_file())


class OneTablePerProgram(unittest.TestCase):
    """A two-file program links one copy of the table (nm -S); the control
    (the table static in the header, as it was) shows two, so the count
    is not blind; without the macro the program does not link at all."""

    def _link(self, k: kfolder.Kernel, header: str, tmp: Path, second_extern: bool = True) -> str:
        folder = tmp / k.name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{k.name}.h").write_text(header)
        fmt = _two_files_format(k)
        (folder / "main.c").write_text(TWO_FILES_MAIN.format(**fmt))
        second = TWO_FILES_SECOND.format(**fmt)
        (folder / "second.c").write_text(second if second_extern else second.split("\n", 1)[1])
        exe = folder / "prog"
        done = subprocess.run(["gcc", "-O0", "-Wall", "-Wextra", "-Werror", f"-I{folder}", str(folder / "main.c"),
                               str(folder / "second.c"), "-o", str(exe)], capture_output=True, text=True)
        if done.returncode != 0:
            return "link failed: " + done.stderr
        self.assertEqual(subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout, "1\n")
        return subprocess.run(["nm", "-S", str(exe)], capture_output=True, text=True, check=True).stdout

    def test_two_files_one_table(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("falcon_m3", "falcon_m3_v1", "paper_x86", "facct"):
                with self.subTest(name):
                    k = kfolder.load(GENERATED, name)
                    header = k.header.read_text()
                    symbols = [line.split() for line in self._link(k, header, Path(tmp) / "ok").splitlines()
                               if line.endswith(f" {name}_coeffs")]
                    self.assertEqual(len(symbols), 1, symbols)
                    self.assertEqual(int(symbols[0][1], 16), k.table_bytes)
                    static = header.replace("\nconst uint", "\nstatic const uint", 1)
                    static = static.replace("extern const uint", "static const uint", 1)
                    control = [line for line in self._link(k, static, Path(tmp) / "static", second_extern=False)
                               .splitlines() if line.endswith(f" {name}_coeffs")]
                    self.assertEqual(len(control), 2, control)
                    self.assertIn("multiple definition",
                                  self._link(k, header, Path(tmp) / "noextern", second_extern=False))


PREFIX_PROBE = """#include <stdio.h>
#include "falcon_x86_single.h"
#include "falcon_x86_batch.h"
#include "paper_x86.h"
#include "facct.h"
int main(void)
{
    unsigned long long z;
    while (scanf("%llx", &z) == 1)
        printf("%016llx %016llx\\n", (unsigned long long)falcon_x86_batch_eval(z),
               (unsigned long long)falcon_x86_batch_expm_p63(z, UINT64_C(0xC000000000000000)));
    return 0;
}
"""


class TwoRenders(unittest.TestCase):
    """Two different renders of one kernel in a translation unit stop the
    build; the same render twice, or the header with its annotated copy,
    compiles."""

    def test_mixed_renders_do_not_compile(self) -> None:
        k = kfolder.load(GENERATED, "paper_m3")
        header = k.header.read_text()
        other = header.replace(f"0x{k.content_hash}u", "0x0123456789abcdefu")
        self.assertNotEqual(other, header)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / "a.h").write_text(header)
            (folder / "b.h").write_text(other)
            shutil.copy(k.annotated_header, folder / "c.h")
            for pair, ok in ((("a.h", "a.h"), True), (("a.h", "c.h"), True), (("a.h", "b.h"), False),
                             (("b.h", "a.h"), False)):
                (folder / "t.c").write_text("".join(f'#include "{h}"\n' for h in pair) + "int x;\n")
                done = subprocess.run(["gcc", "-std=c99", "-Wall", "-Werror", "-fsyntax-only", f"-I{folder}",
                                       str(folder / "t.c")], capture_output=True, text=True)
                self.assertEqual(done.returncode == 0, ok, (pair, done.stderr))
                if not ok:
                    self.assertIn("another render of this kernel", done.stderr)


class HelpersPerKernel(unittest.TestCase):
    """Two kernels in one program each use their own helpers: a kernel
    included after another whose helpers differ (another generator
    version, here a deliberately wrong product) computes what it computes
    alone.  With one shared fxp.h and its guard, the first copy won."""

    def test_each_kernel_keeps_its_own_helpers(self) -> None:
        zs = "".join(f"{z:x}\n" for z in (0, 1, 2 ** 62, 12786308645202655659, 0x123456789ABCDEF))
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            for name in ("falcon_x86_single", "falcon_x86_batch", "paper_x86", "facct"):
                shutil.copy(GENERATED / name / f"{name}.h", folder / f"{name}.h")
            single = folder / "falcon_x86_single.h"
            text = single.read_text()
            wrong = text.replace("return (uint64_t)(((falcon_x86_single_fxp_u128)a * b) >> 64);",
                                 "return (uint64_t)(((falcon_x86_single_fxp_u128)a * b) >> 64) + 1;", 1)
            self.assertNotEqual(wrong, text)
            single.write_text(wrong)
            both = _run(PREFIX_PROBE, folder, zs)
            reference = _run(PREFIX_PROBE.replace('#include "falcon_x86_single.h"\n', ""), folder, zs)
            self.assertEqual(both, reference)
            self.assertTrue(both)


def _run(source: str, folder: Path, stdin: str) -> str:
    src = folder / "prog.c"
    src.write_text(source)
    # The head-form kernels' flags (-mfma: their binary64 part needs FMA, docs/abi.md).
    cflags = kfolder.load(GENERATED, "falcon_x86_single").cflags
    subprocess.run(["gcc", "-O2", *cflags, "-Wall", "-Wextra", "-Wpedantic", "-Werror", f"-I{folder}", str(src),
                    "-o", str(folder / "prog")], check=True)
    return subprocess.run([str(folder / "prog")], input=stdin, capture_output=True, text=True, check=True).stdout


OOB_PROBE = """#include <stdio.h>
#include <stdlib.h>
#include "{name}.h"
int main(int argc, char **argv)
{{
    uint{W}_t acc = 0;
    int i;
    for (i = 1; i < argc; i++) {{
        uint{W}_t z = (uint{W}_t)strtoull(argv[i], NULL, 16);
        acc += {name}_eval(z);
{expm}    }}
    printf("%llu\\n", (unsigned long long)acc);
    return 0;
}}
"""


class NoReadOutsideTheTable(unittest.TestCase):
    """_eval and _expm_p63 of the direct-table kernels read inside the table
    for every z (the index is clamped without a branch): z above Z_MAX,
    2^W - 1, ... run clean under AddressSanitizer and UBSan.  Control: the
    same header without the clamp reads past the table for 2^W - 1."""

    def _run(self, k: kfolder.Kernel, header: str, folder: Path) -> subprocess.CompletedProcess[str]:
        folder.mkdir(parents=True)
        (folder / f"{k.name}.h").write_text(header)
        expm = f"        acc += {k.name}_expm_p63(z, ~(uint64_t)0);\n" if k.word_bits == 64 else ""
        (folder / "oob.c").write_text(OOB_PROBE.format(name=k.name, W=k.word_bits, expm=expm))
        exe = folder / "oob"
        subprocess.run(["gcc", "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                        "-fno-omit-frame-pointer", *k.cflags, f"-I{folder}", str(folder / "oob.c"), "-o", str(exe)],
                       check=True)
        top = (1 << k.word_bits) - 1
        z_max = int(k.sidecar["z_max"])
        zs = [z_max, z_max + 1, (z_max + top) // 2, 1 << (k.word_bits - 1), top - 1, top]
        return subprocess.run([str(exe), *(f"{z:x}" for z in zs)], capture_output=True, text=True)

    def test_every_z_reads_inside_the_table(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            clamped = []
            for name in shipped_kernels():
                k = kfolder.load(GENERATED, name)
                header = k.header.read_text()
                if not k.fixed_point:
                    with self.subTest(name):
                        self.skipTest(f"{name}: no _eval or _expm_p63 (\"fixed_point\": false); its table is "
                                      "read by the adaptors, whose inputs tests/test_fpr_audit.py covers")
                    continue
                with self.subTest(name):
                    done = self._run(k, header, Path(tmp) / name)
                    self.assertEqual((done.returncode, done.stderr), (0, ""))
                if "idx -= (idx - " in header:
                    clamped.append(name)
                    unclamped = re.sub(r"\n *idx -= \(idx - .*;", "", header, count=1)
                    control = self._run(k, unclamped, Path(tmp) / f"{name}_control")
                    self.assertNotEqual(control.returncode, 0, name)
                    self.assertRegex(control.stderr, "global-buffer-overflow|out of bounds")
            self.assertEqual(clamped, ["paper_m3", "paper_x86"])


class Licence(unittest.TestCase):
    def test_licence_file_and_spdx_lines(self) -> None:
        text = (ROOT / "LICENSE").read_text()
        self.assertIn("MIT License", text)
        self.assertIn("CC0 1.0", text)
        for name in shipped_kernels():
            first = (GENERATED / name / f"{name}.h").read_text().split("\n", 1)[0]
            self.assertEqual(first, "/* SPDX-License-Identifier: CC0-1.0")
        sources = subprocess.run(["git", "ls-files", "*.c", "*.h", "*.S"], cwd=ROOT, capture_output=True,
                                 text=True, check=True).stdout.split()
        for path in sources:
            if not path.startswith("generated/"):
                first = (ROOT / path).read_text().split("\n", 1)[0]
                self.assertRegex(first, r"^/\* SPDX-License-Identifier: (MIT|MIT OR CC0-1\.0) \*/$", path)


class TemplateSlips(unittest.TestCase):
    def test_slips_of_the_issue_are_gone(self) -> None:
        for name in shipped_kernels():
            annotated = (GENERATED / name / "provenance" / f"{name}_annotated.h").read_text()
            header = (GENERATED / name / f"{name}.h").read_text()
            self.assertNotRegex(annotated, r"\. \* [A-Z]", name)          # two sentences run together
            self.assertNotRegex(header, r"\bm\d+\b", name)               # a variable called m3 in an x86 kernel
        x86 = (GENERATED / "falcon_x86" / "falcon_x86.h").read_text()
        self.assertNotIn("table_access", "\n".join(_banner(x86)))        # the default, and no table index
        self.assertIn("access none (one segment: table_access has no effect)",
                      (GENERATED / "facct" / "provenance" / "facct_annotated.h").read_text())
        m3 = kfolder.load(GENERATED, "falcon_m3_v1").sidecar
        self.assertEqual(m3["parameters"]["segments"], {"kind": "pow2", "bits": 8})
        self.assertEqual(m3["segments"], 178)


if __name__ == "__main__":
    unittest.main()
