"""The VP1 reference manual: ``reference.md`` (prose) with one entry per instruction form.

Syntax and bit diagram come from the description (:mod:`.description`); the meaning of each
mnemonic is the sentence below, written from spec/vp1.md §5–§9. A form spelled like an earlier one
(a duplicate opcode envyas never emits) is listed under the earlier one's entry.
"""

from __future__ import annotations

from functools import cache

from ...core.docs import InstructionEntry, Reference, bit_diagram, form_bit_ranges, form_syntax, prose
from .description import envydis

MEANINGS = {
    "bmul": "Per-byte fractional multiply of two sources (unsigned 0.8 or signed), rounded with `rn`, clipped.",
    "bmula": "The bad-opcode alias of `bmul`: the same `$r` result, other s2v factors; the immediate is bits 0–7.",
    "bvecmad": "Bilinear s2v factors from a quad of `$r` and the fraction in source 1 (spec §6.2).",
    "bvecmadsel": "Like `bvecmad`, with a factor selection by the flag (spec §6.2).",
    "bmin": "Per-byte minimum; `$c` is written as 0.", "bmax": "Per-byte maximum; `$c` is written as 0.",
    "babs": "Per-byte absolute value, clipped.", "bneg": "Per-byte negation, clipped.",
    "badd": "Per-byte add, clipped.", "bsub": "Per-byte subtract, clipped.",
    "bshr": "Per-byte shift by the signed low nibble of source 2 (negative: left); arithmetic for `s`, no clip.",
    "bvec": "s2v factors from the four signed bytes of source 1, and a `$vc` selection.",
    "vec": "s2v factors: factors 0 and 1 from FACTOR1, 2 and 3 from FACTOR2, and a `$vc` selection.",
    "vecms": "Shift source 1 right by 4; s2v factors from the four bits shifted out.",
    "band": "Per-byte AND with the immediate (clears `$c` scalar bits although no `$c` is printed).",
    "bor": "Per-byte OR with the immediate.", "bxor": "Per-byte XOR with the immediate.",
    "mul": "Signed 16×16 → 32-bit multiply; full flags.",
    "bitop": "Any 4-bit truth table of the two sources (`bitop(BITOP, S2, S1)`); partial flags.",
    "and": "Bitwise AND (with `not` on one source: AND NOT); partial flags.",
    "or": "Bitwise OR (with `not` on one source: OR NOT); partial flags.",
    "xor": "Bitwise XOR; partial flags.", "nor": "Bitwise NOR; partial flags.",
    "nand": "Bitwise NAND; partial flags.", "nxor": "Bitwise XNOR; partial flags.",
    "min": "Signed 32-bit minimum; full flags.", "max": "Signed 32-bit maximum; full flags.",
    "abs": "Absolute value; full flags.", "neg": "Negation (flag bit 3 against 0); full flags.",
    "add": "32-bit add (scalar) or 32-bit address add (address unit); the flags of its unit.",
    "sub": "32-bit subtract; full flags.",
    "sar": "Arithmetic shift right by the signed 6-bit source 2 (negative: left).",
    "shr": "Logical shift right by the signed 6-bit source 2 (negative: left).",
    "snop": "Scalar no-operation: no `$c` write.",
    "mov": "Move: an immediate to `$r`, `$r` to or from another register file (`$v` word, `$sr`, `$mi`, "
           "`$uc`, `$l`, `$a`, `$c`, `$m`, `$d`, `$f`, `$x`), `$v` to `$v`, the four `$vc` into `$v`, or an "
           "immediate into `$l` with its `$c` loop flag.",
    "sethi": "Set the high half of a register (printed pre-shifted).",
    "setlo": "Set the low half of an address register.",
    "vmul": "Per-component multiply into `$va` (and a readout to `$v` unless `#`).",
    "vmac": "Per-component multiply-accumulate into `$va` (and a readout unless `#`).",
    "vmad2": "Two-term multiply-add with s2v factors or masks, started from source 2.",
    "vmac2": "Two-term multiply-accumulate with s2v factors or masks.",
    "vmin": "Per-component minimum.", "vmax": "Per-component maximum.", "vabs": "Per-component absolute value.",
    "vneg": "Per-component negation (signed).", "vadd": "Per-component add, clipped.",
    "vsub": "Per-component subtract, clipped.",
    "vshr": "Per-component shift by the signed low nibble of source 2 (negative: left), no clip.",
    "vcmpad": "Compare absolute differences with the pair partner, flags by a truth table; no `$v` write.",
    "vlrp": "Lerp between the pair's two registers by source 2.",
    "vbitop": "Any 4-bit truth table of two vectors.", "vand": "Per-component AND.", "vor": "Per-component OR.",
    "vxor": "Per-component XOR.", "vnor": "Per-component NOR.", "vnand": "Per-component NAND.",
    "vnxor": "Per-component XNOR.",
    "vswz": "Swizzle: each component picks a component of source 1 or 2 by the selector bytes of source 3.",
    "vadd9": "Add 9-bit signed lanes of sources 2 and 3 to source 1, clipped.",
    "vclip": "Signed median of three.", "vminabs": "Minimum of absolute values, clipped to 127.",
    "vmov": "Set every component to the immediate.",
    "vlrp2": "Two-factor lerp over a rotated quad, factors chosen by `$vc`.",
    "vlrp4a": "Four-point lerp into `$va` over a rotated quad.",
    "vlrpf": "Lerp with a signed base from source 2 into `$va`.",
    "vlrp4b": "Lerp with `$vx` over a rotated quad, into `$va` and `$v`.",
    "vnop": "Vector no-operation.",
    "ldavh": "Load a horizontal vector, then post-increment the address register.",
    "ldavv": "Load a vertical vector, then post-increment the address register.",
    "ldas": "Load a scalar, then post-increment the address register.",
    "ldvh": "Load a horizontal vector at address OR immediate.", "ldvv": "Load a vertical vector at address OR immediate.",
    "lds": "Load a scalar at address OR immediate.",
    "stavh": "Store a horizontal vector, then post-increment.", "stavv": "Store a vertical vector, then post-increment.",
    "stas": "Store a scalar, then post-increment.",
    "stvh": "Store a horizontal vector at address OR immediate.", "stvv": "Store a vertical vector at address OR immediate.",
    "sts": "Store a scalar at address OR immediate.",
    "ldaxh": "Load horizontally into `$vx` (and the rotated quad register when the flag is set), post-increment.",
    "ldaxv": "Load vertically into `$vx` (and the rotated quad register when the flag is set), post-increment.",
    "aadd": "16-bit add into an address register's address part.",
    "ldr": "Raw load: each bank at the row plus the component of source 2.",
    "star": "Raw store of a whole row, then post-increment.",
    "xdld": "DMA load (semantics unknown).", "xdst": "DMA store (semantics unknown).",
    "xdbar": "DMA barrier (semantics unknown).", "xdwait": "DMA wait (semantics unknown).",
    "anop": "Address-unit no-operation.",
    "bra": "Branch (or a loop branch) to the absolute target after one delay-slot bundle.",
    "call": "Call (or a loop call) after one delay-slot bundle.",
    "ret": "Return from a call.", "abra": "Absolute branch to bits 0–15 × 4.",
    "bnop": "Branch-unit no-operation.", "exit": "Stop execution with the code (and an interrupt with `intr`).",
}


def _syntax(form) -> str:
    text = form_syntax(form)
    for name in ("c", "vc"):
        text = text.replace(f"{{{name} if cdst & 4 == 0}}", f"[{name}]")
    return text


@cache
def documentation() -> Reference:
    description = envydis()
    entries = []
    seen: set[str] = set()
    for form in description.forms:
        if form.template in seen:
            continue
        seen.add(form.template)
        # The opcode, and what else the form fixes (several forms share an opcode and a mnemonic).
        group = ", ".join(f"{name}={value:#x}" if name != "op" else f"0x{value:02x}" for name, value in form.fixed)
        entries.append(InstructionEntry(form.mnemonic, _syntax(form),
                                        bit_diagram(form_bit_ranges(description, form)), MEANINGS[form.mnemonic],
                                        group=group))
    return Reference("vp1", "VP1 — NVIDIA video processor (NV41–G84)", prose(__package__), tuple(entries),
                     source="src/shaderkit/isa/vp1/reference.md")
