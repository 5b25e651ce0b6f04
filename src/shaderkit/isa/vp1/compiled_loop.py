"""The kernel of the compiled loop (:mod:`.compiled`) as written: :func:`run`, which runs
compiled bundles until one is not, with a branch for every opcode.

:func:`run` is not compiled as it stands: :mod:`.compiled_codegen` writes it, and the units it
calls, per program with the branches of the opcodes the program does not use removed, and
:func:`shaderkit.core.jit.compile_source` compiles and caches that (a later process loads the
machine code). This module holds what the written kernel reads: importing it creates the
compiled units (dispatchers; nothing is compiled yet) — the interpreter's own rules through
:func:`.compiled_s2v.jit_rule` and the scalar, address and s2v units of :mod:`.compiled_scalar`,
:mod:`.compiled_address` and :mod:`.compiled_s2v` — and the tables the branches test. The
units are compiled into the kernel on its first call and are not cached on their own; only
the kernel is called from Python.
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.core.registry import CPUDispatcher

from ...core.jit import LeanPipeline

from . import compiled_address, compiled_s2v, compiled_scalar, semantics_branch, semantics_vector
from . import state as state_module
from .compiled import NONE, VECTOR_READS_S2V
from .compiled_address import (AA_INDEX, AA_VALUE, AC_BITS, AC_INDEX, AC_MASK, AR_INDEX, AR_VALUE, AV_INDEX, AVX,
                               STORE_COUNT)
from .compiled_address import LOADS_VX as loads_vx
from .compiled_address import SLOTS as ADDRESS_SLOTS
from .compiled_scalar import (A_INDEX, A_VALUE, C_BITS, C_INDEX, L_INDEX, L_VALUE, MOV_FROM, MOV_TO, OTHER_D,
                              OTHER_FILE, OTHER_INDEX, OTHER_M, OTHER_MI, OTHER_SR, OTHER_UC, OTHER_VALUE, OTHER_X,
                              PORT_V, R_INDEX, R_VALUE, RM_INDEX, RM_VALUE, SLOTS, V_INDEX, V_VALUE, V_WORD)



class _UnitDispatcher(CPUDispatcher):
    """A unit's dispatcher, compiled once per argument *types*: Numba would compile a rule
    called with a constant (``sext(x, 28)``, ``readout_shift(False, True, rs)``) once per
    constant value, 44 extra compilations of the loop's first call. The constant still folds
    where LLVM inlines the unit into :func:`run`."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(arg) for arg in args),
                                         {name: types.unliteral(arg) for name, arg in kws.items()})


def njit(cache=False):
    """``numba.njit(cache=False)`` for the units (:class:`_UnitDispatcher`): compiled into
    :func:`run`, and cached with it, never called on their own — so without the wrappers
    that call a compiled function from Python or C, which would cost a quarter of the kernel's
    first call."""
    def compile_one(function):
        return _UnitDispatcher(py_func=function, locals={}, pipeline_class=LeanPipeline,
                               targetoptions={"nopython": True, "boundscheck": None, "no_cpython_wrapper": True,
                                              "no_cfunc_wrapper": True})
    return compile_one


M32 = 0xFFFFFFFF
C_ZERO, C_ONE = state_module.C_ALWAYS_ZERO, state_module.C_ALWAYS_ONE  # $c bits that read as 0 / 1

# The interpreter's $a arithmetic (§8.2) and mangled source (§4.3), compiled likewise.
# The multiply-accumulate datapath's readout shift (§7.2), compiled likewise.
readout_shift = njit(cache=False)(semantics_vector.readout_shift)
loop_step = njit(cache=False)(semantics_branch.loop_step)  # the $l update (§9)
VA_MASK = state_module.VA_MASK
rules = compiled_s2v.build(njit)
component_factors, factor_masks, vc_mask = rules.component_factors, rules.factor_masks, rules.vc_mask
scalar_factors, sext8, sext = rules.scalar_factors, rules.sext8, rules.sext
# the per-component rules of vshr, vadd9, vclip, vminabs, vcmpad and vbitop: the interpreter's
shift_component = compiled_s2v.jit_rule(njit, semantics_vector.shift_component, sext8=rules.sext8,
                                        sext=rules.sext)
