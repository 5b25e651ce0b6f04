"""The scalar→vector path (spec §6) in the compiled loop (:mod:`.compiled`), and how the compiled
loop runs the interpreter's own rules through Numba.

:func:`jit_rule` compiles one of the interpreter's plain integer functions, with the interpreter
functions it calls compiled alongside (Numba compiles a function's globals only when they are
compiled functions themselves); nothing here restates a rule.

This module owns, for the compiled loop:

* which scalar opcodes hand the vector unit which factors (:data:`FACTOR_KINDS`, read off the
  interpreter's own opcode table, ``semantics_scalar.SCALAR_OPS``, by function), and the
  decode-time parts of the s2v value that depend on the word alone (:func:`word_parts`: the
  ``$vc`` selection of the emitters, the immediate source 2 of the byte-product forms);
* :func:`build`, the compiled functions of the path: the factors a scalar word emits
  (``scalar_factors``, every s2v emitter and the default factors of §6.1) and the (f1, f2) a
  vector op's component takes (``component_factors``, with the ``$vc`` mask of §6.3:
  ``selection_mask`` for vmad2/vmac2, ``vc_mask`` for the lerp family).
"""

from __future__ import annotations

import types

from . import s2v, semantics_scalar as scalar, semantics_vector as vector, state as state_module

# How a scalar word's s2v factors are made (the kinds scalar_factors knows).
NO_FACTORS, DEFAULT_SRC1, DEFAULT_DST, BMUL, UNSIGNED_PRODUCTS, BVEC, VEC, BVECMAD, BVECMADSEL = range(9)
_KIND_OF_FUNCTION = {
    scalar.bmin: NO_FACTORS, scalar.bmax: NO_FACTORS, scalar.babs: NO_FACTORS, scalar.bneg: NO_FACTORS,
    scalar.badd: NO_FACTORS, scalar.bsub: NO_FACTORS, scalar.bshr: NO_FACTORS,
    scalar.band: NO_FACTORS, scalar.bor: NO_FACTORS, scalar.bxor: NO_FACTORS,
    scalar.mul: DEFAULT_SRC1, scalar.smin: DEFAULT_SRC1, scalar.smax: DEFAULT_SRC1, scalar.sabs: DEFAULT_SRC1,
    scalar.neg: DEFAULT_SRC1, scalar.add: DEFAULT_SRC1, scalar.sub: DEFAULT_SRC1, scalar.shift: DEFAULT_SRC1,
    scalar.scalar_bitop: DEFAULT_SRC1, scalar.and_imm: DEFAULT_SRC1, scalar.xor_imm: DEFAULT_SRC1,
    scalar.or_imm: DEFAULT_SRC1, scalar.mov_imm: DEFAULT_SRC1, scalar.snop: DEFAULT_SRC1,
    scalar.clearing_nop: DEFAULT_SRC1, scalar.mov_to_file: DEFAULT_SRC1, scalar.mov_from_file: DEFAULT_SRC1,
    scalar.vecms: DEFAULT_SRC1, scalar.sethi: DEFAULT_DST,
    scalar.bmul: BMUL, scalar.bmul_factors_only: BMUL, scalar.unsigned_products: UNSIGNED_PRODUCTS,
    scalar.bvec: BVEC, scalar.vec: VEC, scalar.bvecmad: BVECMAD, scalar.bvecmadsel: BVECMADSEL,
}
FACTOR_KINDS = tuple(_KIND_OF_FUNCTION[function] for function in scalar.SCALAR_OPS)  # by opcode
EMITTERS = frozenset({scalar.bvec, scalar.vec, scalar.vecms, scalar.bvecmad, scalar.bvecmadsel})


def word_parts(word: int) -> tuple[int, int, int, int, int]:
    """What the s2v value of scalar ``word`` takes from the word alone: (emits a ``$vc``
    selection, vcidx, vcflag, vcxfrm, immediate source 2 of the bmul/unsigned-product immediate
    forms, else 0), by the interpreter's own functions."""
    function = scalar.SCALAR_OPS[word >> 24]
    selection = scalar.emitted(word, (0, 0, 0, 0))
    immediate = 0
    if word >> 29 & 1 and function in (scalar.bmul, scalar.bmul_factors_only):
        immediate = scalar.bmul_immediate(word)
    elif word >> 29 & 1 and function is scalar.unsigned_products:
        immediate = scalar.unsigned_product_immediate(word)
    emits = function in EMITTERS
    return (int(emits), selection.vcidx if emits else 0, selection.vcflag if emits else 0,
            selection.vcxfrm if emits else 0, immediate)


