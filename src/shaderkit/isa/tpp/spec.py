"""The declarative description of the Tiny Pixel Processor's 16-bit instruction word.

``OOOOO AAA BBBIII CC``: opcode 15–11, register a 10–8, register b 7–5 overlapping
the immediate 7–2, condition 1–0. The two hardware revisions differ in whether the
ROM opcodes 18–23 exist and in OUT's source field (spec section 10).

OUT reads its register from bits 7–5 on rev B, as the upstream flasher encodes it (bits
10–8 zero), and from bits 10–8 on rev A. So rev B's OUT is the upstream word, and rev A's OUT
writes the register into both fields: the word outputs what its text says on rev A, and on
rev B too. A rev-A word whose fields differ (the upstream word for ``OUT R1`` is ``OUT R0``
on rev A) is data in a rev-A listing, with a note of what rev B outputs.
"""

from __future__ import annotations

from functools import cache

from ...core.bits import bits
from ...core.model import Choice, Description, Immediate, Operand, Registers, form
from .opcodes import OPCODES, ROM_OPCODES, decoded_mnemonics

FIELDS = {
    "op": bits("15:11"),
    "a": bits("10:8"),
    "b": bits("7:5"),
    "imm": bits("7:2"),
    "cond": bits("1:0"),
}

REGISTERS = Registers({
    0: ("R0",), 1: ("R1",), 2: ("R2",), 3: ("R3",),
    4: ("RX", "R4"), 5: ("RY", "R5"), 6: ("RT", "R6"), 7: ("RR", "R7"),
})
CONDITIONS = Choice({0: "EQ", 1: "GT", 2: "LT", 3: ""})
GENERAL_PURPOSE = frozenset(range(4))
SPECIAL_WRITES = "special-writes"

OPERANDS = {
    "cond": Operand("cond", CONDITIONS, title="condition"),
    "rd": Operand("a", REGISTERS, allowed=GENERAL_PURPOSE, unlock=SPECIAL_WRITES,
                  refusal="'{text}' is a hardware register: destinations are R0-R3 "
                          "(write it anyway with '.allow special-writes' or a '##devMode##' line)"),
    "ra": Operand("a", REGISTERS),
    "rs": Operand("b", REGISTERS),
    "imm": Operand("imm", Immediate("#")),
}

# How each mnemonic reads; the opcode comes from the shared opcode table.
SYNTAX = {
    "NOP": "", "SET": "{rd} {imm}", "MOV": "{rd} {rs}", "ADD": "{rd} {rs}", "SUB": "{rd} {rs}",
    "SL": "{rd} {imm}", "SR": "{rd} {imm}", "AND": "{rd} {rs}", "NAND": "{rd} {rs}",
    "OR": "{rd} {rs}", "NOR": "{rd} {rs}", "XOR": "{rd} {rs}", "SIN": "{rd} {rs}",
    "RAMP": "{rd} {rs}", "SAW": "{rd} {rs}", "COMP": "{ra} {rs}",
    "FH": "{rd}", "HSD": "{rd}", "TT": "{rd}", "Credits": "{rd}", "FlagP": "{rd}", "ESE": "{rd}",
}



def describe_unknown(rev: str):
    def describe(word: int) -> str:
        opcode = word >> 11
        if opcode == 14:
            return "opcode 14 ('Rand' in the RTL) is not decoded: executes as NOP"
        if opcode in ROM_OPCODES and rev == "A":
            name = next(n for n, op in OPCODES.items() if op == opcode)
            return f"opcode {opcode} ({name} on rev B) is not decoded on rev A: executes as NOP"
        return f"opcode {opcode} is not decoded: executes as NOP"
    return describe


ROM_OPS_ON_REV_A = "is rev B only: rev A has no ROM ops and runs its word as NOP"


@cache
def description(rev: str) -> Description:
    syntax = dict(SYNTAX, OUT="{ra}" if rev == "A" else "{rs}")
    implied = {"OUT": {"b": "a"}} if rev == "A" else {}

    def declared(name: str, opcode: int, spelling_only: bool = False):
        return form(f"{name}{{cond}} {syntax[name]}".strip(), implied=implied.get(name), spelling_only=spelling_only,
                    op=opcode)

    decoded = decoded_mnemonics(rev)
    forms = [declared(name, opcode) for opcode, name in sorted(decoded.items())]
    # Rev A still reads a ROM op, as the upstream flasher assembles it for any chip (its word
    # runs as NOP there, and the assembler says so); a rev-A listing shows such a word as data.
    forms += [declared(name, opcode, spelling_only=True) for name, opcode in OPCODES.items() if opcode not in decoded]
    return Description(
        f"tpp-rev{rev}", word_bits=16, fields=FIELDS, operands=OPERANDS, forms=forms,
        modifier_as_operand="cond", describe_unknown=describe_unknown(rev),
        annotate=rev_b_out_note if rev == "A" else None)


def rev_b_out_note(instruction, word: int) -> str:
    """On rev A: what rev B outputs for an OUT word whose two register fields differ."""
    rev_b_register = FIELDS["b"].extract(word)
    if instruction.mnemonic != "OUT" or rev_b_register == FIELDS["a"].extract(word):
        return ""
    return f"rev B outputs {REGISTERS.format(rev_b_register)} (it reads bits 7-5)"