add9_raw = compiled_s2v.jit_rule(njit, semantics_vector.add9_raw, sext=rules.sext)
clip_component = compiled_s2v.jit_rule(njit, semantics_vector.clip_component, sext8=rules.sext8)
minabs_component = compiled_s2v.jit_rule(njit, semantics_vector.minabs_component, sext8=rules.sext8)
cmpad_flags = compiled_s2v.jit_rule(njit, semantics_vector.cmpad_flags)
bitop = rules.bitop
selection_mask, mangled_index = rules.selection_mask, rules.mangled_index
swizzle_source = compiled_s2v.jit_rule(njit, semantics_vector.swizzle_source)
clipping_component = compiled_s2v.jit_rule(njit, semantics_vector.clipping_component, sext8=rules.sext8,
                                           clip=rules.clip)
clip_kind = np.full(256, -1, dtype=np.int64)  # the clipping ops' rule, by the interpreter's opcode table
clip_rules = {semantics_vector.vmin: semantics_vector.CLIP_MIN, semantics_vector.vmax: semantics_vector.CLIP_MAX,
              semantics_vector.vabs: semantics_vector.CLIP_ABS, semantics_vector.vneg: semantics_vector.CLIP_NEG,
              semantics_vector.vadd: semantics_vector.CLIP_ADD, semantics_vector.vsub: semantics_vector.CLIP_SUB}
for index, function in enumerate(semantics_vector.VECTOR_OPS):
    clip_kind[0x80 + index] = clip_rules.get(function, -1)
accumulate_one = compiled_s2v.jit_rule(njit, semantics_vector.accumulate_one, sext=rules.sext)
quad_register = rules.quad_register
scalar_kinds = np.array(compiled_scalar.KINDS, dtype=np.int64)  # the scalar unit's kind of each opcode
reads_s2v = np.zeros(256, dtype=np.int64)
reads_s2v[list(VECTOR_READS_S2V)] = 1
scalar_unit = compiled_scalar.build(njit, rules)
address_unit, r_port = compiled_address.build(njit, rules)
UCCFG = state_module.UCCFG
multiply_form = np.zeros(256, dtype=np.int64)
multiply_from_va = np.zeros(256, dtype=np.int64)
multiply_writes_vd = np.zeros(256, dtype=np.int64)
for opcode, (from_va, write_vd) in semantics_vector.MULTIPLY_FORMS.items():
    multiply_form[opcode], multiply_from_va[opcode], multiply_writes_vd[opcode] = 1, from_va, write_vd

# The datapath's input conversion, rounding constant and readout (§7.2): the interpreter's.
mad_rounding = njit(cache=False)(semantics_vector.rounding_constant)
mad_input = njit(cache=False)(semantics_vector.convert)
read_out = njit(cache=False)(semantics_vector.read_out_byte)


def work_arrays() -> tuple:
    """The arrays :func:`run` keeps a bundle's pending writes in (its ``work``), made by the
    caller: allocating them in the kernel would compile NumPy's allocation into every kernel."""
    return tuple(np.zeros(size, dtype=np.int64) for size in (SLOTS, ADDRESS_SLOTS, 16, 16, 16, 16, 16, 16))


