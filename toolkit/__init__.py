"""Utilities shared by the tools: the disassembly classes (disasm), the
table printer (table), atomic file writes (files) and, under c/, the C
header of test utilities every harness includes (test_util.h)."""
