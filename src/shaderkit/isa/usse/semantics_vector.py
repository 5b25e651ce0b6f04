"""USSE vector float ALU semantics (spec/usse.md §5): VMAD2, V32NMAD/V16NMAD (every ``op2``), the
single-issue VMAD and VDP on GPI registers, and VCOMP (rcp, rsq, log, exp).

Each ``prepare_<form>(fields, ctx)`` decodes the form's raw fields once into a closure of the
state (operands, swizzles, masks and predicate resolved before the run); the closure computes
every lane at once. What both the emulator and the GLSL translation (:mod:`.glsl_operations`)
derive from a form's fields is decoded once, by ``<form>_operands(fields, ctx, predicate)``
(``predicate``: :func:`~.operands.predicate_reader` or :func:`.glsl_operations.predicate`).

Choices where the spec says "unknown":

* Arithmetic is IEEE single precision (multiply-add computed in double and rounded once, i.e.
  fused); F16 forms compute in single precision and round each written channel to F16.
* V32NMAD/V16NMAD ``VDP`` (op2 7) writes the 4-channel dot product to every enabled channel.
  ``VDSX``/``VDSY`` (op2 3, 4): screen-space derivatives have no meaning in a vertex program;
  they are not modelled.
* VMAD/VDP with ``opcode2`` 0 (vec3) never write channel w. VDP ``clip_plane_enable`` is not
  modelled.
* VCOMP reads one source channel (``src_comp``) and writes the scalar result to every enabled
  channel; C10 source or destination types are not modelled. ``log2`` of 0 is -inf, of a
  negative number NaN, as IEEE says.
* Repeats (spec §4, Vita3K's model, :func:`~.operands.repeat_operand`): iteration ``k`` steps
  storage operands by twice the increment and internal registers by the increment, which is
  ``k`` without SMLSI, ``k * inc`` or a swizzle entry after it; VMAD/VDP repeat mode 0
  ("external") steps storage operands by ``4k`` and leaves internal ones, mode 1 steps only
  internal ones, mode 2 both, mode 3 follows the MOE rule. Operand roles for SMLSI: VMAD dest,
  GPI0 (src0), unified-store source (src1), GPI1 (src2); VDP dest, GPI0, src1; VCOMP dest,
  src1. VDP's write mask rotates left by one per iteration.
"""

from __future__ import annotations

import numpy as np

from .operands import (
    DEST, SRC0, SRC1, SRC2, NotModelled, Internal, apply_modifier, repeat_operand, channel_code, dest_operand, mask_channels, modifier,
    predicate_reader, write_lanes, read_channels, src0_operand, src12_operand, swizzle_indices, vector_write_mask,
    write_channels,
)
from .semantics_control import with_end
from .tables import (
    PREDICATES_EXTENDED, PREDICATES_VECTOR, PREDICATES_VMAD2, VEC3_EXT, VEC3_STD, VEC4_EXT, VEC4_STD,
    VMAD2_SWIZZLES, vector_swizzle_12,
)


def fma(a, b, c):
    return (np.float64(a) * np.float64(b) + np.float64(c)).astype(np.float32)


def sequence(closures):
    closures = tuple(closures)
    if len(closures) == 1:
        return closures[0]

    def run(state):
        for closure in closures:
            closure(state)
    return run


def table_swizzle(table, code: int) -> tuple:
    swizzle = table[code]
    if swizzle is None:
        raise NotModelled(f"swizzle code {code}")
    return swizzle_indices(swizzle)


# -- VMAD2 ------------------------------------------------------------------------------------
def vmad2_operands(f, ctx, predicate):
    """VMAD2's fields decoded (the emulator's and the GLSL's): f16, dest, the three sources, their
    swizzles and modifiers, the written channels and the predicate
    (``predicate(table, code)``)."""
    f16 = bool(f["dat_fmt"])
    kw = dict(doubled=True, bits=7, secondary=ctx.secondary)
    dest = dest_operand(f["dest_bank"], 0, f["dest_n"], **kw)
    sources = (src0_operand(f["src0_bank"], 0, f["src0_n"], **kw),
               src12_operand(f["src1_bank"], f["src1_bank_ext"], f["src1_n"], **kw),
               src12_operand(f["src2_bank"], f["src2_bank_ext"], f["src2_n"], **kw))
    swizzles = (swizzle_indices(VMAD2_SWIZZLES["src0"][f["src0_swiz_bits2"] << 2 | f["src0_swiz_bits01"]]),
                swizzle_indices(VMAD2_SWIZZLES["src1"][f["src1_swiz_bit2"] << 2 | f["src1_swiz_bits01"]]),
                swizzle_indices(VMAD2_SWIZZLES["src2"][f["src2_swiz"]]))
    modifiers = (False, bool(f["src0_abs"])), modifier(f["src1_mod"]), modifier(f["src2_mod"])
    channels = mask_channels(vector_write_mask(f["dest_mask"], f16, dest))
    return f16, dest, sources, swizzles, modifiers, channels, predicate(PREDICATES_VMAD2, f["pred"])


