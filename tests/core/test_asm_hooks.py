"""The assembler driver's hooks on a toy ISA: statement separators, directives that declare
aliases, comment directives, macros that expand to instructions, block macros that resolve to
offsets through generated labels or carried fields, field overrides after a marker, a prescan
of every statement before the first pass, a check after the last one, and a finish step over
the whole program."""

from __future__ import annotations

import re

import pytest

from shaderkit.core.asm import Assembler
from shaderkit.core.diagnostics import DiagnosticError, SourceError
from shaderkit.core.model import CodeAddress, Description, Immediate, Operand, Registers, field, form

REGISTERS = Registers({n: (f"R{n}",) for n in range(8)})
TOY = Description(
    "toy-hooks", word_bits=16, operand_separator=r"\s*,\s*",
    fields={"op": field("15:12"), "a": field("11:9"), "b": field("8:6"), "c": field("5:3"), "target": field("8:0"),
            "imm": field("8:0", signed=True), "flags": field("2:0")},
    operands={"a": Operand("a", REGISTERS), "b": Operand("b", REGISTERS), "c": Operand("c", REGISTERS),
              "target": Operand("target", CodeAddress()), "imm": Operand("imm", Immediate())},
    forms=[form("ADD {a}, {b}, {c}", op=1), form("NEG {a}, {b}", op=2), form("JZ {a}, {target}", op=3),
           form("JMP {target}", op=4), form("LDI {a}, {imm}", op=5),
           # A block whose end no text shows: the driver carries it in from the block's end.
           form("BLOCK {a}", op=6, carries=("target",))])


def declare_temp(call):
    for name in call.operands:
        if not name.isidentifier():
            raise SourceError(f"'{name}' is not a name", 1, len(call.argument))
        call.alias(name, f"R{7 - len(call.data.setdefault('temps', [])) }")
        call.data["temps"].append(name)


def subtract(call):  # SUB a, b, c  →  NEG R7, c ; ADD a, b, R7
    a, b, c = call.operands
    return [f"NEG R7, {c}", f"ADD {a}, {b}, R7"]


def if_zero(call):  # IFZ r … ENDIF: a block whose end is a generated label
    end = call.unique_label("endif")
    call.data.setdefault("blocks", []).append(end)
    return [f"JZ {call.argument}, {end}"]


def end_if(call):
    call.place(call.data["blocks"].pop())
    return []


def block(call):  # BLOCK r … ENDBLOCK: the statement stands; its carried target is the end
    end = call.unique_label("endblock")
    call.data.setdefault("blocks", []).append(end)
    call.carry("target", end)
    return None


def define_from_comment(call):  # "#def NAME VALUE", which other assemblers skip as a comment
    name, value = call.argument.split()
    call.define(name, int(value))


def read_flags(text):  # "#! name=value ..." → raw field values
    values = {}
    for item in text.split():
        name, equals, value = item.partition("=")
        if not equals or not value.isdigit():
            raise SourceError(f"'{item}' is not name=value", text.index(item) + 1, len(item))
        values[name] = int(value)
    return values


def stop_after_the_last(call):  # the last instruction gets flag 1, and a 0xffff word follows
    call.set_fields(len(call.program.instructions) - 1, {"flags": 1})
    call.append_words([0xFFFF], "end marker")


ASSEMBLER = Assembler(TOY, comment_prefixes=("#",), statement_separator=";",
                      directives={"TEMP": declare_temp}, comment_directives={"#def": define_from_comment},
                      macros={"SUB": subtract, "IFZ": if_zero, "ENDIF": end_if, "BLOCK": block, "ENDBLOCK": end_if},
                      override_marker="#!", read_overrides=read_flags)
FINISHING = Assembler(TOY, comment_prefixes=("#",), finish=stop_after_the_last)


def words(source: str) -> list[int]:
    return ASSEMBLER.assemble(source, "toy.s").words


def test_statements_separated_on_one_line_are_placed_in_order():
    assert words("ADD R1, R2, R3; NEG R4, R5;  LDI R0, 3;") == [0x1298, 0x2940, 0x5003]


def test_a_directive_declares_aliases_used_by_later_statements():
    assert words("TEMP x, y; ADD x, y, R1") == words("ADD R7, R6, R1")


def test_a_macro_expands_to_several_instructions():
    assert words("SUB R1, R2, R3") == words("NEG R7, R3\nADD R1, R2, R7")


def test_block_macros_resolve_to_offsets_through_generated_labels():
    program = words("IFZ R1\n  LDI R2, 1\n  IFZ R2\n    LDI R3, 2\n  ENDIF\n  LDI R5, 5\nENDIF\nLDI R4, 4")
    # JZ R1 → 5 (after the outer ENDIF), JZ R2 → 4 (after the inner one).
    assert program == [0x3205, 0x5401, 0x3404, 0x5602, 0x5a05, 0x5804]


