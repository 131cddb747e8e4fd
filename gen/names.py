"""Which kernel names are safe: a name becomes a file (<name>.h), a prefix
of C functions (<name>_eval), of macros (<NAME>_SCALE_BITS) and of the
table (<name>_coeffs, external linkage), so it must not shadow a standard
or runtime header, nor make any of those identifiers a C or C++ keyword or
one the C standard reserves (C11 7.1.3 and the future library directions
of 7.31; C++ [lex.name] for double underscores)."""

from __future__ import annotations

import re
from typing import Optional

NAME = re.compile(r"[a-z][a-z0-9_]{0,47}")

# <name>.h must not shadow these on an include path: the C standard library
# (C99 to C23) and the headers a generated kernel includes itself.
HEADERS = frozenset("""
    assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal
    stdalign stdarg stdatomic stdbit stdbool stdckdint stddef stdint stdio stdlib stdnoreturn
    string tgmath threads time uchar wchar wctype emmintrin
""".split())

KEYWORDS = frozenset("""
    auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while alignas alignof bool constexpr false nullptr
    static_assert thread_local true typeof typeof_unqual
    and and_eq asm bitand bitor catch char8_t char16_t char32_t class co_await co_return
    co_yield compl concept const_cast consteval constinit decltype delete dynamic_cast explicit
    export friend mutable namespace new noexcept not not_eq operator or or_eq private
    protected public reinterpret_cast requires static_cast template this throw try typeid
    typename using virtual wchar_t xor xor_eq
""".split())

# Prefixes the C library reserves for its future names, as (pattern on the
# lower-case function/table prefix "<name>_", pattern on the macro prefix
# "<NAME>_", the header that reserves it).
_RESERVED = [
    (r"(is|to)[a-z]", None, "<ctype.h>/<wctype.h>"),
    (r"(str|mem|wcs)[a-z]", None, "<string.h>/<stdlib.h>"),
    (r"(cr_|atomic_|memory_order_|cnd_|mtx_|thrd_|tss_)", None, "<math.h>/<stdatomic.h>/<threads.h>"),
    (None, r"E[0-9A-Z]", "<errno.h>"),
    (None, r"(PRI|SCN)[a-zX]", "<inttypes.h>"),
    (None, r"(LC_[A-Z]|SIG[A-Z]|SIG_[A-Z]|FE_[A-Z]|TIME_[A-Z]|ATOMIC_[A-Z])", "<locale.h>/<signal.h>/<fenv.h>/<time.h>/<stdatomic.h>"),
    (None, r"U?INT[0-9A-Z_]*_(MAX|MIN|WIDTH|C)$", "<stdint.h>"),
]

# Macro suffixes of every kernel (docs/abi.md), to test whole macro names
# against the patterns above (the <stdint.h> one looks at the end).
_MACRO_SUFFIXES = ("Z_MAX", "SCALE_BITS", "TABLE_EXTERN", "CONTENT_HASH")


def problem(name: str) -> Optional[str]:
    """Why `name` cannot be a kernel name, or None if it can."""
    if not NAME.fullmatch(name):
        return "must be a lower-case C identifier (a-z, 0-9, _; at most 48 characters, a letter first)"
    if "__" in name or name.endswith("_"):
        return "must not contain '__' or end with '_' (identifiers with '__' are reserved in C++)"
    if re.search(r"(^|_)fxp(_|$)", name):
        return "must not contain the word 'fxp' (the runtime helpers' names are <name>_fxp_...)"
    if name in HEADERS:
        return f"<{name}.h> would shadow a standard header or one a kernel includes"
    if name in KEYWORDS:
        return "is a C or C++ keyword"
    upper = name.upper()
    for lower_pattern, upper_pattern, header in _RESERVED:
        if lower_pattern and re.match(lower_pattern, name + "_"):
            return f"'{name}_...' names are reserved for {header}"
        if upper_pattern and any(re.match(upper_pattern, f"{upper}_{s}") for s in _MACRO_SUFFIXES):
            return f"'{upper}_...' macros are reserved for {header}"
    return None
