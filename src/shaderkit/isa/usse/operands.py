"""USSE operand addressing (spec/usse.md §3, §3.5): what a decoded bank field and register number
name, and reading and writing them for every lane at once.

This module owns:

* :class:`UsseState` — the register banks as NumPy arrays, one row per 32-bit register and one
  column per lane (vertex): ``r``, ``o``, ``pa``, ``sa`` (uint32), the internal registers
  ``i0``–``i3`` and the predicates ``p0``–``p3`` (bool);
* :class:`Operand` and its kinds (:class:`Register`, :class:`Internal`, :class:`Constant`,
  :class:`Immediate`) — an operand decoded once, before the run: bank decode (§3.1), register
  doubling and the internal-register rule (§3.2), the constant bank ``c`` (§3.3), immediates;
* :func:`swizzle_indices` (§3.4 channel codes as channel indices or constants),
  :func:`apply_modifier` (§3.5), :func:`vector_write_mask` (the F32/F16 mask re-interpretation
  of §3.5 for VMAD2 and VMOV) and the predicate selection :func:`predicate_reader` (§4).

Data layout (§3.2): a register holds 32 bits. An F32 vector operand numbered ``n`` keeps channel
``k`` in register ``n + k``; an F16 operand keeps channels ``2k`` and ``2k + 1`` in bits 15:0 and
31:16 of register ``n + k``.

Choices where the spec says "unknown" or gives only Vita3K's model:

* Internal registers ``i0``–``i3`` are one 4-channel vector each (Vita3K's model): four 32-bit
  slots, channel ``c`` in slot ``c``, for every data type. A slot holds the channel's F32 bit
  pattern; an F16 access converts (F16 reads round the F32 value to F16, F16 writes store the
  F16 value as F32). Raw 32-bit accesses (integer and bitwise forms, VPCK's integer sources,
  VMOVCU8's test) read and write the slot's bits unchanged.
* Constants ``cN`` (§3.3): channel ``y`` reads ``bank1[N]``, ``x z w`` read ``bank0[N]``, as F32.
  F16 constants are unknown; an F16 access reads the same F32 value rounded to F16. Global
  registers ``g`` have no known meaning and index registers no known loading: decoding one is a
  "not modelled" error (:class:`NotModelled`), as is an indexed operand and the ``idx`` bank.
* Immediates (bank "imm"): the register-number field is the value. A float operation reads it as
  that integer converted to float (``#3`` is 3.0); integer and bitwise operations read it raw.
* Initial contents: every register, internal register and predicate not set by the caller is 0.
"""

from __future__ import annotations

import numpy as np

from .tables import CHANNEL_CODES, CONSTANTS, DEST_BANKS, MODIFIERS, SRC0_BANKS, SRC12_BANKS

STORAGE_BANKS = ("r", "o", "pa", "sa")
CONSTANT_CHANNEL_VALUES = {"0": 0.0, "1": 1.0, "2": 2.0, "h": 0.5}


class NotModelled(Exception):
    """An encoding the emulator has no model for; the machine turns it into an InputError that
    names the form, the word and the instruction index."""


class UsseState:
    """Every register of every lane. ``banks[name]`` is (registers, lanes) uint32; the internal
    registers are ``internal`` (16 slots: ``i<k>`` channel ``c`` is slot ``4k + c``); the
    predicates are ``predicates`` (4, lanes) bool."""

    def __init__(self, lanes: int, sizes: dict[str, int] | None = None):
        self.lanes = lanes
        self.banks = {name: np.zeros(((sizes or {}).get(name, 0), lanes), np.uint32) for name in STORAGE_BANKS}
        self.internal = np.zeros((16, lanes), np.uint32)
        self.predicates = np.zeros((4, lanes), bool)
        self.link = None
        self.active = None  # None: every lane runs; else the lanes at the current PC (divergence)

    def ensure(self, bank: str, registers: int) -> np.ndarray:
        array = self.banks[bank]
        if array.shape[0] < registers:
            grown = np.zeros((registers, self.lanes), np.uint32)
            grown[: array.shape[0]] = array
            self.banks[bank] = array = grown
        return array

    def reset_program_state(self) -> None:
        """A program starts with zero temporaries, internal registers and predicates."""
        self.banks["r"][:] = 0
        self.internal[:] = 0
        self.predicates[:] = False
        self.link = None
        self.active = None


