"""What every VP1 address-unit opcode (0xc0–0xdf) does: one function per mnemonic (spec §8).

Each function is ``op(state, store, word, pending)``: it reads the registers and the data store
(:class:`~.datastore.DataStore`) as they were before the bundle and records its writes in
``pending`` — a loaded ``$r``/``$v``/``$vx``, the updated ``$a``, the ``$c`` address flags and
the data-store bytes to change. ``ADDRESS_OPS[opcode]`` is the function for an opcode byte.

``$a`` registers: bits 0–15 the byte address, 16–29 the limit, 30–31 the stride (§3.1). The
"short" flag (``$c`` bit 10) says the address reached the limit; the "long" flags (bits 8–9)
are the sign and zero of a 32-bit result (§8.2). Stores through ``$v`` and ``$r`` may read
through another unit's read port (§2.4); the machine says which in ``pending.port_*``.
"""

from __future__ import annotations

from . import datastore
from .fields import FIELDS
from .semantics_scalar import bitop
from .state import NotModelled, mangled_index, quad_register

DST = FIELDS["dst"].read
SRC1 = FIELDS["src1"].read
SRC2 = FIELDS["src2"].read
CDST = FIELDS["cdst"].read
COND = FIELDS["cond"].read
SLCT = FIELDS["slct"].read
UIMM = FIELDS["uimm"].read
IMM16 = FIELDS["imm16"].read
BITOP = FIELDS["bitop"].read
IMM = FIELDS["imm"]

MASK32 = 0xFFFFFFFF
SHORT_FLAG = 1 << 10
LONG_FLAGS = 3 << 8


# --- $a arithmetic and flags, §8.2 -----------------------------------------------------------

def stride(a_value: int) -> int:
    return a_value >> 30 & 3


def address_add(a_value: int, increment: int) -> int:
    """"aadd": a 16-bit add into the address field only; limit and stride stay."""
    return (a_value & ~0xFFFF & MASK32) | ((a_value + increment) & 0xFFFF)


def short_flag(a_value: int) -> int:
    """``$c`` bit 10 (``aef``): the address has reached the limit."""
    return SHORT_FLAG if (a_value & 0xFFFF) >= (a_value >> 16 & 0x3FFF) else 0


def long_flags(result: int) -> int:
    """``$c`` bits 8 (sign, bit 31) and 9 (zero) of a 32-bit ``$a`` result."""
    return (result >> 31 & 1) << 8 | (result == 0) << 9


def write_flags(word: int, pending, mask: int, bits: int) -> None:
    cdst = CDST(word)
    if not cdst & 4:
        pending.address_c = (cdst & 3, mask, bits)


def mangled_a(state, word: int) -> int:
    """The mangled ``$a`` source 2 (§4.3)."""
    return state.a[mangled_index(state.c[COND(word)], SLCT(word), SRC2(word))]


def increment(state, word: int) -> int:
    """The post-increment: the sign-extended IMM for the 0xd0–0xd6 forms (opcode bit 4),
    else the mangled ``$a`` source."""
    if word >> 28 & 1:
        return IMM.value(IMM.read(word))
    return mangled_a(state, word)


def post_increment(state, word: int, pending, index: int) -> None:
    """Write ``$a[index]`` advanced by the increment, with the short flag of the new value."""
    new = address_add(state.a[index], increment(state, word))
    pending.address_a = (index, new)
    write_flags(word, pending, SHORT_FLAG, short_flag(new))


def offset_flags(state, word: int, pending, index: int) -> int:
    """The 0xd8–0xde forms: the access is at ``addr | UIMM``; ``$a`` is not written, the short
    flag is that of ``addr + UIMM``. Returns the access address."""
    a_value, offset = state.a[index], UIMM(word)
    write_flags(word, pending, SHORT_FLAG, short_flag(address_add(a_value, offset)))
    return (a_value & 0xFFFF) | offset


# --- access shapes ---------------------------------------------------------------------------

def vector_addresses(word: int, address: int, a_value: int) -> list[int]:
    """Horizontal (opcode bit 0 clear) or vertical (set) vector access addresses."""
    if word >> 24 & 1:
        return datastore.vertical_addresses(address, stride(a_value))
    return datastore.horizontal_addresses(address)


def load_vector(store, word: int, address: int, a_value: int) -> list[int]:
    return store.read(vector_addresses(word, address, a_value), stride(a_value))


