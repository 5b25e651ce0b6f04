"""The declarative description of THEIA V1's 64-bit instruction word (spec §2, §8).

``OOOO OOOO OOOO OOOO | DDDD… | S1 | S2`` for type I and ``OP | DST | IMM`` for type II
(opcode bit 6 set). Assembly reads the way the upstream ``theia_compile`` writes it —
``ADD R1 R2 R3``, ``SETX R1 32'h20000``, ``RETURN RT_TRUE``, ``JGX LABEL R1 R2`` — with a
friendlier superset: ``0x…``, decimal and fixed-point (``1.5``) immediates, expressions
over named constants, commas between operands, case-insensitive mnemonics.

Printing stays upstream-compatible: operands a mnemonic ignores are left out when
zero (``MAG R1 R2``, ``JMP L_800f``), so listings assemble with both tools.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ...core.bits import bits
from ...core.diagnostics import SourceError
from ...core.expr import evaluate
from ...core.model import (CodeAddress, Description, Immediate, Operand, OperandKind, ParseContext, Registers, form,
                          suggest_for_undefined)
from . import opcodes
from .fixedpoint import WORD_MASK, to_fixed
from .registers import ADDRESS_NAMES, SWIZZLES

FIELDS = {
    "op": bits("63:48"),
    "dst": bits("47:32"),
    "s1": bits("31:16"),
    "s2": bits("15:0"),
    "imm": bits("31:0"),
    "dst_imm": bits("47:0"),  # RETURN/NOP: RT_TRUE fills DST and IMM together
}

_VERILOG_HEX = re.compile(r"32'h([0-9a-fA-F_]+)\Z")
_FIXED_LITERAL = re.compile(r"[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?\Z")


@dataclass(frozen=True)
class Word32(OperandKind):
    """A 32-bit immediate: ``32'h…`` (upstream), ``1.5`` (fixed point), ``SWIZZLE_*`` or an expression.

    Printed the upstream way; ``names`` (code → name) print by name, e.g. swizzle codes.
    """

    names: tuple[tuple[int, str], ...] = ()

    def parse(self, text: str, context: ParseContext) -> int:
        text = text.strip()
        if verilog := _VERILOG_HEX.match(text):
            value = int(verilog.group(1).replace("_", ""), 16)
            if value > WORD_MASK:
                raise SourceError(f"'{text}' is wider than 32 bits", 1, len(text))
            return value
        if _FIXED_LITERAL.match(text):
            try:
                return to_fixed(float(text))
            except ValueError as error:
                raise SourceError(str(error), 1, len(text)) from None
        if text in SWIZZLES:
            return SWIZZLES[text]
        if text.startswith("SWIZZLE_"):
            raise SourceError(f"unknown swizzle '{text}' (upstream theia_compile silently encodes 0; "
                              f"known: {', '.join(SWIZZLES)})", 1, len(text))
        try:
            value = evaluate(text, context.lookup)
        except SourceError as error:
            raise suggest_for_undefined(error, text, context, self.spellings()) from None
        if not -(1 << 31) <= value <= WORD_MASK:
            raise SourceError(f"{value} does not fit in a 32-bit word", 1, len(text))
        return value & WORD_MASK

    def format(self, value: int) -> str:
        return dict(self.names).get(value, f"32'h{value:x}")

    def spellings(self) -> tuple[str, ...]:
        return tuple(name for _, name in self.names)


@dataclass(frozen=True)
class ReturnValue(OperandKind):
    """``RT_TRUE`` / ``RT_FALSE``: the 48 bits of DST and IMM together (bit 0 is what the control unit sees)."""

    def parse(self, text: str, context: ParseContext) -> int:
        text = text.strip()
        # Upstream matches these names as substrings of the whole line; we want the token.
        if text == "RT_TRUE":
            return 1
        if text == "RT_FALSE":
            return 0
        try:
            value = Immediate().parse(text, context)
        except SourceError as error:
            raise suggest_for_undefined(error, text, context, self.spellings()) from None
        if not 0 <= value < 1 << 48:
            raise SourceError(f"{value} does not fit in DST and IMM (48 bits)", 1, len(text))
        return value

    def format(self, value: int) -> str:
        return {0: "RT_FALSE", 1: "RT_TRUE"}.get(value, f"0x{value:x}")

    def spellings(self) -> tuple[str, ...]:
        return ("RT_TRUE", "RT_FALSE")


DATA_ADDRESSES = Registers(ADDRESS_NAMES, case_sensitive=True, unnamed=Immediate(radix=16))
JUMP_TARGET = CodeAddress(radix=16)

OPERANDS = {
    "dst": Operand("dst", DATA_ADDRESSES, title="destination"),
    "s1": Operand("s1", DATA_ADDRESSES, title="first source"),
    "s2": Operand("s2", DATA_ADDRESSES, title="second source"),
    "target": Operand("dst", JUMP_TARGET, title="jump target"),
    "imm": Operand("imm", Word32(), title="immediate"),
    "swizzle": Operand("imm", Word32(tuple((code, name) for name, code in SWIZZLES.items())), title="swizzle code"),
    "result": Operand("dst_imm", ReturnValue(), title="return value"),
}

_SOURCES = {"ab": "{s1} {s2}", "a": "{s1} {s2?}", "": "{s1?} {s2?}"}


def forms():
    yield form("NOP {result}", op=opcodes.NOP_OPCODE)
    yield form("DEBUG_PRINT {dst?} {s1?} {s2?}", op=opcodes.DEBUG_PRINT_OPCODE)
    for mnemonic, (opcode, sources) in opcodes.ALU_OPCODES.items():
        yield form(f"{mnemonic} {{dst}} {_SOURCES[sources]}", op=opcode)
    for mnemonic, opcode in opcodes.JUMP_OPCODES.items():
        yield form(f"{mnemonic} {{target}} {{s1}} {{s2}}", op=opcode)
    yield form("RETURN {result}", op=opcodes.RETURN_OPCODE)
    for mnemonic, opcode in opcodes.SET_OPCODES.items():
        yield form(f"{mnemonic} {{dst}} {{imm}}", op=opcode)
    yield form("SWIZZLE3D {dst} {swizzle}", op=opcodes.SWIZZLE_OPCODE)
    # Upstream writes ``JMP LABEL VOID VOID``: the two tokens land in the IMM half as S1/S2.
    yield form("JMP {target} {s1?} {s2?}", op=opcodes.JMP_OPCODE)


def describe_unknown(value: int) -> str:
    opcode = value >> 48
    if opcode in opcodes.V2_ONLY:
        return f"opcode {opcode} is {opcodes.V2_ONLY[opcode]}, a V2 instruction (not in V1)"
    if opcode == 6:
        return "opcode 6 is unassigned (the V1 ALU hangs on it)"
    if opcode == 0x00FF and value & 0xFFFF_FFFF_FFFF == 0xFFFF_FFFF_FFFF:
        return "unused ROM word"
    return f"opcode {opcode} is not a V1 instruction"


@cache
def description() -> Description:
    return Description("theia", word_bits=64, fields=FIELDS, operands=OPERANDS, forms=list(forms()),
                       operand_separator=r"\s*,\s*|\s+", case_sensitive=False, missing_operands="zero", extra_operands="ignore",
                       describe_unknown=describe_unknown)