# -- conversions ------------------------------------------------------------------------------
def as_f32(bits: np.ndarray) -> np.ndarray:
    return np.asarray(bits, np.uint32).view(np.float32)


def f32_bits(values) -> np.ndarray:
    return np.asarray(values, np.float32).view(np.uint32)


def half_to_f32(bits16) -> np.ndarray:
    return np.asarray(bits16, np.uint16).view(np.float16).astype(np.float32)


def f32_to_half_bits(values) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(values, np.float32).astype(np.float16).view(np.uint16).astype(np.uint32)


def select(pred, new, old):
    """The predicated write: ``new`` where ``pred`` holds (None: every lane), else ``old``."""
    if pred is None:
        return np.broadcast_to(new, np.shape(old)).astype(old.dtype, copy=False)
    return np.where(pred, new, old).astype(old.dtype, copy=False)


# -- operands ---------------------------------------------------------------------------------
class Operand:
    """A decoded operand. ``word(state, k)`` is the k-th 32-bit word (register ``n + k``, an
    internal register's slot ``k``); ``f32``/``f16`` read channel ``c`` as float32 values."""

    name = "?"
    writable = False

    def needs(self) -> tuple[str, int] | None:
        return None

    def offset(self, registers: int, internal: int) -> "Operand":
        """The operand of a repeat iteration: storage registers step by ``registers``, internal
        registers by ``internal``; constants and immediates do not step (a choice)."""
        return self

    def same_register(self, other: "Operand") -> bool:
        return self == other


# While a program is prepared, every storage register an operand can touch is noted here
# (bank -> registers needed), so that the machine allocates only the rows a program uses.
_needed: dict[str, int] | None = None


def record_needs(needed: dict[str, int] | None) -> None:
    global _needed
    _needed = needed


class Register(Operand):
    writable = True

    def __init__(self, bank: str, number: int):
        self.bank, self.number = bank, number
        self.name = f"{bank}{number}"
        if _needed is not None:
            _needed[bank] = max(_needed.get(bank, 0), number + 4)

    def __eq__(self, other):
        return isinstance(other, Register) and (self.bank, self.number) == (other.bank, other.number)

    def __hash__(self):
        return hash((self.bank, self.number))

    def needs(self):
        return self.bank, self.number + 4

    def offset(self, registers, internal):
        if not registers:
            return self
        if self.number + registers < 0:
            raise NotModelled(f"repeat steps {self.name} below register 0")
        return Register(self.bank, self.number + registers)

    def word(self, state, k):
        return state.banks[self.bank][self.number + k]

    def f32(self, state, c):
        return as_f32(self.word(state, c))

    def f16(self, state, c):
        return half_to_f32((self.word(state, c >> 1) >> (16 * (c & 1))) & 0xFFFF)

    def write_word(self, state, k, bits, pred):
        row = state.banks[self.bank]
        row[self.number + k] = select(pred, bits, row[self.number + k])

    def write_f32(self, state, c, values, pred):
        self.write_word(state, c, f32_bits(values), pred)

    def write_f16(self, state, c, values, pred):
        row = state.banks[self.bank]
        old = row[self.number + (c >> 1)]
        shift = np.uint32(16 * (c & 1))
        merged = (old & ~(np.uint32(0xFFFF) << shift)) | (f32_to_half_bits(values) << shift)
        row[self.number + (c >> 1)] = select(pred, merged, old)