def store_bytes(store, pending, addresses: list[int], a_value: int, values) -> None:
    places = store.write_offsets(addresses, stride(a_value))
    pending.stores.extend(zip(places, (value & 0xFF for value in values)))


def stored_vector(state, word: int, pending) -> list[int]:
    """The ``$v`` a store writes out: ``$v[SRC1]``, or the one the scalar unit's ``$v`` read
    selects when the two share the port (§2.4)."""
    index = SRC1(word) if pending.port_v_store is None else pending.port_v_store
    return state.v[index]


def stored_scalar(state, word: int, pending) -> int:
    index = SRC1(word) if pending.port_r_store is None else pending.port_r_store
    return state.r[index]


# --- loads -----------------------------------------------------------------------------------

def ldav(state, store, word, pending):
    """``ldavh``/``ldavv`` (c0/c1, d0/d1): load ``$v[DST]`` horizontally/vertically at
    ``$a[SRC1]``, then advance ``$a[SRC1]``; short flag of the new ``$a``."""
    index = SRC1(word)
    a_value = state.a[index]
    pending.address_v = (DST(word), load_vector(store, word, a_value, a_value))
    post_increment(state, word, pending, index)


def ldas(state, store, word, pending):
    """``ldas`` (c2/d2): load ``$r[DST]`` from the scalar slot at ``$a[SRC1]``, then advance it."""
    index = SRC1(word)
    a_value = state.a[index]
    loaded = store.read(datastore.scalar_addresses(a_value), stride(a_value))
    pending.address_r = (DST(word), int.from_bytes(bytes(loaded), "little"))
    post_increment(state, word, pending, index)


def ldv(state, store, word, pending):
    """``ldvh``/``ldvv`` (d8/d9): load ``$v[DST]`` at ``addr | UIMM``; ``$a`` unchanged."""
    index = SRC1(word)
    a_value = state.a[index]
    address = offset_flags(state, word, pending, index)
    pending.address_v = (DST(word), load_vector(store, word, address, a_value))


def lds(state, store, word, pending):
    """``lds`` (da): load ``$r[DST]`` at ``addr | UIMM``; ``$a`` unchanged."""
    index = SRC1(word)
    a_value = state.a[index]
    address = offset_flags(state, word, pending, index)
    loaded = store.read(datastore.scalar_addresses(address), stride(a_value))
    pending.address_r = (DST(word), int.from_bytes(bytes(loaded), "little"))


def ldax(state, store, word, pending):
    """``ldaxh``/``ldaxv`` (c8/c9): load ``$vx``, and also the quad-rotated ``$v[DST]`` when
    ``$c[COND]`` bit SLCT is set; then advance ``$a[SRC1]``."""
    index = SRC1(word)
    a_value = state.a[index]
    loaded = load_vector(store, word, a_value, a_value)
    pending.address_vx = loaded
    c = state.c[COND(word)]
    if c >> SLCT(word) & 1:
        pending.address_v = (quad_register(DST(word), c >> 4 & 3, 0), list(loaded))
    post_increment(state, word, pending, index)


def ldr(state, store, word, pending):
    """``ldr`` (d7, bit 0 = 0): raw load — component i from bank i at cell byte
    ``(addr >> 4) | V[i]``, V = ``$v[SRC2]`` (or the scalar unit's ``$v`` read, §2.4)."""
    index_register = SRC2(word) if pending.port_v_store is None else pending.port_v_store
    places = store.raw_row_offsets(state.a[SRC1(word)], state.v[index_register])
    pending.address_v = (DST(word), store.read_offsets(places))


# --- stores ----------------------------------------------------------------------------------

def stav(state, store, word, pending):
    """``stavh``/``stavv`` (c4/c5, d4/d5): store ``$v[SRC1]`` at ``$a[DST]``, then advance it."""
    index = DST(word)
    a_value = state.a[index]
    store_bytes(store, pending, vector_addresses(word, a_value, a_value), a_value, stored_vector(state, word, pending))
    post_increment(state, word, pending, index)


def stas(state, store, word, pending):
    """``stas`` (c6/d6): store ``$r[SRC1]`` to the scalar slot at ``$a[DST]``, then advance it."""
    index = DST(word)
    a_value = state.a[index]
    value = stored_scalar(state, word, pending)
    store_bytes(store, pending, datastore.scalar_addresses(a_value), a_value, value.to_bytes(4, "little"))
    post_increment(state, word, pending, index)


