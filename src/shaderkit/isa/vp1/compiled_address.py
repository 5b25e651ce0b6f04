"""The address unit in the compiled loop (:mod:`.compiled`): every address opcode the
interpreter models (all but the DMA words c3 c7 ce cf and db, which it refuses), through the
interpreter's own rules — the ``$a`` arithmetic and flags of :mod:`.semantics_address`, the
data-store translation and access shapes of :mod:`.datastore` — compiled with
:func:`.compiled_s2v.jit_rule`.

:func:`build` gives ``address_unit``, which records one address word's writes in a small array
(the compiled twin of :class:`~.state.Pending`'s address fields, slots below; the loaded vector
and ``$vx`` and the bytes to store in arrays of their own) for the loop to commit in the
priorities of §2.3, and ``r_port``, the ``$r`` read port an address ``$r`` store shares with
the scalar unit (§2.4).
"""

from __future__ import annotations

import numpy as np

from . import datastore, semantics_address as address

ADDRESS_COMPILED = frozenset(range(0xC0, 0xE0)) - {0xC3, 0xC7, 0xCE, 0xCF, 0xDB}
LOADS_VX = np.zeros(256, dtype=np.int64)  # ldax: the only ops that load $vx (the kernel commits it only for them)
LOADS_VX[[0xC8, 0xC9]] = 1

# Slots of the address pending array (-1 in an index slot: no write).
AV_INDEX = 0                  # $v loaded (values in new_v)
AVX = 1                       # 1: $vx loaded (values in new_vx)
AR_INDEX, AR_VALUE = 2, 3     # $r loaded
AA_INDEX, AA_VALUE = 4, 5     # $a
AC_INDEX, AC_MASK, AC_BITS = 6, 7, 8  # the address flags of $c
STORE_COUNT = 9               # bytes to store (offsets in stores_at, values in stores_value)
SLOTS = 10