class Internal(Operand):
    writable = True

    def __init__(self, index: int):
        if not 0 <= index <= 3:
            raise NotModelled(f"internal register i{index}")
        self.index = index
        self.name = f"i{index}"

    def __eq__(self, other):
        return isinstance(other, Internal) and self.index == other.index

    def __hash__(self):
        return hash(("i", self.index))

    def offset(self, registers, internal):
        return Internal(self.index + internal) if internal else self

    def word(self, state, k):
        if k > 3:
            raise NotModelled(f"channel {k} of internal register i{self.index}")
        return state.internal[4 * self.index + k]

    def f32(self, state, c):
        return as_f32(self.word(state, c))

    def f16(self, state, c):
        return self.f32(state, c).astype(np.float16).astype(np.float32)

    def write_word(self, state, k, bits, pred):
        slot = 4 * self.index + k
        if k > 3:
            raise NotModelled(f"channel {k} of internal register i{self.index}")
        state.internal[slot] = select(pred, bits, state.internal[slot])

    def write_f32(self, state, c, values, pred):
        self.write_word(state, c, f32_bits(values), pred)

    def write_f16(self, state, c, values, pred):
        with np.errstate(over="ignore", invalid="ignore"):
            rounded = np.asarray(values, np.float32).astype(np.float16).astype(np.float32)
        self.write_f32(state, c, rounded, pred)


class Constant(Operand):
    def __init__(self, number: int):
        self.number = number
        self.name = f"c{number}"

    def __eq__(self, other):
        return isinstance(other, Constant) and self.number == other.number

    def __hash__(self):
        return hash(("c", self.number))

    def word(self, state, k):
        bank0, bank1 = CONSTANTS[self.number]
        return np.uint32(bank1 if k == 1 else bank0)

    def f32(self, state, c):
        return as_f32(np.array(self.word(state, c), np.uint32))[()]

    def f16(self, state, c):
        return np.float32(np.float16(self.f32(state, c)))


class Immediate(Operand):
    def __init__(self, value: int):
        self.value = value
        self.name = f"#{value}"

    def __eq__(self, other):
        return isinstance(other, Immediate) and self.value == other.value

    def __hash__(self):
        return hash(("#", self.value))

    def word(self, state, k):
        return np.uint32(self.value)

    def f32(self, state, c):
        return np.float32(self.value)

    f16 = f32


def register_operand(bank: str, number: int, *, doubled: bool, bits: int, secondary: bool = False) -> Operand:
    """The operand a bank name (tables' DEST/SRC banks) and a raw number field name (§3.2).

    ``doubled``: the field counts 64-bit pairs (effective number ``(field << 1) & 0xFF``);
    ``bits``: the width of the internal-register check (§3.2). ``secondary``: Vita3K's model of
    the secondary program, where every storage operand reads the ``sa`` bank (§3.2)."""
    if bank == "imm":
        return Immediate(number)
    if bank == "special":
        if number & 0x40:
            raise NotModelled(f"global register g{number & 0x3F}")
        return Constant(number)
    if bank in ("indexed1", "indexed2", "idx"):
        raise NotModelled(f"{bank} operand")
    if doubled:
        number = (number << 1) & 0xFF
    if bank == "r":
        limit = (1 << bits) - (8 if doubled else 4)
        if number >= limit:
            return Internal((number - limit) >> 1 if doubled else number - limit)
    if secondary:
        bank = "sa"
    return Register(bank, number)


def dest_operand(bank_field, ext, number, **kw) -> Operand:
    operand = register_operand(DEST_BANKS[bank_field, ext], number, **kw)
    if not operand.writable:
        raise NotModelled(f"destination {operand.name}")
    return operand


def src0_operand(bank_field, ext, number, **kw) -> Operand:
    return register_operand(SRC0_BANKS[bank_field, ext], number, **kw)


def src12_operand(bank_field, ext, number, **kw) -> Operand:
    return register_operand(SRC12_BANKS[bank_field, ext], number, **kw)


# -- repeats (§4) -------------------------------------------------------------------------------
DEST, SRC0, SRC1, SRC2 = range(4)