def stv(state, store, word, pending):
    """``stvh``/``stvv`` (dc/dd): store ``$v[SRC1]`` at ``addr | UIMM``; ``$a`` unchanged."""
    index = DST(word)
    a_value = state.a[index]
    address = offset_flags(state, word, pending, index)
    store_bytes(store, pending, vector_addresses(word, address, a_value), a_value, stored_vector(state, word, pending))


def sts(state, store, word, pending):
    """``sts`` (de): store ``$r[SRC1]`` at ``addr | UIMM``; ``$a`` unchanged."""
    index = DST(word)
    a_value = state.a[index]
    address = offset_flags(state, word, pending, index)
    value = stored_scalar(state, word, pending)
    store_bytes(store, pending, datastore.scalar_addresses(address), a_value, value.to_bytes(4, "little"))


def star(state, store, word, pending):
    """``star`` (d7, bit 0 = 1): raw store of ``$v[SRC1]`` to row ``addr >> 4`` of all 16
    banks, then ``$a[DST]`` advances by the mangled ``$a``; no ``$c``."""
    index = DST(word)
    places = store.raw_row_offsets(state.a[index])
    pending.stores.extend(zip(places, stored_vector(state, word, pending)))
    pending.address_a = (index, address_add(state.a[index], mangled_a(state, word)))


def raw(state, store, word, pending):
    """d7: ``star`` when bit 0 is set, else ``ldr``."""
    (star if word & 1 else ldr)(state, store, word, pending)


# --- $a arithmetic ---------------------------------------------------------------------------

def aadd(state, store, word, pending):
    """``$a[DST].addr += `` the mangled ``$a`` (SRC1 ignored); short flag."""
    post_increment(state, word, pending, DST(word))


def address_add32(state, store, word, pending):
    """``add $aD $aS1 S2m``: 32-bit add; long flags."""
    result = (state.a[SRC1(word)] + mangled_a(state, word)) & MASK32
    pending.address_a = (DST(word), result)
    write_flags(word, pending, LONG_FLAGS, long_flags(result))


def address_bitop(state, store, word, pending):
    """``bitop BITOP $aD $aS1 $aS2`` (and aliases): 32-bit, source 2 not mangled; long flags."""
    result = bitop(BITOP(word), state.a[SRC2(word)], state.a[SRC1(word)])
    pending.address_a = (DST(word), result)
    write_flags(word, pending, LONG_FLAGS, long_flags(result))


def setlo(state, store, word, pending):
    """``$a[DST] = ($a[DST] & 0xffff0000) | IMM16``; no flags."""
    index = DST(word)
    pending.address_a = (index, (state.a[index] & 0xFFFF0000) | IMM16(word))


def sethi(state, store, word, pending):
    """``$a[DST] = ($a[DST] & 0xffff) | IMM16 << 16``; no flags."""
    index = DST(word)
    pending.address_a = (index, (state.a[index] & 0xFFFF) | IMM16(word) << 16)


def anop(state, store, word, pending):
    """No operation; bits 0–23 ignored."""


def dma(state, store, word, pending):
    """DMA (``xdld``, ``xdst``, ``xdbar``, ``xdwait``) and 0xdb: undocumented, not modelled."""
    raise NotModelled(word, not_modelled_address_op(word))


def not_modelled_address_op(word: int) -> str:
    names = {0xC3: "DMA load xdld", 0xC7: "DMA store xdst", 0xCE: "DMA barrier xdbar", 0xCF: "DMA wait xdwait",
             0xDB: "address opcode 0xdb"}
    return names[word >> 24]


def _table():
    table = {0xC0: ldav, 0xC1: ldav, 0xC2: ldas, 0xC3: dma, 0xC4: stav, 0xC5: stav, 0xC6: stas, 0xC7: dma,
             0xC8: ldax, 0xC9: ldax, 0xCA: aadd, 0xCB: address_add32, 0xCC: setlo, 0xCD: sethi, 0xCE: dma,
             0xCF: dma, 0xD0: ldav, 0xD1: ldav, 0xD2: ldas, 0xD3: address_bitop, 0xD4: stav, 0xD5: stav,
             0xD6: stas, 0xD7: raw, 0xD8: ldv, 0xD9: ldv, 0xDA: lds, 0xDB: dma, 0xDC: stv, 0xDD: stv, 0xDE: sts,
             0xDF: anop}
    return tuple(table[0xC0 + index] for index in range(32))


ADDRESS_OPS = _table()  # indexed by opcode - 0xc0
