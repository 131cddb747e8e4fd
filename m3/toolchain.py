"""Compile for a Cortex-M core (the M3, or the M4 of `make m4`) and for the
host, run under QEMU or natively."""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

M3_DIR = Path(__file__).resolve().parent
REPO = M3_DIR.parent
# toolkit/c/test_util.h: hex formatting shared with the other harnesses.
TOOLKIT_C = REPO / "toolkit" / "c"

ARM_CC = "arm-none-eabi-gcc"
ARM_OBJDUMP = "arm-none-eabi-objdump"
ARM_NM = "arm-none-eabi-nm"
QEMU = "qemu-system-arm"
# Debian packages providing the tools above (`make deps`).
DEBIAN_PACKAGES = ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi",
                   "binutils-arm-none-eabi", "qemu-system-arm")



@dataclass(frozen=True)
class Core:
    """One emulated microcontroller: QEMU board, code-generation flags (the
    same for the kernels and for the references) and cycle table."""

    name: str                  # "m3" or "m4": the report's and the build folder's name
    machine: str               # qemu-system-arm -M
    cflags: tuple[str, ...]
    timing_table: str          # file name in m3/
    arch_macro: str            # what gcc predefines for the core's architecture


# Cortex-M3 (ARMv7-M) on the MPS2 AN385 image; Cortex-M4 (ARMv7E-M) on the
# AN386 image, which has the same memory map (so m3.ld and the start-up
# code serve both).  Soft float on both: the M4's FPU is single precision
# and Falcon's emulated-float build does not use it.
M3 = Core("m3", "mps2-an385", ("-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft", "-O2"),
          "cm3_timing.tsv", "__ARM_ARCH_7M__")
M4 = Core("m4", "mps2-an386", ("-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=soft", "-O2"),
          "cm4_timing.tsv", "__ARM_ARCH_7EM__")
CORES = {c.name: c for c in (M3, M4)}
# The M3's flags (kept for the callers that name them).
ARM_CFLAGS = list(M3.cflags)
# Bare metal: no C library, no start files; libgcc for 64-bit shifts etc.
ARM_LINK = ["-ffreestanding", "-nostdlib", "-T", str(M3_DIR / "m3.ld")]
ARM_RUNTIME = [M3_DIR / "startup.c", M3_DIR / "semihost.c", M3_DIR / "m3io_fmt.c"]
HOST_RUNTIME = [M3_DIR / "m3io_fmt.c", M3_DIR / "m3io_host.c"]
WARN = ["-Wall", "-Wextra", "-Werror"]

# Every QEMU run stops after this many seconds at most.
QEMU_TIMEOUT_S = 120.0


class M3Error(Exception):
    """A build or run step failed; the message is one line for the user."""


@dataclass(frozen=True)
class RunResult:
    returncode: int
    output: str


def _run(cmd: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise M3Error(f"timed out after {timeout:.0f} s: {' '.join(cmd[:3])} ...") from None
    except FileNotFoundError:
        raise M3Error(f"tool not found: {cmd[0]} (install: {' '.join(DEBIAN_PACKAGES)})") from None


def _compile(cc: str, flags: list[str], sources: list[Path], out: Path,
             defines: list[str], includes: list[Path], libs: list[str]) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [cc, *flags, *WARN, *[f"-D{d}" for d in defines],
           *[f"-I{i}" for i in includes], *[str(s) for s in sources], "-o", str(out), *libs]
    res = _run(cmd, timeout=300)
    if res.returncode != 0:
        first = (res.stderr.strip().splitlines() or ["(no message)"])
        errs = [ln for ln in first if "error" in ln] or first
        raise M3Error(f"compile failed ({out.name}): {errs[0]}")
    return out


def compile_arm(sources: list[Path], out: Path, defines: list[str],
                includes: list[Path], core: Core = M3) -> Path:
    """Link a bare-metal ELF for `core`'s board from `sources` plus the
    start-up code."""
    return _compile(ARM_CC, list(core.cflags) + ARM_LINK, ARM_RUNTIME + sources, out,
                    defines, [M3_DIR, TOOLKIT_C, *includes], ["-lgcc"])


def compile_host(sources: list[Path], out: Path, defines: list[str],
                 includes: list[Path]) -> Path:
    """Build the same program for the host, printing to stdout."""
    cc = os.environ.get("CC", "gcc")
    return _compile(cc, ["-O2"], HOST_RUNTIME + sources, out, defines,
                    [M3_DIR, TOOLKIT_C, *includes], [])


def run_qemu(elf: Path, extra: list[str] | None = None,
             timeout: float = QEMU_TIMEOUT_S, core: Core = M3) -> RunResult:
    """Run `elf` on `core`'s emulated board; return its exit status and its
    semihosting output.  QEMU 7.2 writes semihosting output to stderr unless
    a chardev is named, so the output goes to a file chardev and QEMU's own
    messages stay apart on stderr."""
    with tempfile.TemporaryDirectory(prefix="m3run") as tmp:
        out = Path(tmp) / "semihost.out"
        cmd = [QEMU, "-M", core.machine, "-nographic", "-monitor", "none",
               "-serial", "none",
               "-semihosting-config", "enable=on,target=native,chardev=sh0",
               "-chardev", f"file,id=sh0,path={out}",
               *(extra or []), "-kernel", str(elf)]
        res = _run(cmd, timeout)
        text = out.read_text() if out.exists() else ""
    if res.returncode != 0 and not text and res.stderr.strip():
        raise M3Error(f"qemu failed on {elf.name}: {res.stderr.strip().splitlines()[0]}")
    return RunResult(res.returncode, text)


def run_host(exe: Path, timeout: float = 120.0) -> RunResult:
    res = _run([str(exe)], timeout)
    return RunResult(res.returncode, res.stdout)
