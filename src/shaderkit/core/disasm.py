"""The disassembler driver: words → instructions → a listing that re-assembles.

Every word is shown: what no form decodes becomes a ``.word`` line whose comment says
why. Addresses and the raw words go into a trailing comment, so a listing with
addresses is still valid assembler input and round-trips to the same words. Jump
targets inside the listing get labels (``L_800f:``) and jumps name them.

Any words decode, so the driver also helps an ISA say when words do not look like one
of its programs at all (``disasm`` of another processor's image).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .model import Description, Instruction

COMMENT = "//"
TEXT_COLUMN_WIDTH = 24


def disassemble(description: Description, words: Sequence[int], start_address: int = 0) -> list[Instruction]:
    instructions = []
    position = 0
    while position < len(words):
        instruction = description.decode(words[position:], start_address + position)
        instructions.append(instruction)
        position += max(1, len(instruction.words))
    return instructions


def jump_labels(description: Description, instructions: Sequence[Instruction],
                named: Mapping[int, str] | None = None) -> dict[int, str]:
    """A label for every jump target that is the address of a listed instruction.

    ``named`` gives preferred names for some addresses (e.g. routine entry points).
    """
    starts = {instruction.address for instruction in instructions}
    digits = max(2, len(f"{max(starts, default=0):x}"))
    targets = {target for instruction in instructions for target in description.jump_targets(instruction)}
    labels = {address: f"L_{address:0{digits}x}" for address in sorted(targets & starts)}
    labels.update({address: name for address, name in (named or {}).items() if address in starts})
    return labels


def listing(description: Description, instructions: Sequence[Instruction], *, addresses: bool = True,
            labels: Mapping[int, str] | None = None, address_style: str = "{address}: {words}",
            bundles: bool = False, remark: Callable[[Instruction], str] | None = None) -> str:
    """One line per instruction; ``address_style`` lays out the address comment. With
    ``bundles``, a blank line separates the bundles the description's rule forms (the text
    has no bundle syntax); ``remark`` adds a comment of the ISA's own to an instruction."""
    hex_digits = (description.word_bits + 3) // 4
    address_digits = max(2, len(f"{max((i.address for i in instructions), default=0):x}"))
    starts = {bundle[0].address for bundle in description.group(instructions)[1:]} if bundles else set()
    lines = []
    for instruction in instructions:
        if instruction.address in starts:
            lines.append("")
        if labels and instruction.address in labels:
            lines.append(f"{labels[instruction.address]}:")
        text = description.format(instruction, labels)
        remarks = []
        if addresses:
            raw = " ".join(f"{w:0{hex_digits}x}" for w in instruction.words)
            remarks.append(address_style.format(address=f"{instruction.address:0{address_digits}x}", words=raw))
        if instruction.note:
            remarks.append(instruction.note)
        if remark is not None and remark(instruction):
            remarks.append(remark(instruction))
        if remarks:
            text = f"{'    ' if labels else ''}{text:<{TEXT_COLUMN_WIDTH}} {COMMENT} " + "  ".join(remarks)
        elif labels:
            text = "    " + text
        lines.append(text.rstrip())
    return "\n".join(lines) + ("\n" if lines else "")


def annotations(description: Description, instruction: Instruction) -> list[str]:
    """What a disassembler reports besides an instruction's text, as envydis's annotations are
    recorded in a golden table: ``bits:XXXXXXXX`` (the unknown bits the description's
    :class:`~shaderkit.core.model.Annotate` policy reports; for words no form decodes, the
    words within its mask), ``operand`` (an operand shows a value its kind marks unknown) and
    ``insn`` (no form decodes the words)."""
    hex_digits = (description.word_bits * max(1, len(instruction.words)) + 3) // 4
    flags = []
    if instruction.is_data:
        mask = getattr(description.unknown_bits, "mask", -1)
        value = 0
        for index, word in enumerate(instruction.words):
            value |= word << (description.word_bits * index)
        bits = value & mask
    else:
        bits = instruction.unknown_bits
    if bits:
        flags.append(f"bits:{bits:0{hex_digits}x}")
    if instruction.unknown_operand:
        flags.append("operand")
    if instruction.is_data:
        flags.append("insn")
    return flags


def annotated_lines(description: Description, words: Sequence[int], *, address: int = 0,
                    unknown_text: str = "???") -> list[str]:
    """``WORDS<TAB>TEXT<TAB>FLAGS`` per instruction, each decoded as if it stood at ``address``
    (a table of single words, not a program): the text (``unknown_text`` where no form
    decodes the words) and its :func:`annotations` joined by commas, ``ok`` for none."""
    hex_digits = (description.word_bits + 3) // 4
    lines = []
    position = 0
    while position < len(words):
        instruction = description.decode(words[position:], address)
        taken = instruction.words or tuple(words[position:position + 1])
        text = unknown_text if instruction.is_data else description.format(instruction)
        flags = ",".join(annotations(description, instruction)) or "ok"
        lines.append(f"{' '.join(f'{word:0{hex_digits}x}' for word in taken)}\t{text}\t{flags}")
        position += len(taken)
    return lines


def warnings(instructions: Sequence[Instruction]) -> list[str]:
    """One line per word that decoded to data, for the user's attention."""
    return [f"0x{i.address:x}: {i.note}" for i in instructions if i.is_data and i.note]


def foreign_words(instructions: Sequence[Instruction],
                  is_foreign: Callable[[Instruction], bool] = lambda instruction: instruction.is_data,
                  what: str = "instructions") -> str:
    """"17 of 20 words are not instructions" (``what``) when more than half are foreign, else ''.

    Any word sequence decodes (data items stand for what is not code), so only the share
    of words that are no instruction tells a program from other bytes.
    """
    total = sum(len(instruction.words) for instruction in instructions)
    foreign = sum(len(instruction.words) for instruction in instructions if is_foreign(instruction))
    return f"{foreign} of {total} words are not {what}" if 2 * foreign > total else ""


def plausibility_warnings(processor: str, reasons: Sequence[str], instructions: Sequence[Instruction]) -> list[str]:
    """Warnings for a disassembly: one line naming every reason the words do not look
    like a ``processor`` program, or, for a plausible one, a line per word that is data.

    An implausible image gets no per-word lines: each is in the listing already, and a
    hundred of them would bury the one line that names the likely cause.
    """
    reasons = [reason for reason in reasons if reason]
    if reasons:
        return [f"does not look like a {processor} program: {'; '.join(reasons)}; "
                "is it another processor's program?"]
    return warnings(instructions)
