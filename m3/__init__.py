"""Cortex-M3 emulation harness: build kernels for the M3, run them in QEMU,
count executed instructions, model cycles and scan the ARM binaries.

See docs/m3.md.  Modules: toolchain (compile and run), vectors (the input
set), disasm (objdump parsing), timing (the cycle table), trace (per-call
counts from an execution trace), systick (counts from SysTick under
-icount), scan (static binary scan), build (per-kernel programs), report
(the `make m3` entry point)."""
