"""Cortex-M emulation harness: build kernels for the Cortex-M3 (`make m3`)
or the Cortex-M4 (`make m4`), run them in QEMU, count executed
instructions, model cycles, scan the ARM binaries and measure the error
distribution.

See docs/m3.md.  Modules: toolchain (the cores, compile and run), vectors
(the input set), disasm (objdump parsing), timing (the cycle tables),
trace (per-call counts from an execution trace), systick (counts from
SysTick under -icount), scan (static binary scan), errdist (measured error
distribution), build (per-target programs), report (the `make m3` / `make
m4` entry point)."""