def prepare_vmad2(f, ctx):
    f16, dest, (s0, s1, s2), (z0, z1, z2), (m0, m1, m2), channels, pred = vmad2_operands(f, ctx, predicate_reader)

    def run(state):
        a = apply_modifier(read_channels(state, s0, z0, f16), *m0)
        b = apply_modifier(read_channels(state, s1, z1, f16), *m1)
        c = apply_modifier(read_channels(state, s2, z2, f16), *m2)
        write_channels(state, dest, channels, [fma(a[k], b[k], c[k]) for k in range(4)], f16, write_lanes(pred, state))
    return run


# -- V32NMAD / V16NMAD ------------------------------------------------------------------------
def _frc(a, b):
    return (a - np.floor(b)).astype(np.float32)


NMAD_OPS = {
    0: ("VMUL", lambda a, b: [(a[k] * b[k]).astype(np.float32) for k in range(4)]),
    1: ("VADD", lambda a, b: [(a[k] + b[k]).astype(np.float32) for k in range(4)]),
    2: ("VFRC", lambda a, b: [_frc(a[k], b[k]) for k in range(4)]),
    5: ("VMIN", lambda a, b: [np.minimum(a[k], b[k]).astype(np.float32) for k in range(4)]),
    6: ("VMAX", lambda a, b: [np.maximum(a[k], b[k]).astype(np.float32) for k in range(4)]),
    7: ("VDP", lambda a, b: [sum(np.float64(a[k]) * np.float64(b[k]) for k in range(4)).astype(np.float32)] * 4),
}


def nmad_operands(f, ctx, predicate):
    """V32NMAD/V16NMAD's fields decoded (the emulator's and the GLSL's): dest, the two sources,
    their swizzles and modifiers, the written channels and the predicate
    (``predicate(table, code)``)."""
    if f["op2"] not in NMAD_OPS:
        raise NotModelled(f"op2 {f['op2']} ({'VDSX' if f['op2'] == 3 else 'VDSY'}: derivatives in a vertex program)")
    kw = dict(doubled=True, bits=7, secondary=ctx.secondary)
    dest = dest_operand(f["dest_bank_sel"], f["dest_bank_ext"], f["dest_n"], **kw)
    sources = (src12_operand(f["src1_bank_sel"], f["src1_bank_ext"], f["src1_n"], **kw),
               src12_operand(f["src2_bank_sel"], f["src2_bank_ext"], f["src2_n"], **kw))
    code = f["src1_swiz_0_6"] | f["src1_swiz_7_8"] << 7 | f["src1_swiz_9"] << 9 | f["src1_swiz_10_11"] << 10
    swizzles = swizzle_indices(vector_swizzle_12(code)), table_swizzle(VEC4_STD, f["src2_swiz"])
    modifiers = modifier(f["src1_mod"]), (False, bool(f["src2_mod"]))
    return dest, sources, swizzles, modifiers, mask_channels(f["dest_mask"]), predicate(PREDICATES_VECTOR, f["pred"])


def _prepare_nmad(f, ctx, f16):
    dest, (s1, s2), (z1, z2), (m1, m2), channels, pred = nmad_operands(f, ctx, predicate_reader)
    _, operation = NMAD_OPS[f["op2"]]

    def run(state):
        a = apply_modifier(read_channels(state, s1, z1, f16), *m1)
        b = apply_modifier(read_channels(state, s2, z2, f16), *m2)
        write_channels(state, dest, channels, operation(a, b), f16, write_lanes(pred, state))
    return run


def prepare_v32nmad(f, ctx):
    return _prepare_nmad(f, ctx, False)