class Moe:
    """The MOE state SMLSI sets, followed statically in program order while a program is
    prepared: ``increments`` is None (no SMLSI yet) or, per operand role (dest, src0, src1,
    src2), (swizzle_mode, value) with value a signed 8-bit increment or, in swizzle mode, the
    byte of four 2-bit entries."""

    def __init__(self):
        self.increments = None


def repeat_operand(operand: Operand, moe: Moe | None, role: int, k: int, float_form: bool) -> Operand:
    """The operand of repeat iteration ``k`` (§4, Vita3K's model): without SMLSI the increment
    is k; after SMLSI it is ``k * inc`` or, in swizzle mode, entry ``k mod 4`` of the byte.
    Storage operands step by twice the increment in float forms, internal registers by it."""
    increments = moe.increments if moe is not None else None
    if increments is None:
        step = k
    else:
        swizzle_mode, value = increments[role]
        step = (value >> (2 * (k % 4))) & 3 if swizzle_mode else k * value
    if isinstance(operand, Internal):
        return operand.offset(0, step)
    return operand.offset(2 * step if float_form else step, 0)


# -- swizzles, modifiers, masks ----------------------------------------------------------------
def swizzle_indices(swizzle: str) -> tuple:
    """A swizzle string as four entries: a channel index 0–3 or a constant float (0, 1, 2, 0.5).
    Three-channel swizzles get their last channel repeated as the w entry (never written)."""
    swizzle = (swizzle + swizzle[-1] * 4)[:4]
    return tuple("xyzw".index(code) if code in "xyzw" else CONSTANT_CHANNEL_VALUES[code] for code in swizzle)


def channel_code(code: int) -> int | float:
    """One 3-bit selector (CHANNEL_CODES): a channel index or a constant."""
    return swizzle_indices(CHANNEL_CODES[code] * 4)[0]


def read_channels(state, operand: Operand, swizzle: tuple, f16: bool) -> list:
    """The four swizzled channels of ``operand`` as float32 values (arrays over lanes or scalars)."""
    reader = operand.f16 if f16 else operand.f32
    return [reader(state, entry) if isinstance(entry, int) else np.float32(entry) for entry in swizzle]


def modifier(mod: int) -> tuple[bool, bool]:
    return MODIFIERS[mod]


def apply_modifier(values: list, negate: bool, absolute: bool) -> list:
    if absolute:
        values = [np.abs(v) for v in values]
    if negate:
        values = [-v for v in values]
    return values


def vector_write_mask(mask: int, f16: bool, dest: Operand) -> int:
    """VMAD2 and F32/F16 VMOV destination masks (§3.5): an internal destination uses the mask as
    is; otherwise F32 keeps bits 0–1 and F16 expands bit 0 to x,y and bit 2 to z,w."""
    if isinstance(dest, Internal):
        return mask
    if f16:
        return (0b0011 if mask & 1 else 0) | (0b1100 if mask & 4 else 0)
    return mask & 0b0011


def mask_channels(mask: int) -> tuple[int, ...]:
    return tuple(c for c in range(4) if mask >> c & 1)


def write_channels(state, dest: Operand, channels, values, f16: bool, pred) -> None:
    """Write ``values[c]`` to channel c for every c in ``channels``."""
    writer = dest.write_f16 if f16 else dest.write_f32
    for c in channels:
        writer(state, c, values[c], pred)


def write_lanes(pred, state):
    """The lanes an instruction writes: those its predicate (None: always) lets write, among
    the lanes running at the current PC (``state.active``, None: all)."""
    lanes = None if pred is None else pred(state)
    if state.active is None:
        return lanes
    return state.active if lanes is None else lanes & state.active


def predicate_reader(table: tuple[str, ...], code: int):
    """A function of the state giving the lanes a predicate code lets write (None: every lane)."""
    name = table[code]
    if name == "":
        return None
    if name == "pN":
        raise NotModelled("predicate pN")
    negate, index = name.startswith("!"), int(name[-1])
    if negate:
        return lambda state: ~state.predicates[index]
    return lambda state: state.predicates[index]
