"""Render the C wrappers (one non-inlined function per entry point) and the
registry through which the harnesses call them."""

from __future__ import annotations

from ct.kernels import BATCH_ISAS, KIND_DBL, KIND_Z32, Entry, Kernel, entries

_PROLOGUE = """\
/* Rendered by ct/wrappers.py for kernel {kernel}: one non-inlined wrapper per
 * entry point, so that each entry point's compiled code is one function the
 * binary scan can read and the harnesses can call.  noclone and no_icf keep
 * GCC from specialising the wrappers or folding identical ones into jumps;
 * no sibling calls keeps the wrapper's frame on the stack when the entry
 * point is too large to be inlined (memcheck's reports are attributed to
 * the wrapper found in their stack). */
#include <stdint.h>
#include <immintrin.h>
{includes}
#if defined(__clang__)
#define CT_WRAP __attribute__((noinline, used))
#else
#define CT_WRAP __attribute__((noinline, noclone, no_icf, used, optimize("no-optimize-sibling-calls")))
#endif

"""


def _batch_wrapper(entry: Entry) -> str:
    """A batch entry called on one secret pair: the array paths on `lanes`
    copies of it (one full register, so no tail code), the register-level
    entry on a broadcast; lane 0 of the result is returned."""
    lanes = entry.lanes
    attr = f'__attribute__((target("{BATCH_ISAS[entry.isa][1]}"))) ' if entry.isa else ""
    head = f"CT_WRAP {attr}uint64_t {entry.wrapper}(double a, double b)"
    if entry.suffix.startswith("expm_p63_x"):
        p = "_mm512" if lanes == 8 else "_mm256"
        body = (f"    return (uint64_t)_mm_cvtsi128_si64({p}_castsi{64 * lanes}_si128("
                f"{entry.name}({p}_set1_pd(a), {p}_set1_pd(b))));\n")
    else:
        body = (f"    double x[{lanes}], c[{lanes}];\n    uint64_t out[{lanes}];\n    int i;\n"
                f"    for (i = 0; i < {lanes}; i++) {{\n        x[i] = a;\n        c[i] = b;\n    }}\n"
                f"    {entry.name}(out, x, c, {lanes});\n    return out[0];\n")
    return f"{head};\n{head}\n{{\n{body}}}\n\n"


def _wrapper(entry: Entry) -> str:
    if entry.is_batch:
        return _batch_wrapper(entry)
    if entry.kind == KIND_DBL:
        return (f"CT_WRAP uint64_t {entry.wrapper}(double a, double b);\n"
                f"CT_WRAP uint64_t {entry.wrapper}(double a, double b)\n"
                f"{{\n    return {entry.name}(a, b);\n}}\n\n")
    if entry.kind == KIND_Z32:
        call = f"(uint64_t){entry.name}((uint32_t)a)"
    elif entry.suffix == "eval":
        call = f"{entry.name}(a)"
    else:
        call = f"{entry.name}(a, b)"
    unused = "    (void)b;\n" if entry.suffix == "eval" else ""
    return (f"CT_WRAP uint64_t {entry.wrapper}(uint64_t a, uint64_t b);\n"
            f"CT_WRAP uint64_t {entry.wrapper}(uint64_t a, uint64_t b)\n"
            f"{{\n{unused}    return {call};\n}}\n\n")


def render_wrappers(kernel: Kernel) -> str:
    """The wrapper translation unit of one kernel."""
    includes = "".join(f'#include "{h}"\n' for h in kernel.headers)
    text = _PROLOGUE.format(kernel=kernel.name, includes=includes)
    return text + "".join(_wrapper(e) for e in entries(kernel))


def render_registry(kernels: list[Kernel]) -> str:
    """The table of every entry of every kernel (struct ct_entry)."""
    wrapped = [e for k in kernels for e in entries(k)]
    lines = ["/* Rendered by ct/wrappers.py: every wrapped entry point. */",
             '#include <stddef.h>', '#include "ct_entry.h"', ""]
    for e in wrapped:
        arg = "double" if e.kind == KIND_DBL else "uint64_t"
        lines.append(f"uint64_t {e.wrapper}({arg} a, {arg} b);")
    lines += ["", "const struct ct_entry ct_registry[] = {"]
    for e in wrapped:
        fns = ("NULL", e.wrapper) if e.kind == KIND_DBL else (e.wrapper, "NULL")
        lines.append(f'    {{"{e.name}", {e.kind}, {fns[0]}, {fns[1]}}},')
    lines += ["};", f"const unsigned ct_registry_count = {len(wrapped)}u;", ""]
    return "\n".join(lines)