def run(table, r, v, vc, a, c, l, sr, va, vx, mi, uc, m, d, xr, store, flow, g80, loop_rule, exit_delay_slot,
        budget, stack, ret_delay_slot, work):
    """flow: [pc, redirect, stop_after_next, exited, exit_code, interrupt, bundles,
    redirect_is_call, return stack entries]; ``stack``: the return stack (its size is
    the machine's return_stack_depth); ``work``: :func:`work_arrays`."""
    sp, ap, new_vx, new_v, stores_at, stores_value, vector_result, new_va = work
    size = table.shape[0]
    executed = 0
    while flow[3] == 0 and executed < budget:
        pc = flow[0]
        if pc < 0 or pc >= size or table[pc, 0] != 1:
            break
        length = table[pc, 1]
        aw, sw, vw, bw = table[pc, 2], table[pc, 3], table[pc, 4], table[pc, 5]
        pushes = flow[1] != NONE and flow[7] == 1
        if pushes and flow[8] >= stack.shape[0]:
            break  # a call with the return stack full: the interpreter raises its error
        if bw != NONE and bw >> 24 == 0xE8 and flow[8] + (1 if pushes else 0) == 0:
            break  # a ret with the return stack empty: likewise
        uccfg_down = uc[UCCFG] & 1  # $uccfg bit 0: the multiply-accumulate ties round down
        # pending writes
        vv_index = -1
        vc_index = -1
        vc_value = 0
        va_written = False
        bc_index = -1
        bc_bits = 0
        bl_index = -1
        bl_value = 0
        flow_kind = 0  # 0 none, 1 jump, 2 exit, 3 call, 4 ret
        condition = False
        target = 0
        has_loop = False
        loop_before = 0
        loop_after = 0
        exit_code = 0
        interrupt = 0
        # scalar (compiled_scalar: its writes in sp); the shared read ports only with a scalar word
        port_r_move, port_r_store = r_port(aw if table[pc, 11] else NONE, sw, c)
        scalar_unit(sw, aw if table[pc, 11] else NONE, bw, sp, table[pc, 10], port_r_move, r, v, a, c, l, sr, mi,
                    uc, m, d, xr, g80)
        # address (compiled_address: its writes in ap, new_v, new_vx and the store lists)
        if aw != NONE:
            address_unit(aw, ap, new_v, new_vx, stores_at, stores_value, r, v, a, c, store, sp[PORT_V],
                         port_r_store)
        # vector (reads v before the address load lands: the load is in new_v, not v)
        if vw != NONE:
            op = vw >> 24
            factors = (0, 0, 0, 0)
            s2v_valid, s2v_index, s2v_flag, s2v_xfrm = table[pc, 6], table[pc, 7], table[pc, 8], table[pc, 9]
            if reads_s2v[op]:  # the scalar word's s2v value, from the state before the bundle
                factors = scalar_factors(sw, r, c, table[pc, 10])
            dst, src1 = vw >> 19 & 31, vw >> 14 & 31
            immediate = vw >> 3 & 0xFF
            signs = 0
            zeros = 0
            if op == 0x90:  # vlrp: acc = V[SRC1|1] << rs + (V1 - V[SRC1|1])·V2; unsigned fract high byte
                rs = readout_shift(False, True, sext(vw >> 5, 3))
                constant = mad_rounding(rs, 0, vw >> 8 & 1, uccfg_down)
                src2, partner = vw >> 9 & 31, src1 | 1
                for i in range(16):
                    acc = accumulate_one(v[partner, i] << rs, (v[src1, i] - v[partner, i]) * v[src2, i], False,
                                         constant)
                    vector_result[i] = read_out(acc, rs, 1, 0)
            elif reads_s2v[op] and op < 0xB3:
                # vmad2 (84 85 95): acc = in(V2) << rs + V1·f1 + V[SRC1|1]·f2; vmac2 (86 87 96 97
                # a6 a7): acc = $va + V1·f1 + W·f2, W = V3 for 96 a6 a7 (semantics_vector).
                integer, unsigned_out, low = vw >> 3 & 1, vw >> 28 & 1, vw >> 4 & 1
                rs = readout_shift(integer == 1, unsigned_out == 1, sext(vw >> 5, 3))
                constant = mad_rounding(rs, low, vw >> 8 & 1, uccfg_down)
                fract, sign1, sign2 = integer == 0, vw >> 2 & 1, vw >> 1 & 1
                # the s2v selection or the word's own $vc bits (§6.3); unused in mask mode (S2VMODE, bit 0)
                mask = 0 if vw & 1 else selection_mask(s2v_valid == 1, s2v_index, s2v_flag, s2v_xfrm, vc, vw)
                masks = factor_masks(factors)
                src2 = vw >> 9 & 31
                mac2 = op != 0x84 and op != 0x85 and op != 0x95
                partner = vw >> 4 & 31 if op == 0x96 or op == 0xA6 or op == 0xA7 else src1 | 1
                for i in range(16):
                    f1, f2 = component_factors(vw & 1 == 1, factors, masks, mask, i)
                    products = mad_input(v[src1, i], sign1, fract) * f1 + mad_input(v[partner, i], sign1, fract) * f2
                    if mac2:
                        base = sext(va[i], 28)
                    else:
                        base = mad_input(v[src2, i], sign2, fract) << rs
                    acc = accumulate_one(base, products, integer == 1, constant)
                    new_va[i] = acc & VA_MASK
                    vector_result[i] = read_out(acc, rs, unsigned_out, low)
                va_written = True
                if op == 0x84 or op == 0x86 or op == 0x96 or op == 0xA6:
                    vv_index = -2  # $va only
            elif reads_s2v[op]:  # the lerp family b3–b7 (semantics_vector.vlrp2 … vlrp4b)
                mask = vc_mask(vc, vw & 3, vw >> 2 & 1, 0)  # $vc[bits 0–1], half bit 2: never the s2v selection
                rotation, src2 = c[vw >> 3 & 3] >> 4 & 3, vw >> 9 & 31
                q0, q1 = quad_register(src1, rotation, 0), quad_register(src1, rotation, 1)
                q2, q3 = quad_register(src1, rotation, 2), quad_register(src1, rotation, 3)
                if op == 0xB3:  # vlrp2: fract inputs of SIGNS (bit 9), start q0 ^ LRP2X, rounding full rs
                    unsigned_out, low = 1 - (vw >> 12 & 1), 0
                    rs = readout_shift(False, unsigned_out == 1, sext(vw >> 5, 3))
                    constant = mad_rounding(rs, 0, vw >> 8 & 1, uccfg_down)
                elif op <= 0xB5:  # vlrp4a, vlrpf: unsigned, low byte, $va only
                    unsigned_out, low = 1, 1
                    rs = readout_shift(False, True, sext(vw >> 5, 3))
                    constant = mad_rounding(rs, 1, vw >> 8 & 1, uccfg_down)
                else:  # vlrp4b: ALTSHIFT, ALTRND; b6 unsigned, b7 signed
                    unsigned_out, low = 1 - (op & 1), 0
                    rs = readout_shift(False, unsigned_out == 1, sext(vw >> 11, 3))
                    constant = mad_rounding(rs, 0, vw >> 9 & 1, uccfg_down)
                    slct = vw >> 5 & 15
                    if slct != 4:
                        q0 = q1 = src1 ^ (c[vw >> 3 & 3] >> slct & 1)
                signed_in, flip = vw >> 9 & 1, 0x80 if vw >> 10 & 1 else 0
                for i in range(16):
                    f1, f2 = component_factors(False, factors, (0, 0), mask, i)
                    if op == 0xB3:
                        x0 = mad_input(v[q0, i], signed_in, True)
                        products = (mad_input(v[q2, i], signed_in, True) - x0) * f1 \
                            + (mad_input(v[q3, i], signed_in, True) - x0) * f2
                        base = mad_input(v[q0, i] ^ flip, signed_in, True) << rs
                    elif op == 0xB4:
                        products = (v[q2, i] - v[q0, i]) * f1 + (v[q3, i] - v[q0, i]) * f2
                        base = v[q0, i] << rs
                    elif op == 0xB5:
                        products = (v[q2, i] - v[q3, i]) * f1 + v[q3, i] * f2
                        base = sext8(v[src2, i]) << rs
                    else:
                        products = (v[q1, i] - v[q0, i]) * f1 + (vx[i] - v[q0, i]) * f2
                        base = sext(va[i], 28)
                    acc = accumulate_one(base, products, False, constant)
                    new_va[i] = acc & VA_MASK
                    vector_result[i] = read_out(acc, rs, unsigned_out, low)
                va_written = op != 0xB3 or vw >> 11 & 1 == 1
                if op == 0xB4 or op == 0xB5:
                    vv_index = -2  # $va only
            elif multiply_form[op]:
                # vmul/vmac: acc = (0 or $va) + in(V1)·in(V2 or imm); $va always, VD in some forms
                integer, unsigned_out, low = vw >> 3 & 1, vw >> 28 & 1, vw >> 4 & 1
                rs = readout_shift(integer == 1, unsigned_out == 1, sext(vw >> 5, 3))
                constant = mad_rounding(rs, low, vw >> 8 & 1, uccfg_down)
                fract, sign1, sign2 = integer == 0, vw >> 2 & 1, vw >> 1 & 1
                if not vw >> 29 & 1:
                    second = -1
                elif op == 0xB0:
                    second = vw & 0xFF
                else:
                    second = ((vw >> 9 & 31) | (vw & 1) << 5) * 4
                src2 = vw >> 9 & 31
                for i in range(16):
                    x = mad_input(v[src1, i], sign1, fract)
                    y = mad_input(v[src2, i] if second < 0 else second, sign2, fract)
                    base = sext(va[i], 28) if multiply_from_va[op] else 0
                    acc = accumulate_one(base, x * y, integer == 1, constant)
                    new_va[i] = acc & VA_MASK
                    vector_result[i] = read_out(acc, rs, unsigned_out, low)
                va_written = True
            elif op == 0x9B:  # vswz: component i from V1 or V2 as selector byte V3[i] says
                src2, src3, high = vw >> 9 & 31, vw >> 4 & 31, vw >> 3 & 1
                for i in range(16):
                    component, source = swizzle_source(v[src3, i], high)
                    vector_result[i] = v[src2, component] if source else v[src1, component]
            elif op == 0x8E or op == 0x9E or op == 0xAE or op == 0xBE:  # vshr: sf = result bit 7, zf
                src2 = vw >> 9 & 31
                for i in range(16):
                    value = shift_component(v[src1, i], immediate if vw >> 29 & 1 else v[src2, i],
                                            not vw >> 28 & 1)
                    vector_result[i] = value
                    signs |= (value >> 7 & 1) << i
                    zeros |= (1 if value == 0 else 0) << i
            elif op == 0x94 or op == 0xA5 or op == 0xBA:  # vbitop, vminabs, mov VD V1: sf = 0, zf
                src2 = vw >> 9 & 31
                for i in range(16):
                    if op == 0x94:
                        value = bitop(vw >> 3 & 15, v[src2, i], v[src1, i], 8)
                    elif op == 0xA5:
                        value = minabs_component(v[src1, i], v[src2, i])
                    else:
                        value = v[src1, i]
                    vector_result[i] = value
                    zeros |= (1 if value == 0 else 0) << i
            elif op == 0x9F or op == 0xA4:  # vadd9 (clipped 0..255, sf = sum bit 8), vclip
                src2, src3 = vw >> 9 & 31, vw >> 4 & 31
                for i in range(16):
                    if op == 0x9F:
                        lanes, lane = (src2, i) if i < 8 else (src3, i - 8)
                        raw = add9_raw(v[src1, i], v[lanes, 2 * lane], v[lanes, 2 * lane + 1])
                        value, sign = min(max(raw, 0), 255), raw >> 8 & 1
                    else:
                        value, outside = clip_component(v[src1, i], v[src2, i], v[src3, i])
                        sign = 1 if outside else 0
                    vector_result[i] = value
                    signs |= sign << i
                    zeros |= (1 if value == 0 else 0) << i
            elif op == 0xBB:  # mov VD $vc: word k = $vc[k], little-endian; no flags
                for k in range(4):
                    for n in range(4):
                        vector_result[4 * k + n] = vc[k] >> (8 * n) & 0xFF
            elif op == 0x8F:  # vcmpad: $vc only; vcin from the s2v selection or the word (§6.3)
                vcin = selection_mask(table[pc, 6] == 1, table[pc, 7], table[pc, 8], table[pc, 9], vc, vw)
                v2 = mangled_index(c[vw >> 3 & 3], vw >> 5 & 15, vw >> 9 & 31)
                for i in range(16):
                    zero, sign = cmpad_flags(v[src1, i], v[v2, i], v[src1 | 1, i], vw >> 19 & 15, vcin >> i & 1)
                    signs |= (1 if sign else 0) << i
                    zeros |= (1 if zero else 0) << i
                vv_index = -2  # no $v
            elif op == 0xBF:  # vnop
                vv_index = -2
            elif op == 0xAD:  # mov VD BIMM: sf = BIMM bit 7, zf
                for i in range(16):
                    vector_result[i] = immediate
                signs = 0xFFFF if immediate & 0x80 else 0
                zeros = 0xFFFF if immediate == 0 else 0
            elif op == 0xAA or op == 0xAB or op == 0xAF:
                for i in range(16):
                    x = v[src1, i]
                    if op == 0xAA:
                        value = x & immediate
                    elif op == 0xAB:
                        value = x ^ immediate
                    else:
                        value = x | immediate
                    vector_result[i] = value
                    if value == 0:
                        zeros |= 1 << i
            else:  # the clipping ops: immediate (opcode bit 5) or register forms
                unsigned = vw >> 28 & 1 == 1
                use_immediate = vw >> 29 & 1
                src2 = vw >> 9 & 31
                kind = clip_kind[op]
                for i in range(16):
                    value, sign = clipping_component(kind, v[src1, i], immediate if use_immediate else v[src2, i],
                                                     unsigned)
                    vector_result[i] = value
                    signs |= sign << i
                    if value == 0:
                        zeros |= 1 << i
            vv_index = -1 if vv_index == -2 else dst
            if multiply_form[op] and not multiply_writes_vd[op]:
                vv_index = -1  # the forms that write only $va
            if op != 0x9B and op != 0x90 and op != 0xBB and op != 0xBF and not reads_s2v[op] \
                    and not multiply_form[op] and not vw & 4:
                # vswz, vlrp, mov from $vc, vnop and the multiply-accumulate datapath write no $vc
                vc_index, vc_value = vw & 3, (signs & 0xFFFF) | (zeros & 0xFFFF) << 16
        # branch
        if bw != NONE:
            op = bw >> 24
            if op >= 0xE0 and op <= 0xE7:  # bra/call (bit 2), loop (bit 0), "not" (bit 1)
                cond, slct = bw >> 3 & 3, bw >> 5 & 15
                if op & 1:
                    value, loop_before, loop_after = loop_step(l[cond])
                    has_loop = True
                    bl_index, bl_value = bw & 3, value
                    if not bw & 4:
                        bc_index = bw & 3
                        bc_bits = (1 << 13) if loop_after == 0 else 0
                elif not bw & 4:
                    bc_index, bc_bits = bw & 3, 1 << 13
                flow_kind = 3 if op & 4 else 1
                condition = (c[cond] >> slct & 1) == (0 if op & 2 else 1)
                target = sext(bw >> 9, 15) * 4 + (pc & ~3)
            elif op == 0xE8:  # ret [c]
                flow_kind = 4
                if not bw & 4:
                    bc_index, bc_bits = bw & 3, 1 << 13
            elif op == 0xEA:  # abra ABS: to word bits 0–15 × 4, no $c
                flow_kind, condition, target = 1, True, (bw & 0xFFFF) * 4
            elif op == 0xF0:
                index = bw >> 19 & 3
                value = bw & 0xFFFF
                bl_index, bl_value = index, value
                bc_index = index
                bc_bits = (1 << 13) if value & 0xFF == 0 else 0
            elif op == 0xFF:
                flow_kind = 2
                exit_code = bw & 0xFFFF
                interrupt = bw >> 16 & 1
        # commit (§2.3 priorities: machine.commit). Only a mov from/to another register file
        # writes the slots tested with moves_from/moves_to, and a mov to a file only that
        # file's (rfile: the file it names): the tests let the kernel of a program without
        # them leave those commits out (compiled_codegen), as with loads_vx.
        moves_from = scalar_kinds[sw >> 24] == MOV_FROM
        moves_to = scalar_kinds[sw >> 24] == MOV_TO
        rfile = sw >> 3 & 31
        if moves_from and sp[RM_INDEX] >= 0:  # mov from $v/$a/$c/$l: the lowest $r writer
            r[sp[RM_INDEX]] = sp[RM_VALUE]
        if aw != NONE and ap[AR_INDEX] >= 0:  # an address load
            r[ap[AR_INDEX]] = ap[AR_VALUE]
        if sp[R_INDEX] >= 0:
            r[sp[R_INDEX]] = sp[R_VALUE]
        r[31] = 0
        if moves_to and (rfile < 4 or rfile == 18) and sp[V_INDEX] >= 0:  # lowest priority in $v: a load or a vector result overwrites it
            for k in range(4):
                v[sp[V_INDEX], 4 * sp[V_WORD] + k] = sp[V_VALUE] >> (8 * k) & 0xFF
        if aw != NONE and ap[AV_INDEX] >= 0:
            for i in range(16):
                v[ap[AV_INDEX], i] = new_v[i]
        if aw != NONE and loads_vx[aw >> 24] and ap[AVX]:
            for i in range(16):
                vx[i] = new_vx[i]
        if vv_index >= 0:
            for i in range(16):
                v[vv_index, i] = vector_result[i]
        if va_written:
            for i in range(16):
                va[i] = new_va[i]
        if vc_index >= 0:
            vc[vc_index] = vc_value
        if aw != NONE and ap[AA_INDEX] >= 0:
            a[ap[AA_INDEX]] = ap[AA_VALUE]
        if moves_to and rfile == 12 and sp[A_INDEX] >= 0:  # the scalar mov wins over the address unit
            a[sp[A_INDEX]] = sp[A_VALUE]
        if aw != NONE and ap[AC_INDEX] >= 0:
            index, mask = ap[AC_INDEX], ap[AC_MASK]
            c[index] = (((c[index] & ~mask) | (ap[AC_BITS] & mask)) & ~C_ZERO) | C_ONE
        if sp[C_INDEX] >= 0:
            index = sp[C_INDEX]
            c[index] = (((c[index] & ~0xFF) | (sp[C_BITS] & 0xFF)) & ~C_ZERO) | C_ONE
        if bc_index >= 0:
            mask = 1 << 13
            c[bc_index] = (((c[bc_index] & ~mask) | (bc_bits & mask)) & ~C_ZERO) | C_ONE
        if moves_to and rfile == 11 and sp[L_INDEX] >= 0:  # the scalar mov loses to the branch unit
            l[sp[L_INDEX]] = sp[L_VALUE]
        if bl_index >= 0:
            l[bl_index] = bl_value
        other = sp[OTHER_FILE] if moves_to and (8 <= rfile <= 10 or 20 <= rfile <= 24) else 0
        if other == OTHER_SR:
            sr[sp[OTHER_INDEX]] = sp[OTHER_VALUE]
        elif other == OTHER_MI:
            mi[sp[OTHER_INDEX]] = sp[OTHER_VALUE]
        elif other == OTHER_UC:
            uc[sp[OTHER_INDEX]] = sp[OTHER_VALUE]
        elif other == OTHER_M:
            m[sp[OTHER_INDEX]] = sp[OTHER_VALUE]
        elif other == OTHER_D:
            d[sp[OTHER_INDEX]] = sp[OTHER_VALUE]
        elif other == OTHER_X:
            xr[sp[OTHER_INDEX]] = sp[OTHER_VALUE]
        if aw != NONE:
            for i in range(ap[STORE_COUNT]):
                store[stores_at[i]] = stores_value[i] & 0xFF
        sr[30] = (sr[30] + 1) & M32
        # control flow (Vp1Machine.step, _flow and _push_return)
        executed += 1
        flow[6] += 1
        next_pc = pc + length
        if flow[2]:
            flow[3] = 1
        if flow[1] != NONE:
            next_pc = flow[1]
            if flow[7]:  # a call's delay slot: push the return address (room checked above)
                stack[flow[8]] = pc + length
                flow[8] += 1
                uc[0] = pc + length
            flow[1] = NONE
        if flow_kind == 2:
            flow[4], flow[5] = exit_code, interrupt
            if exit_delay_slot:
                flow[2] = 1
            else:
                flow[3] = 1
        elif flow_kind == 1 or flow_kind == 3:
            if condition:
                taken = True
                if has_loop:
                    if loop_rule == 0:
                        taken = loop_before != 0
                    elif loop_rule == 1:
                        taken = loop_after != 0
                if taken:
                    flow[1], flow[7] = target, 1 if flow_kind == 3 else 0
        elif flow_kind == 4:  # ret (a non-empty stack, checked above)
            flow[8] -= 1
            if ret_delay_slot:
                flow[1], flow[7] = stack[flow[8]], 0
            else:
                next_pc = stack[flow[8]]
        flow[0] = next_pc
    return executed