def build(njit, rules):
    """``address_unit(aw, out, new_v, new_vx, stores_at, stores_value, r, v, a, c, store, port_v,
    port_r)``: the writes of address word ``aw``; ``port_v``/``port_r`` (or -1) are the ``$v``
    and ``$r`` a store reads instead of its own field (§2.4). ``r_port(aw, sw, c)``: which ``$r``
    the shared port makes a ``mov`` (0x6a) read, and which an address ``$r`` store reads
    (``bvecmad``/``bvecmadsel``), as ``machine.share_read_ports`` says, each -1 if none."""
    from .compiled_s2v import jit_rule
    from .machine import R_STORES

    sext, mangled_index, bilinear_pair = rules.sext, rules.mangled_index, rules.bilinear_pair
    offset = jit_rule(njit, datastore.offset)
    horizontal_address = jit_rule(njit, datastore.horizontal_address)
    vertical_address = jit_rule(njit, datastore.vertical_address)
    scalar_address = jit_rule(njit, datastore.scalar_address)
    raw_offset = jit_rule(njit, datastore.raw_offset)
    stride = jit_rule(njit, address.stride)
    address_add = jit_rule(njit, address.address_add)
    short_flag = jit_rule(njit, address.short_flag)
    long_flags = jit_rule(njit, address.long_flags)
    bitop = rules.bitop
    quad_register = rules.quad_register
    SHORT, LONG = address.SHORT_FLAG, address.LONG_FLAGS
    M32 = 0xFFFFFFFF
    loads_vx = LOADS_VX
    r_stores = np.zeros(256, dtype=np.int64)
    r_stores[list(R_STORES)] = 1

    @njit(cache=False)
    def vector_place(aw, place, a_value, i):
        """Where element ``i`` of a vector access at ``place`` lives (vector_addresses, offset)."""
        s = stride(a_value)
        if aw >> 24 & 1:
            return offset(vertical_address(place, s, i), s)
        return offset(horizontal_address(place, i), s)

    @njit(cache=False)
    def address_unit(aw, out, new_v, new_vx, stores_at, stores_value, r, v, a, c, store, port_v, port_r):
        out[AV_INDEX], out[AVX], out[AR_INDEX], out[AA_INDEX], out[AC_INDEX], out[STORE_COUNT] = -1, 0, -1, -1, -1, 0
        op = aw >> 24
        dst, src1, src2 = aw >> 19 & 31, aw >> 14 & 31, aw >> 9 & 31
        flags_mask = 0
        flags = 0
        if op == 0xCC:  # setlo
            out[AA_INDEX], out[AA_VALUE] = dst, (a[dst] & 0xFFFF0000) | (aw & 0xFFFF)
        elif op == 0xCD:  # sethi
            out[AA_INDEX], out[AA_VALUE] = dst, (a[dst] & 0xFFFF) | (aw & 0xFFFF) << 16
        elif op == 0xCB or op == 0xD3:  # 32-bit add (mangled S2) / bitop (S2 not mangled): long flags
            if op == 0xCB:
                result = (a[src1] + a[mangled_index(c[aw >> 3 & 3], aw >> 5 & 15, src2)]) & M32
            else:
                result = bitop(aw >> 3 & 15, a[src2], a[src1], 32)
            out[AA_INDEX], out[AA_VALUE] = dst, result
            flags_mask, flags = LONG, long_flags(result)
        elif op == 0xD7:  # raw: star (bit 0) or ldr
            if aw & 1:
                source = src1 if port_v < 0 else port_v
                for bank in range(16):
                    stores_at[bank] = raw_offset(a[dst], 0, bank)
                    stores_value[bank] = v[source, bank]
                out[STORE_COUNT] = 16
                out[AA_INDEX] = dst
                out[AA_VALUE] = address_add(a[dst], a[mangled_index(c[aw >> 3 & 3], aw >> 5 & 15, src2)])
            else:
                index_register = src2 if port_v < 0 else port_v
                for bank in range(16):
                    new_v[bank] = store[raw_offset(a[src1], v[index_register, bank], bank)]
                out[AV_INDEX] = dst
        elif op != 0xDF:
            # the post-increment forms (c0–ca, d0–d6: $a advances) and the offset forms (d8–de)
            stores = op == 0xC4 or op == 0xC5 or op == 0xC6 or op == 0xD4 or op == 0xD5 or op == 0xD6 \
                or op == 0xDC or op == 0xDD or op == 0xDE or op == 0xCA
            index = dst if stores else src1
            a_value = a[index]
            if op >= 0xD8:
                uimm = aw >> 3 & 0x7FF
                place = (a_value & 0xFFFF) | uimm
                flags_mask, flags = SHORT, short_flag(address_add(a_value, uimm))
            else:
                place = a_value
                if aw >> 28 & 1:  # the post-increment: sext IMM for the 0xd0–0xd6 forms, else the mangled $a
                    step = sext(aw >> 3, 11)
                else:
                    step = a[mangled_index(c[aw >> 3 & 3], aw >> 5 & 15, aw >> 9 & 31)]
                moved = address_add(a_value, step)
                out[AA_INDEX], out[AA_VALUE] = index, moved
                flags_mask, flags = SHORT, short_flag(moved)
            s = stride(a_value)
            low = op & 0xF
            if op == 0xCA:
                pass
            elif low == 2 or op == 0xDA:  # ldas, lds: $r from the scalar slot
                value = 0
                for n in range(4):
                    value |= store[offset(scalar_address(place, n), s)] << (8 * n)
                out[AR_INDEX], out[AR_VALUE] = dst, value
            elif low == 6 or op == 0xDE:  # stas, sts: $r[SRC1] (or the shared port's) to the slot
                value = r[src1 if port_r < 0 else port_r]
                for n in range(4):
                    stores_at[n] = offset(scalar_address(place, n), s)
                    stores_value[n] = value >> (8 * n) & 0xFF
                out[STORE_COUNT] = 4
            elif stores:  # stav, stv: $v[SRC1] (or the shared port's)
                source = src1 if port_v < 0 else port_v
                for i in range(16):
                    stores_at[i] = vector_place(aw, place, a_value, i)
                    stores_value[i] = v[source, i]
                out[STORE_COUNT] = 16
            else:  # ldav, ldv, ldax
                for i in range(16):
                    new_v[i] = store[vector_place(aw, place, a_value, i)]
                if loads_vx[op]:  # ldax: $vx, and the quad-rotated $v[DST] if $c[COND] bit SLCT
                    for i in range(16):
                        new_vx[i] = new_v[i]
                    out[AVX] = 1
                    cv = c[aw >> 3 & 3]
                    if cv >> (aw >> 5 & 15) & 1:
                        out[AV_INDEX] = quad_register(dst, cv >> 4 & 3, 0)
                else:
                    out[AV_INDEX] = dst
        if flags_mask and not aw & 4:
            out[AC_INDEX], out[AC_MASK], out[AC_BITS] = aw & 3, flags_mask, flags

    @njit(cache=False)
    def r_port(aw, sw, c):
        if aw < 0:  # no address word, or no scalar word of the bundle's own to share a port with
            return -1, -1
        if not r_stores[aw >> 24]:
            return -1, -1
        if sw >> 24 == 0x6A:
            return aw >> 14 & 31, -1
        if sw >> 24 == 0x04 or sw >> 24 == 0x05:
            return -1, bilinear_pair(c[sw >> 3 & 3], sw >> 5 & 15, sw >> 9 & 31)[1]
        return -1, -1

    return address_unit, r_port
