"""The USSE face: listings of bare programs and of GXP containers (parameters, literals, both
programs) that assemble back to the same words and the same container bytes, the section and
container directives, and ``run`` on JSON inputs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from shaderkit.core.diagnostics import DiagnosticError, InputError
from shaderkit.isa.usse import make_isa
from shaderkit.isa.usse.program import UsseImage

VECTORS = Path(__file__).parents[2] / "golden" / "usse" / "vectors"
SUITES = sorted(path.stem for path in VECTORS.glob("*.gxp"))
ISA = make_isa()


def container(suite: str):
    return ISA.containers["gxp"][1]((VECTORS / f"{suite}.gxp").read_bytes(), f"{suite}.gxp")


@pytest.mark.parametrize("suite", SUITES)
def test_a_container_listing_assembles_back_to_the_same_container_bytes(suite):
    image = container(suite)
    text = ISA.disassemble(image)
    assert "// attribute pos: pa0..pa3 (float4)" in text and "\n.secondary\n" in text and "\n.primary\n" in text
    again = ISA.assemble(text, f"{suite}.s").image
    assert (again.primary, again.secondary) == (image.primary, image.secondary)
    assert ISA.containers["gxp"][0](again) == (VECTORS / f"{suite}.gxp").read_bytes()


def test_a_bare_listing_is_the_primary_program_and_round_trips_its_words():
    image = container("vmad16")
    words = image.words
    text = ISA.disassemble(words, addresses=False)
    assert ".gxp" not in text and text.splitlines()[1] == "vmul.skipinv o0.xy, pa0.xyzw, c1.yy"
    assert ISA.assemble(text).words == words


def test_edited_sections_go_back_into_the_container():
    image = container("p4gvert1")
    text = ISA.disassemble(image).replace("vrsq.skipinv.nosched pa0.x, pa0.x", "vrcp.skipinv.nosched pa0.x, pa0.x")
    rebuilt = ISA.containers["gxp"][1](ISA.containers["gxp"][0](ISA.assemble(text).image), "rebuilt.gxp")
    changed = [index for index, (old, new) in enumerate(zip(image.primary, rebuilt.primary)) if old != new]
    assert len(changed) == 1 and rebuilt.primary[changed[0]] >> 32 & 0x600 == 0  # op2 rsq (1) -> rcp (0)
    assert rebuilt.secondary == image.secondary and rebuilt.container.parameters == image.container.parameters


def test_a_gxp_output_needs_a_container_and_sections_need_their_order():
    with pytest.raises(InputError, match="a GXP container needs the container"):
        ISA.containers["gxp"][0](ISA.assemble("nop").image)
    with pytest.raises(InputError, match="instructions before the first section directive"):
        ISA.assemble("nop\n.primary\nnop\n")
    with pytest.raises(DiagnosticError, match="a second '.primary' section"):
        ISA.assemble(".primary\nnop\n.primary\nnop\n")
    with pytest.raises(DiagnosticError, match="takes the container's bytes in hex"):
        ISA.assemble(".gxp 4758zz\n.primary\nnop\n")
    with pytest.raises(InputError, match="the last one is cut short"):
        ISA.disassemble([0x40000000])


def test_an_assembly_error_points_at_the_line_and_column():
    with pytest.raises(DiagnosticError) as raised:
        ISA.assemble("nop\nvmul.skipinv o0.xy, pa1.xyzw, c1.yy\n", "prog.s")
    message = str(raised.value)
    assert "prog.s:2:" in message and "pa1" in message


def run(tmp_path, inputs: dict, **options) -> dict:
    path = tmp_path / "inputs.json"
    path.write_text(json.dumps(inputs))
    printed = []
    ISA.run_command("p4gvert1.gxp", None, {"inputs": str(path), **options},
                    load=lambda _: container("p4gvert1"), echo=printed.append, warn=print)
    return json.loads(printed[0])


def test_run_takes_inputs_by_parameter_name_and_register_and_matches_the_machine(tmp_path):
    rng = np.random.default_rng(3)
    attributes = rng.uniform(0, 1, (3, 36)).astype(np.float32)
    uniforms = rng.uniform(0, 1, 32).astype(np.float32)
    inputs = {"pos": attributes[:, 0:4].tolist(), "pa4": attributes[:, 4:36].tolist(),
              **{f"sa{4 * k}": uniforms[4 * k:4 * k + 4].tolist() for k in range(8)}}
    report = run(tmp_path, inputs, outputs="o4-o15")
    machine = ISA.machine(container("p4gvert1"), lanes=3)
    machine.set_bank("pa", 0, attributes.T.view(np.uint32))
    machine.set_bank("sa", 0, np.repeat(uniforms.view(np.uint32)[:, None], 3, axis=1))
    for literal in container("p4gvert1").container.literals:
        machine.set_bank("sa", literal.register, np.full((1, 3), literal.value, dtype=np.uint32))
    machine.run()
    expected = machine.bank("o")
    assert report["vertices"] == 3 and sorted(report["bits"], key=lambda name: int(name[1:])) == \
        [f"o{n}" for n in range(4, 16)]
    for n in range(4, 16):
        assert report["bits"][f"o{n}"] == [f"0x{x:08x}" for x in expected[n]]


@pytest.mark.parametrize("inputs, message", [
    ({"colour": 1.0}, "'colour' is no parameter of the program"),
    ({"sa0": [[1.0], [2.0]]}, "a uniform has one value for all vertices"),
    ({"pa0": [[1.0], [2.0, 3.0]]}, "every vertex needs as many values"),
    ({"pa0": "0x1ffffffff"}, "does not fit in 32 bits"),
    ({"pa0": True}, "true is not a number"),
])
def test_bad_inputs_say_what_is_wrong(tmp_path, inputs, message):
    with pytest.raises(InputError, match=message):
        run(tmp_path, inputs)


def test_outputs_option_and_output_file_checks(tmp_path):
    with pytest.raises(InputError, match="not an output register or range"):
        run(tmp_path, {}, outputs="r4")
    with pytest.raises(InputError, match=r"as JSON \(.json\) or draws them \(.png\)"):
        ISA.run_command("p.gxp", "out.txt", {}, load=lambda _: container("p4gvert1"), echo=print, warn=print)


def test_an_unmodelled_instruction_stops_the_run_with_its_name():
    image = UsseImage((0xE000000000000000,))  # SMP
    with pytest.raises(InputError, match="not modelled: SMP"):
        ISA.machine(image).run()


def test_a_word_no_form_decodes_lists_as_data_that_assembles_back():
    words = [0x00000000, 0xD0000008, 0x00000000, 0xF8000140]  # major opcode 0x1a with a fixed-zero bit set
    text = ISA.disassemble(words)
    assert text.startswith(".word 0x00000000, 0xd0000008")
    assert ISA.assemble(text).words == words


def test_a_picture_needs_a_strip_and_a_colour_inside_the_outputs(tmp_path):
    lerp = Path(__file__).parents[3] / "examples" / "usse" / "lerp.s"
    image = ISA.assemble(lerp.read_text()).image
    with pytest.raises(InputError, match="a triangle strip needs at least 3 vertices, not 2"):
        ISA.run_command("lerp.s", str(tmp_path / "a.png"), {"vertices": 2}, load=lambda _: image, echo=print,
                        warn=print)
    with pytest.raises(InputError, match="its four registers run past"):
        ISA.run_command("lerp.s", str(tmp_path / "a.png"), {"vertices": 3, "colour": "o14"}, load=lambda _: image,
                        echo=print, warn=print)
    with pytest.raises(InputError, match="not an output register like o4"):
        ISA.run_command("lerp.s", str(tmp_path / "a.png"), {"colour": "r4"}, load=lambda _: image, echo=print,
                        warn=print)
    assert not list(tmp_path.iterdir())