def jit_rule(njit, function, **dependencies):
    """``function`` (an interpreter rule) compiled, with the functions it calls by name replaced
    by the compiled ``dependencies``."""
    if dependencies:
        scope = dict(function.__globals__)
        scope.update(dependencies)
        function = types.FunctionType(function.__code__, scope, function.__name__, function.__defaults__)
    return njit(cache=False)(function)


def build(njit):
    """The compiled functions of the s2v path (module docstring), as a namespace."""
    sext = jit_rule(njit, s2v.sext)
    rules = types.SimpleNamespace(sext=sext)
    sext8 = jit_rule(njit, scalar.sext8)
    byte = jit_rule(njit, scalar.byte)
    clip = jit_rule(njit, scalar.clip)
    multiply_input = jit_rule(njit, scalar.multiply_input, sext8=sext8)
    byte_product = jit_rule(njit, scalar.byte_product, multiply_input=multiply_input, byte=byte)
    byte_products = jit_rule(njit, scalar.byte_products, byte_product=byte_product)
    product_factors = jit_rule(njit, scalar.product_factors, sext=sext)
    bmul_rounds = jit_rule(njit, scalar.bmul_rounds)
    unsigned_product_factors = jit_rule(njit, scalar.unsigned_product_factors, sext=sext, byte=byte)
    bvec_factors = jit_rule(njit, scalar.bvec_factors, sext8=sext8, byte=byte)
    bilinear_pair = jit_rule(njit, scalar.bilinear_pair)
    bilinear_factor = jit_rule(njit, scalar.bilinear_factor, sext8=sext8, byte=byte)
    bilinear_values = jit_rule(njit, scalar.bilinear_values, bilinear_factor=bilinear_factor)
    default_factors = jit_rule(njit, s2v.default_factors)
    ten_bit = jit_rule(njit, s2v.ten_bit, sext=sext)
    factor_masks = jit_rule(njit, s2v.factor_masks)
    vc_mask = jit_rule(njit, s2v.vc_mask)
    selection_mask = jit_rule(njit, s2v.selection_mask, vc_mask=vc_mask)
    component_factors = jit_rule(njit, vector.component_factors)
    mangled_index = jit_rule(njit, state_module.mangled_index)
    rules.bmul_result = jit_rule(njit, scalar.bmul_result, clip=clip)
    rules.byte_products = byte_products
    rules.bmul_rounds = bmul_rounds
    rules.sext8, rules.byte, rules.clip, rules.mangled_index = sext8, byte, clip, mangled_index
    rules.vc_mask, rules.bilinear_pair, rules.selection_mask = vc_mask, bilinear_pair, selection_mask
    # shared by the units, so that each is compiled once
    rules.bitop = jit_rule(njit, scalar.bitop)
    rules.quad_register = jit_rule(njit, state_module.quad_register)
    factor_kinds = FACTOR_KINDS

    @njit(cache=False)
    def scalar_factors(sw, r, c, immediate):
        """The four 10-bit factors scalar word ``sw`` hands the vector unit (§6.1, §6.2)."""
        kind = factor_kinds[sw >> 24]
        src1, src2 = sw >> 14 & 31, sw >> 9 & 31
        if kind == 1:  # DEFAULT_SRC1
            factors = default_factors(r[src1])
        elif kind == 2:  # DEFAULT_DST
            factors = default_factors(r[sw >> 19 & 31])
        elif kind == 3:  # BMUL
            s2 = immediate if sw >> 29 & 1 else r[src2]
            products = byte_products(r[src1], s2, sw >> 2 & 1 == 1, sw >> 1 & 1 == 1, not sw >> 28 & 1,
                                     bmul_rounds(sw))
            factors = product_factors(sw, products)
        elif kind == 4:  # UNSIGNED_PRODUCTS
            if sw >> 24 == 0x1F:
                s2 = r[mangled_index(c[sw >> 3 & 3], sw >> 5 & 15, src2)]
            elif sw >> 29 & 1:
                s2 = immediate
            else:
                s2 = r[src2]
            factors = unsigned_product_factors(r[src1], s2)
        elif kind == 5:  # BVEC
            factors = bvec_factors(r[src1])
        elif kind == 6:  # VEC: FACTOR1 (bits 1–9), FACTOR2 (bits 10–18), signed
            first, second = sext(sw >> 1, 9), sext(sw >> 10, 9)
            factors = (first, first, second, second)
        elif kind == 7 or kind == 8:  # BVECMAD, BVECMADSEL
            cv = c[sw >> 3 & 3]
            first, second = bilinear_pair(cv, sw >> 5 & 15, src2)
            factors = bilinear_values(r[first], r[second], r[src1], kind == 8, sw >> 5 & 15, cv)
        else:
            factors = (0, 0, 0, 0)
        return ten_bit(factors)

    rules.scalar_factors = scalar_factors
    rules.component_factors, rules.factor_masks = component_factors, factor_masks
    return rules