def test_errors_point_at_what_the_user_wrote():
    with pytest.raises(DiagnosticError) as caught:
        ASSEMBLER.assemble("TEMP x; ADD x, R9, R1\nSUB R1, R2, R8\nTEMP 1x", "toy.s")
    found = [(d.line, d.col, d.message) for d in caught.value.diagnostics]
    assert found[0][:2] == (1, 16) and "unknown register 'R9'" in found[0][2]
    assert found[1][:2] == (2, 1) and found[1][2].startswith("in the expansion of 'SUB': unknown register 'R8'")
    assert found[2] == (3, 6, "'1x' is not a name")


def test_a_comment_directive_is_read_where_other_comments_are_skipped():
    assert words("#def K 3\nLDI R0, K  # K is 3\n# def K 4") == words("LDI R0, 3")


def test_a_macro_that_keeps_its_statement_sets_a_carried_field_from_a_label():
    program = words("BLOCK R1\n  LDI R2, 1\n  BLOCK R2\n    LDI R3, 2\n  ENDBLOCK\n  LDI R5, 5\nENDBLOCK\n"
                    "LDI R4, 4")
    # The outer block ends at 5, the inner one at 4; the text of neither shows it.
    assert program == [0x6205, 0x5401, 0x6404, 0x5602, 0x5a05, 0x5804]


def test_overrides_after_the_marker_replace_parsed_fields():
    assert words("ADD R1, R2, R3 #! c=5 flags=2 # a comment after them") == [0x12AA]
    assert words("ADD R1, R2, R3 #! c=5") == words("ADD R1, R2, R5")
    assert words("ADD R1, R2, R3 # not overrides #! c=5") == words("ADD R1, R2, R3")


def test_override_errors_point_into_the_overrides():
    with pytest.raises(DiagnosticError) as caught:
        ASSEMBLER.assemble("ADD R1, R2, R3 #! c=x\nADD R1, R2, R3 #! c=9\nADD R1, R2, R3 #! d=1\n"
                           "NEG R1, R2; NEG R3, R4 #! c=1", "toy.s")
    found = [(d.line, d.col, d.message) for d in caught.value.diagnostics]
    assert found == [(1, 19, "'c=x' is not name=value"), (2, 19, "0x9 does not fit in the 3-bit field c"),
                     (3, 19, "toy-hooks has no field 'd'"),
                     (4, 24, "'#!' overrides apply to a line with exactly one instruction")]


def test_the_finish_step_sets_fields_of_the_whole_program_and_appends_words():
    program = FINISHING.assemble("ADD R1, R2, R3\nADD R1, R2, R3", "toy.s")
    assert program.words == [0x1298, 0x1299, 0xFFFF]
    assert program.instructions[-1].address == 2 and program.instructions[-1].note == "end marker"
    assert program.diagnostic(2, "here").line == 2


def scan_registers(statements):  # the R numbers any statement names, before any is encoded
    scanned = {"statements": list(statements), "named": set()}
    for text in statements:
        scanned["named"].update(int(number) for number in re.findall(r"\bR(\d)\b", text))
    return scanned


def declare_free_temp(call):  # TEMP x: the lowest R no statement of the program names
    for name in call.operands:
        taken = call.prescanned["named"] | set(call.data.setdefault("temps", {}).values())
        call.data["temps"][name] = min(set(range(8)) - taken)
        call.alias(name, f"R{call.data['temps'][name]}")


def open_block(call):  # REP r … ENDREP: the counter is cleared; the check finds blocks left open
    call.data.setdefault("open", []).append(call.address)
    return [f"LDI {call.argument}, 0"]


def close_block(call):
    if call.data.get("open"):
        call.data["open"].pop()
    return []


def end_program(call):
    call.data["ended"] = True


def check_program(call):
    instructions = call.program.instructions
    if call.clean and not call.state.data.get("ended"):
        yield call.at_end("missing END")
    for address in call.state.data.get("open", []):
        index = next(i for i, instruction in enumerate(instructions) if instruction.address == address)
        yield call.program.diagnostic(index, "REP is never closed (ENDREP)")
    if len(instructions) > 3:
        yield call.program.diagnostic(3, "more than 3 instructions", "warning")
    end = instructions[-1].address + 1 if instructions else 0
    for name, address in call.program.symbols.items():
        if address == end and name in call.program.definitions and not name.startswith("__"):
            yield call.program.definition_diagnostic(name, f"'{name}' marks no instruction", "warning")


SCANNING = Assembler(TOY, comment_prefixes=("#",), statement_separator=";", override_marker="#!",
                     read_overrides=read_flags, prescan=scan_registers,
                     directives={"TEMP": declare_free_temp, "END": end_program},
                     macros={"REP": open_block, "ENDREP": close_block}, check=check_program)


def test_a_declaration_takes_the_lowest_register_that_no_statement_anywhere_names():
    program = SCANNING.assemble("TEMP x, y; ADD x, R0, R1\nADD y, R2, R4\nLDI R3, 1 # R5 in a comment\nEND", "toy.s")
    # x and y come before R2, R3 and R4 are named, yet skip them; a comment names nothing.
    assert program.words == SCANNING.assemble("ADD R5, R0, R1\nADD R6, R2, R4\nLDI R3, 1\nEND").words