def prepare_v16nmad(f, ctx):
    return _prepare_nmad(f, ctx, True)


# -- VMAD / VDP (GPI sources) -------------------------------------------------------------------
def _repeat(operand, ctx, role, mode: int, k: int):
    """The operand of iteration k for VMAD/VDP repeat modes (§4): 0 external (storage operands
    step by 4k), 1 internal (internal registers by k), 2 both, 3 the MOE (SMLSI) rule."""
    if mode == 3:
        return repeat_operand(operand, ctx.moe, role, k, True)
    internal = isinstance(operand, Internal)
    if internal:
        return operand.offset(0, k) if mode in (1, 2) else operand
    return operand.offset(4 * k, 0) if mode in (0, 2) else operand


def _gpi_table(vec4: bool, ext: int):
    return (VEC4_EXT if ext else VEC4_STD) if vec4 else (VEC3_EXT if ext else VEC3_STD)


def vmad_operands(f, ctx, predicate):
    """VMAD's fields decoded (the emulator's and the GLSL's): the swizzles and modifiers of GPI0,
    source 1 and GPI1, the written channels, the predicate
    (``predicate(table, code)``) and, per repeat
    iteration, the operands (dest, source 1, GPI0, GPI1: made in that order)."""
    vec4 = bool(f["opcode2"])
    kw = dict(doubled=True, bits=7, secondary=ctx.secondary)
    dest0 = dest_operand(f["dest_bank"], f["dest_use_bank_ext"], f["dest_n"], **kw)
    src0 = src12_operand(f["src1_bank"], f["src1_bank_ext"], f["src1_n"], **kw)
    g0, g1 = Internal(f["gpi0_n"]), Internal(f["gpi1_n"])
    swizzles = tuple(table_swizzle(_gpi_table(vec4, f[f"{name}_swiz_ext"]), f[f"{name}_swiz"])
                     for name in ("gpi0", "src1", "gpi1"))
    modifiers = tuple((bool(f[f"{name}_neg"]), bool(f[f"{name}_abs"])) for name in ("gpi0", "src1", "gpi1"))
    channels = mask_channels(f["write_mask"] & (0xF if vec4 else 0x7))
    pred, mode = predicate(PREDICATES_VECTOR, f["pred"]), f["repeat_mode"]
    iterations = [(_repeat(dest0, ctx, DEST, mode, k), _repeat(src0, ctx, SRC1, mode, k),
                   _repeat(g0, ctx, SRC0, mode, k), _repeat(g1, ctx, SRC2, mode, k))
                  for k in range(f["repeat_count"] + 1)]
    return swizzles, modifiers, channels, pred, iterations


def prepare_vmad(f, ctx):
    (z0, z1, z2), (m0, m1, m2), channels, pred, iterations = vmad_operands(f, ctx, predicate_reader)
    closures = []
    for dest, s1, a_op, c_op in iterations:
        def run(state, dest=dest, s1=s1, a_op=a_op, c_op=c_op, channels=channels):
            a = apply_modifier(read_channels(state, a_op, z0, False), *m0)
            b = apply_modifier(read_channels(state, s1, z1, False), *m1)
            c = apply_modifier(read_channels(state, c_op, z2, False), *m2)
            write_channels(state, dest, channels, [fma(a[i], b[i], c[i]) for i in range(4)], False, write_lanes(pred, state))
        closures.append(run)
    return with_end(sequence(closures), f["end"])


def vdp_operands(f, ctx, predicate):
    """VDP's fields decoded (the emulator's and the GLSL's): the number of channels summed, the
    swizzles and modifiers of GPI0 and source 1, the predicate
    (``predicate(table, code)``) and, per repeat
    iteration, the operands (dest, source 1, GPI0) and the written channels (the write mask
    rotated left by one per iteration)."""
    if f["clip_plane_enable"]:
        raise NotModelled("VDP clip_plane_enable")
    vec4 = bool(f["opcode2"])
    kw = dict(doubled=True, bits=7, secondary=ctx.secondary)
    dest0 = dest_operand(f["dest_bank"], f["dest_use_bank_ext"], f["dest_n"], **kw)
    src0 = src12_operand(f["src1_bank"], f["src1_bank_ext"], f["src1_n"], **kw)
    g0 = Internal(f["gpi0_n"])
    swizzles = table_swizzle(_gpi_table(vec4, 0), f["gpi0_swiz"]), tuple(channel_code(f[f"src1_swiz_{c}"]) for c in "xyzw")
    modifiers = (False, bool(f["gpi0_abs"])), (bool(f["src1_neg"]), bool(f["src1_abs"]))
    pred, mask, mode = predicate(PREDICATES_VECTOR, f["pred"]), f["write_mask"], f["repeat_mode"]
    iterations = [(_repeat(dest0, ctx, DEST, mode, k), _repeat(src0, ctx, SRC1, mode, k), _repeat(g0, ctx, SRC0, mode, k),
                   mask_channels(((mask << k) | (mask >> (4 - k % 4))) & 0xF if k % 4 else mask))
                  for k in range(f["repeat_count"] + 1)]
    return 4 if vec4 else 3, swizzles, modifiers, pred, iterations


