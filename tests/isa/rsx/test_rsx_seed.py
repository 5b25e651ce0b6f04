"""The seed article's vertex listing (form B, https://rcebits.com/ps3emu/shaders.html).

Only the listing lines that spec/rsx.md 5.2 quotes could be retrieved (see the data file's
header), so they stand in for the 44-instruction listing: they assemble as a form-B listing (the
slot numbers 19 and 35 are the article's, the three lines assemble to slots 0-2, which the
assembler reports as warnings), our form B listing reproduces each instruction's text, and the
form A disassembly reassembles to the same words. The article's Cg source is kept beside it for
the decompiler's tests.
"""

from __future__ import annotations

import re
from pathlib import Path

from shaderkit.isa.rsx.assembler import assemble
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.disassembler import disassemble
from shaderkit.isa.rsx.listing import listing

DATA = Path(__file__).resolve().parent / "data"
LINE = re.compile(r"(\d{3}): (.*?;)(?: # .*)?$")


def instructions(text: str) -> list[tuple[int, str]]:
    return [(int(match.group(1)), match.group(2)) for match in map(LINE.match, text.splitlines()) if match]


def test_seed_listing_assembles_and_lists_back():
    source = (DATA / "seed_vertex_listing.txt").read_text()
    seed = instructions(source)
    assert [slot for slot, _ in seed] == [0, 19, 35]
    assembled = assemble(source, "seed_vertex_listing.txt")
    assert assembled.program.kind is ProgramKind.VERTEX
    assert [diagnostic.message for diagnostic in assembled.warnings] == [
        "listed as slot 19, assembled to slot 1", "listed as slot 35, assembled to slot 2"]
    listed = instructions(listing(assembled.program))
    assert [text for _, text in listed] == [text for _, text in seed]
    assert listing(assembled.program).splitlines()[-1].endswith("# last instruction")


def test_seed_listing_reads_back_exactly_through_form_a():
    program = assemble((DATA / "seed_vertex_listing.txt").read_text()).program
    text = disassemble(program)
    assert "MOV result.texcoord[1], vertex.color;" in text.splitlines()
    assert "DP4 result.fogcoord.y, R0, c[467];" in text.splitlines()  # o[5].y: user clip plane 0
    assert assemble(text).program == program


def test_seed_cg_source_is_kept_for_the_decompiler():
    cg = (DATA / "seed_vertex_cg.txt").read_text()
    assert "https://rcebits.com/ps3emu/shaders.html" in cg
    assert "oClip0 = dot(vertexEye, clipPlane);" in cg
