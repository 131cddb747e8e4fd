"""Constant-time evidence for the generated exp(-x) kernels.

Three independent checks run on the compiled code of every kernel and of its
Falcon adaptors: taint tracking under valgrind memcheck (taint.py), a
dudect-style Welch t-test on cycle counts (ttest.py), and a scan of the
disassembly (scan.py).  run.py drives them and writes build/ct.json.
"""