def test_the_prescan_reads_every_statement_without_labels_comments_or_overrides():
    program = SCANNING.assemble("top: ADD R1, R2, R3 #! c=5 # a comment\nTEMP x; REP x\nENDREP; END", "toy.s")
    assert program.state.prescanned["statements"] == ["ADD R1, R2, R3", "TEMP x", "REP x", "ENDREP", "END"]


def test_the_check_reports_errors_at_the_end_and_at_an_unclosed_block():
    with pytest.raises(DiagnosticError) as caught:
        SCANNING.assemble("LDI R1, 1\nREP R1\n  REP R2\n  ENDREP\n# the last line", "toy.s")
    found = [(d.line, d.col, d.severity, d.message) for d in caught.value.diagnostics]
    assert found == [(5, 1, "error", "missing END"), (2, 1, "error", "REP is never closed (ENDREP)")]


def test_the_check_knows_whether_the_passes_found_errors():
    with pytest.raises(DiagnosticError) as caught:
        SCANNING.assemble("LDI R9, 1", "toy.s")
    # The unknown register explains the rest; this check stays silent about END then.
    found = [d.message for d in caught.value.diagnostics]
    assert len(found) == 1 and "unknown register 'R9'" in found[0]


def test_warnings_from_the_check_leave_the_program_assembled():
    program = SCANNING.assemble("LDI R1, 1\nLDI R1, 2\nLDI R1, 3\nLDI R1, 4\nlast: END", "toy.s")
    assert len(program.words) == 4
    assert [(d.line, d.col, d.severity, d.message) for d in program.warnings] == [
        (4, 1, "warning", "more than 3 instructions"), (5, 1, "warning", "'last' marks no instruction")]


def test_a_tab_after_a_directive_or_macro_keyword_separates_it_too():
    assert words("TEMP\tx, y; ADD x, y, R1") == words("ADD R7, R6, R1")
    assert words("SUB\tR1, R2, R3") == words("SUB R1, R2, R3")


# --- terminated statements, value names, address units, directives after the marker ----------


def test_terminated_statements_need_the_separator_except_the_exempt_words():
    assembler = Assembler(TOY, comment_prefixes=("#",), statement_separator=";", terminated=("STOP",),
                          directives={"STOP": lambda call: None})
    assert assembler.assemble("ADD R1, R2, R3; NEG R1, R2;\nSTOP").words == [0x1298, 0x2280]
    with pytest.raises(DiagnosticError) as caught:
        assembler.assemble("ADD R1, R2, R3; NEG R1, R2  # no separator\nNEG R0, R1;")
    [diagnostic] = caught.value.diagnostics
    assert (diagnostic.line, diagnostic.col, diagnostic.message) == (1, 27, "missing ';' at the end of the statement")
    with pytest.raises(ValueError, match="separator"):
        Assembler(TOY, terminated=("STOP",))


def test_value_names_of_each_pass_name_operand_values():
    asked = []

    def names(final):
        asked.append(final)
        return {"imm": {"forty": 40}}

    program = Assembler(TOY, value_names=names).assemble("LDI R1, forty")
    assert program.words == [0x5228] and asked == [False, True]


def test_an_address_can_count_several_words():
    wide = Description("toy-wide", word_bits=8, words_per_instruction=2, first_word_most_significant=True,
                       fields={"op": field("15:12"), "target": field("7:0")},
                       operands={"target": Operand("target", CodeAddress())},
                       forms=[form("JMP {target}", op=4), form("NOP", op=0)])
    program = Assembler(wide, words_per_address=2).assemble("NOP\nNOP\nhere: JMP here")
    assert [item.address for item in program.instructions] == [0, 1, 2]
    assert program.words == [0, 0, 0, 0, 0x40, 2]


def test_a_directive_may_stand_after_the_override_marker_on_a_line_of_its_own():
    seen = []
    assembler = Assembler(TOY, comment_prefixes=("#",), override_marker="#!", read_overrides=read_flags,
                          override_directives={"note": lambda call: seen.append((call.argument, call.final))})
    program = assembler.assemble("NEG R1, R2  #! flags=3\n#! note hello  # a comment\n")
    assert program.words == [0x2283] and seen == [("hello", False), ("hello", True)]
    # Not a statement: written without the marker it is an unknown instruction.
    with pytest.raises(DiagnosticError, match="note"):
        assembler.assemble("note hello")


def test_an_override_that_lengthens_an_instruction_moves_what_follows():
    growing = Description("toy-growing", word_bits=8, words_per_instruction=1, max_length=2,
                          first_word_most_significant=False,
                          fields={"op": field("7:4"), "long": field("0"), "target": field("3:1"), "extra": field("15:8")},
                          operands={"target": Operand("target", CodeAddress())},
                          forms=[form("NOP", op=0, implied={"long": 0, "target": 0}, extra_words="long"),
                                 form("JMP {target}", op=4, implied={"long": 0})])
    assembler = Assembler(growing, comment_prefixes=("#",), override_marker="#!", read_overrides=read_flags)
    program = assembler.assemble("NOP  #! long=1 extra=7\nhere: JMP here\n")
    assert [item.address for item in program.instructions] == [0, 2]
    assert program.words == [0x01, 0x07, 0x44]
