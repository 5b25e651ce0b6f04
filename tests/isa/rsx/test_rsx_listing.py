"""Form B listings (spec/rsx.md 5.2) of golden programs, checked line for line."""

from __future__ import annotations


from shaderkit.core.binfmt import read_words
from shaderkit.isa.rsx.container import ProgramKind, read_container, UCODE_BYTE_ORDER
from shaderkit.isa.rsx.instruction import decode_program
from shaderkit.isa.rsx.listing import listing
from conftest import golden_dir

GOLDEN = golden_dir("rsx")


def binary(name: str) -> str:
    kind = ProgramKind.VERTEX if name.startswith("vp") else ProgramKind.FRAGMENT
    path = GOLDEN / "asm" / name
    return listing(decode_program(read_words(path.read_bytes(), "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind]),
                                  kind))


def container(name: str) -> str:
    program = read_container((GOLDEN / "real" / name).read_bytes(), name)
    return listing(decode_program(program.words, program.kind), program.parameters)


def test_fragment_blocks_literals_and_slot_numbers():
    assert binary("fp_if_else.fpo.bin").splitlines() == [
        "000: ADDRC RC.x, f[TEX0].y, -{0x3f000000(0.5), 0x3f800000(1), 0x00000000(0), 0x3e800000(0.25)}.x;",
        "002: IFE (GT.x);",
        "003: MOVR R0, f[COL0];",
        "     ELSE",
        "004: MOVR R0, {0x3f000000(0.5), 0x3f800000(1), 0x00000000(0), 0x3e800000(0.25)}.wwwy;",
        "     ENDIF",
        "006: MOVR R0, R0; # last instruction",
    ]


def test_fragment_loop_and_pack_mnemonics():
    assert binary("fp_loop.fpo.bin").splitlines()[1:4] == [
        "001: LOOP {3, 0, 1};",
        "002: ADDR R0, R0, {0x3e800000(0.25), 0x3e000000(0.125), 0x3d800000(0.0625), 0x3e800000(0.25)};",
        "     ENDLOOP",
    ]
    assert binary("fp_pack_unpack.fpo.bin").splitlines()[:2] == ["000: PK2R R1.x, f[TEX0];", "001: UP2R R0.xy, R1.x;"]


def test_perspective_flag_reads_as_g():
    assert binary("fp_arith_const.fpo.bin").splitlines()[0] == \
        "000: MULR R0, g[TEX0], {0x3f000000(0.5), 0x3e800000(0.25), 0x40000000(2), 0x3f800000(1)};"


def test_vertex_registers_and_branch_targets():
    assert binary("vp_branch.vpo.bin").splitlines() == [
        "000: MOV R0, v[3];",
        "001: MOVC RC.x, v[2].x;",
        "002: BRA 004 (LE.x);",
        "003: MUL R0, R0, c[0].z;",
        "004: MOV o[1], R0;",
        "005: MOV o[0], v[0]; # last instruction",
    ]


def test_container_parameters_name_the_uniforms():
    assert container("gs_gcm_basic_triangle_0x312e0.vpo").splitlines() == [
        "000: MOV o[1], v[3];",
        "001: DP4 o[0].w, v[0], c[259]; # modelViewProj[3]",
        "002: DP4 o[0].z, v[0], c[258]; # modelViewProj[2]",
        "003: DP4 o[0].y, v[0], c[257]; # modelViewProj[1]",
        "004: DP4 o[0].x, v[0], c[256]; # modelViewProj[0], last instruction",
    ]


def test_real_fragment_program_with_fence_and_half_registers():
    assert container("gs_gcm_cube_0x2074c.fpo").splitlines() == [
        "000: TEXR R0.x, f[TEX0], TEX0;",
        "001: MOVH R0.yw, {0x00000000(0), 0x3f800000(1), 0x00000000(0), 0x00000000(0)}.xxyy;",
        "003: FENCB;",
        "004: MOVH R0.xz, R0.x; # last instruction",
    ]
    assert container("gs_gcm_cube_0x38f80.fpo").splitlines()[1:3] == [
        "001: MOVH H0, f[COL0];", "002: MULR R0.w, H0, R0;"]
