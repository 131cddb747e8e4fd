"""Stage 6, proof: every bound a kernel states, and nothing else computes one.

How a kernel's bound is assembled, for a reader auditing it (the
derivations are written out in docs/error-model.md):

1. **Approximation** (:mod:`.approximation`).  For each segment, a proven
   interval [lo, hi] containing p(v) - f(x(v)) for the *quantized*
   polynomial p (its exact rational coefficients) over the whole segment:
   Taylor models of f in outward-rounded interval arithmetic, and branch
   and bound on the difference polynomial.  The fit stage computes it (it
   centres the constant coefficient on it) and hands it forward; a later
   change of the constant coefficient shifts it exactly.
2. **Evaluation** (:mod:`.evaluation`).  For each node of the quantized
   scheme, an interval containing U - Uhat (the computed word minus the
   exact value of the same graph for the same coefficients), carried
   through products, shifts and sums in exact rationals, with the losses of
   truncated limb products (:mod:`.truncation`) and the binary64 tail's
   error (:mod:`.float_tail`) as node errors.  The root's interval is the
   evaluation error.
3. **Output** (:mod:`.output`).  approximation * 2^s + evaluation bounds the
   root word's error; each entry point then rounds, shifts, multiplies by
   ccs or converts its inputs, and its interval follows (one function per
   form: direct, one_minus, wide, binary64 tail, ccs by its significand).

:func:`gen.proof.assemble.prove` runs steps 2 and 3 for every segment and
returns a :class:`gen.proof.assemble.KernelProof`; its bounds are the ones
the headers, the sidecar and the tests read.  The ranges that show no step
overflows are proven where the scales are chosen (:mod:`gen.quantize`).

Nothing is imported here, so that the quantization stage can use
:mod:`.float_tail` and :mod:`.truncation` without loading the rest.
"""
