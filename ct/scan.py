"""Binary scan: read `objdump -dr` of a wrapper object and count, per entry
point, the instructions whose timing or address can depend on a secret.

Counted (see docs/constant-time.md for what is allowed and why):
  cond_branches   conditional jumps (jcc, loop*, jrcxz) and indirect jumps
  fp_insns        x87, MMX and SSE/AVX instructions (x87, VEX and cvt*
                  mnemonics, any use of an st/mm/xmm/ymm/zmm register)
  fp_disallowed   those outside NATIVE_FP_ALLOWED (all of them count for
                  integer entries)
  calls           calls and tail-jumps to functions outside the object
                  (e.g. __multi3, soft-float helpers) and indirect calls
                  (counted since the scans were unified: the stricter rule);
                  calls to functions of the same object are followed and
                  their code is scanned
  divisions       div/idiv and SSE/AVX divisions
  indexed_mem     memory operands with an index register, e.g. (%rax,%rcx,8)
  secret_base_mem memory operands whose base register holds data derived
                  from the secret inputs, found by a forward taint pass

The listing is parsed, and every class above defined, by
toolkit.disasm.x86; this module adds the policy (the allowed-SSE list of
the native adaptors) and the taint pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolkit.disasm import x86
from toolkit.disasm.x86 import Insn, family as _family, mem_regs as _mem_regs

# SSE/AVX instructions the native-float adaptor may use: register moves and
# bit operations, IEEE add/subtract/multiply (fixed latency on x86-64 for
# normal, non-subnormal operands), min/max and compares (fixed latency; a
# compare feeding a branch is caught as a branch, one feeding SETcc or a
# mask is a select) and the truncating conversions.  Division and square
# root are not allowed: their latency depends on the operands.
NATIVE_FP_ALLOWED = frozenset({
    "movsd", "movq", "movd", "movapd", "movaps", "movupd", "movups",
    "pxor", "xorpd", "xorps", "andpd", "andps", "andnpd", "andnps", "orpd", "orps",
    "unpcklpd", "blendvpd",
    "mulsd", "addsd", "subsd", "maxsd", "minsd",
    "comisd", "ucomisd", "cmpsd", "cmpltsd", "cmplesd", "cmpnltsd", "cmpnlesd",
    "cmpeqsd", "cmpneqsd", "cmpunordsd", "cmpordsd",
    "cvttsd2si", "cvttsd2siq", "cvttsd2sil",
    "cvtsi2sd", "cvtsi2sdq", "cvtsi2sdl",
    "fmadd132sd", "fmadd213sd", "fmadd231sd",
    "fmsub132sd", "fmsub213sd", "fmsub231sd",
    # Form head (x86-64-v3): the subnormal flush is an integer compare and
    # an AND on the vector register (the value broadcast first), and trunc
    # is ROUNDSD (fixed latency; its operands are never subnormal, proven).
    "movddup", "punpcklqdq", "pcmpgtq", "pand", "roundsd",
    # Form eft (binary64 error-free transforms): the sign variants of the
    # FMA (one rounding, the same latency), the integer equality compare
    # and OR of its constant-time scan over the table keys (every row read,
    # the matching one kept by a mask), and a register shuffle.
    "fnmadd132sd", "fnmadd213sd", "fnmadd231sd",
    "pcmpeqq", "por", "unpckhpd",
    # Form fold: x 2^63 as an integer add of 63 << 52 to the double's bits
    # on the vector register (PADDQ), the rounding conversion CVTSD2SI of
    # the binary64 tail (fixed latency; its operand is never subnormal,
    # proven, and below 2^62), and MAXPD, which gcc 12 emits for the
    # tail's _mm_max_sd (both lanes normal or zero: the upper ones are 0).
    "paddq", "cvtsd2si", "cvtsd2siq", "maxpd",
    # Form twin: the lift of x and ccs, VPMAXSD (a signed integer maximum
    # of each 32-bit half: fixed latency, and no binary64 operation on a
    # possibly subnormal input).
    "pmaxsd",
})

# The SIMD instructions the batch forms may use besides those (mnemonics
# without their VEX/EVEX "v"), all of fixed latency whatever their
# operands on x86-64: 64-bit lane add/subtract, logic (AND/OR/XOR,
# VPTERNLOG), constant shifts and the variable shifts VPSLLVQ/VPSRLVQ
# (their count is a secret in the AVX2 conversion; fixed latency on Intel
# since Haswell and AMD since Zen), VPSHUFD, the exact 32x32 -> 64-bit
# product VPMULUDQ and VPMULLQ (AVX-512DQ), compares into masks or
# vectors, broadcasts and register moves, packed binary64 multiply,
# add, subtract, FMA, min/max, round-to-integer and the truncating
# conversion VCVTTPD2QQ (operands never subnormal: the same values as the
# scalar adaptor's, proven), and VZEROUPPER.  Not allowed: gathers and
# scatters (a secret index), masked loads or stores (their mask comes from
# n, but none is needed on a full register), divisions and square roots.
BATCH_SIMD_ALLOWED = frozenset({
    "paddq", "psubq", "pand", "pandd", "pandq", "pandn", "pandnd", "pandnq",
    "por", "pord", "porq", "pxor", "pxord", "pxorq", "pternlogd", "pternlogq",
    "psrlq", "psllq", "psraq", "psrlvq", "psllvq", "pshufd",
    "pmuludq", "pmullq",
    "pcmpgtq", "pcmpnleq", "pcmpltq", "pcmpltuq", "pcmpnleuq", "pcmpnltuq", "pcmpleuq",
    "broadcastsd", "pbroadcastq", "movdqa", "movdqa32", "movdqa64", "movdqu", "movdqu64",
    "mulpd", "addpd", "subpd", "fmadd132pd", "fmadd213pd", "fmadd231pd", "maxpd", "minpd",
    "andpd", "xorpd", "rndscalepd", "roundpd", "cvttpd2qq",
    "zeroupper", "extracti128", "extracti64x4",
    # Form eft: the FMA's sign variants; 32-bit lane add (VPADDD, the
    # dword indices of the AVX2 permutes); the packed binary64 compare
    # VCMPGT_OQPD into a vector; the register permutes VPERMT2PD and
    # VPERMI2PD (AVX-512: the same two-table permute, the compiler picks
    # which source it overwrites) and VPERMD (AVX2), whose index is secret
    # (the segment) but which
    # read registers only, at a latency that does not depend on the index;
    # VCVTPD2QQ (the rounding conversion, {rn-sae}: fixed latency like
    # VCVTTPD2QQ).  No operand is subnormal: the inputs are flushed first
    # (docs/error-model.md, the eft form).  Only what its code uses.
    "fmsub132pd", "fmsub213pd", "fmsub231pd", "fnmadd132pd", "fnmadd213pd", "fnmadd231pd",
    "paddd", "cmpgt_oqpd", "permt2pd", "permi2pd", "permd", "cvtpd2qq",
})


@dataclass
class Counts:
    """What the scan found in one entry point."""

    instructions: int = 0
    cond_branches: int = 0
    fp_insns: int = 0
    fp_disallowed: int = 0
    calls: int = 0
    divisions: int = 0
    indexed_mem: int = 0
    secret_base_mem: int = 0
    findings: list[str] = field(default_factory=list)

    def clean(self) -> bool:
        """True when nothing secret-dependent was found."""
        return not (self.cond_branches or self.fp_disallowed or self.calls
                    or self.divisions or self.indexed_mem or self.secret_base_mem)


class _Taint:
    """Forward taint over registers, flags and stack slots, in program order.
    Exact for straight-line code.  For code with branches (which fails the
    branch count anyway) the pass is made monotone, a register once tainted
    stays tainted, and is iterated to a fixed point first, so that no path
    can hide a secret-derived address.  Sources: the argument registers."""

    def __init__(self, args: tuple[str, ...], monotone: bool = False) -> None:
        self.monotone = monotone
        self.regs: set[str] = set(args)
        self.flags = False
        self.stack: list[bool] = []
        self.slots: dict[str, bool] = {}

    def read(self, op: str) -> bool:
        mem = _mem_regs(op)
        if mem is None:
            return op.startswith("%") and _family(op) in self.regs
        base, index = mem
        if base and _family(base) == "rsp" and index is None:
            return self.slots.get(op, False)
        return self.addr_tainted(op)

    def addr_tainted(self, op: str) -> bool:
        mem = _mem_regs(op)
        return bool(mem) and any(r is not None and _family(r) in self.regs for r in mem)

    def write(self, op: str, tainted: bool) -> None:
        mem = _mem_regs(op)
        if mem is None:
            if op.startswith("%") and (tainted or not self.monotone):
                (self.regs.add if tainted else self.regs.discard)(_family(op))
            return
        if mem[0] and _family(mem[0]) == "rsp" and mem[1] is None:
            self.slots[op] = tainted or (self.monotone and self.slots.get(op, False))

    def step(self, insn: Insn) -> None:
        m, ops = insn.mnemonic, insn.operands
        srcs = any(self.read(o) for o in ops[:-1]) if len(ops) > 1 else False
        if m.startswith("push"):
            self.stack.append(self.read(ops[0]) if ops else False)
        elif m.startswith("pop"):
            if ops:
                self.write(ops[0], self.stack.pop() if self.stack else False)
        elif m in ("mul", "mulq", "imul", "imulq", "div", "divq", "idiv", "idivq") and len(ops) == 1:
            t = self.read(ops[0]) or "rax" in self.regs or (m.lstrip("i").startswith("div") and "rdx" in self.regs)
            self.write("%rax", t)
            self.write("%rdx", t)
            self.flags = t
        elif m in ("cqto", "cqo", "cltd"):
            self.write("%rdx", "rax" in self.regs)
        elif not ops:
            return
        elif len(ops) == 2 and ops[0] == ops[1] and m.lstrip("v") in ("xor", "xorl", "xorq", "sub", "subl", "subq", "pxor", "xorps", "xorpd"):
            self.write(ops[1], False)
            self.flags = False
        elif m.startswith(("cmp", "test", "bt", "ucomi", "comi")):
            self.flags = any(self.read(o) for o in ops)
        elif m.startswith("set"):
            self.write(ops[-1], self.flags)
        elif m.startswith("cmov"):
            self.write(ops[-1], srcs or self.flags or self.read(ops[-1]))
        elif m.startswith("lea"):
            self.write(ops[-1], self.addr_tainted(ops[0]))
        elif m.startswith(("mov", "vmov", "cvt", "vcvt")) or len(ops) >= 3:
            self.write(ops[-1], srcs)
        else:
            # Read-modify-write (add, sub, and, shifts, SSE two-operand
            # arithmetic, ...): the old destination is a source too; a
            # shift by %cl also reads rcx.
            t = srcs or self.read(ops[-1]) or (m[:3] in ("shl", "shr", "sar", "rol", "ror") and len(ops) == 1 and "rcx" in self.regs)
            if m.startswith(("adc", "sbb", "rcl", "rcr")):
                t = t or self.flags
            self.write(ops[-1], t)
            self.flags = t


def scan_function(funcs: dict[str, list[Insn]], name: str, native: bool, simd: bool = False) -> Counts:
    """Counts for one entry wrapper, following calls inside the object;
    `simd` (a batch entry) also allows BATCH_SIMD_ALLOWED."""
    args = ("xmm0", "xmm1") if native else ("rdi", "rsi")
    code = _reachable(funcs, name)
    branchy = any(x86.is_cond_branch(i) for _, i in code)
    taint = _Taint(args, monotone=branchy)
    if branchy:
        for _ in range(len(code)):
            before = (set(taint.regs), dict(taint.slots))
            for _, insn in code:
                taint.step(insn)
            if before == (taint.regs, taint.slots):
                break
    c = Counts()
    allowed = (NATIVE_FP_ALLOWED | BATCH_SIMD_ALLOWED if simd else NATIVE_FP_ALLOWED) if native else frozenset()
    for fname, insn in code:
        _count(insn, funcs, fname, allowed, taint, c)
    return c


def _reachable(funcs: dict[str, list[Insn]], name: str) -> list[tuple[str, Insn]]:
    """The entry's instructions followed by those of every function of the
    same object that it calls, directly or not."""
    code: list[tuple[str, Insn]] = []
    pending, seen = [name], set()
    while pending:
        fname = pending.pop(0)
        if fname in seen:
            continue
        seen.add(fname)
        for insn in funcs[fname]:
            code.append((fname, insn))
            if insn.mnemonic.startswith(("call", "jmp")) and insn.target in funcs:
                pending.append(insn.target)
    return code


def _count(insn: Insn, funcs: dict[str, list[Insn]], fname: str, allowed: frozenset[str],
           taint: _Taint, c: Counts) -> None:
    m = insn.mnemonic
    if m.startswith(("nop", "endbr", "ret", "int3", "ud2")):
        return
    c.instructions += 1
    note = f"{fname}: {insn.text}"
    if x86.is_cond_branch(insn):
        c.cond_branches += 1
        c.findings.append(f"branch      {note}")
    # A target in the same object is scanned as part of the entry (see
    # _reachable); anything else is a call out, tail jumps included.
    if x86.is_call(insn, funcs) or x86.is_indirect_call(insn):
        c.calls += 1
        c.findings.append(f"call        {note}")
    if x86.is_division(insn):
        c.divisions += 1
        c.findings.append(f"division    {note}")
    if x86.is_fp(insn):
        c.fp_insns += 1
        if m.lstrip("v") not in allowed:
            c.fp_disallowed += 1
            c.findings.append(f"fp          {note}")
    if not m.startswith("lea"):
        for op in insn.operands:
            mem = _mem_regs(op)
            if mem is None:
                continue
            if mem[1] is not None:
                c.indexed_mem += 1
                c.findings.append(f"indexed     {note}")
            elif taint.addr_tainted(op):
                c.secret_base_mem += 1
                c.findings.append(f"secret-base {note}")
    taint.step(insn)