def prepare_vdp(f, ctx):
    width, (z0, z1), (m0, m1), pred, iterations = vdp_operands(f, ctx, predicate_reader)
    closures = []
    for dest, s1, a_op, channels in iterations:
        def run(state, dest=dest, s1=s1, a_op=a_op, channels=channels):
            a = apply_modifier(read_channels(state, a_op, z0, False), *m0)
            b = apply_modifier(read_channels(state, s1, z1, False), *m1)
            dot = sum(np.float64(a[i]) * np.float64(b[i]) for i in range(width)).astype(np.float32)
            write_channels(state, dest, channels, [dot] * 4, False, write_lanes(pred, state))
        closures.append(run)
    return with_end(sequence(closures), f["end"])


# -- VCOMP --------------------------------------------------------------------------------------
def _rcp(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.float32(1) / x).astype(np.float32)


def _rsq(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.float32(1) / np.sqrt(x)).astype(np.float32)


def _log(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log2(x).astype(np.float32)


def _exp(x):
    with np.errstate(over="ignore"):
        return np.exp2(x).astype(np.float32)


COMPLEX_OPS = {0: ("VRCP", _rcp), 1: ("VRSQ", _rsq), 2: ("VLOG", _log), 3: ("VEXP", _exp)}


def vcomp_operands(f, ctx, predicate):
    """VCOMP's fields decoded (the emulator's and the GLSL's): source and destination F16, source
    1's modifier and channel, the written channels, the predicate
    (``predicate(table, code)``) and, per repeat
    iteration, the operands (dest, source 1)."""
    if f["src_type"] > 1 or f["dest_type"] > 1:
        raise NotModelled("VCOMP type C10 or 3")
    kw = dict(doubled=True, bits=8, secondary=ctx.secondary)
    dest0 = dest_operand(f["dest_bank"], f["dest_bank_ext"], f["dest_n"], **kw)
    src0 = src12_operand(f["src1_bank"], f["src1_bank_ext"], f["src1_n"], **kw)
    negate_absolute, channels = modifier(f["src1_mod"]), mask_channels(f["write_mask"])
    pred = predicate(PREDICATES_EXTENDED, f["pred"])
    iterations = [(repeat_operand(dest0, ctx.moe, DEST, k, True), repeat_operand(src0, ctx.moe, SRC1, k, True))
                  for k in range(f["repeat_count"] + 1)]
    return f["src_type"] == 1, f["dest_type"] == 1, negate_absolute, f["src_comp"], channels, pred, iterations


def prepare_vcomp(f, ctx):
    src_f16, dest_f16, (negate, absolute), comp, channels, pred, iterations = vcomp_operands(f, ctx, predicate_reader)
    _, operation = COMPLEX_OPS[f["op2"]]
    closures = []
    for dest, src in iterations:
        def run(state, dest=dest, src=src):
            x = apply_modifier([(src.f16 if src_f16 else src.f32)(state, comp)], negate, absolute)[0]
            write_channels(state, dest, channels, [operation(np.float32(x) if np.isscalar(x) else x)] * 4,
                           dest_f16, write_lanes(pred, state))
        closures.append(run)
    return with_end(sequence(closures), f["end"])


PREPARE = {
    "VMAD2": prepare_vmad2,
    "V32NMAD": prepare_v32nmad,
    "V16NMAD": prepare_v16nmad,
    "VMAD": prepare_vmad,
    "VDP": prepare_vdp,
    "VCOMP": prepare_vcomp,
}
