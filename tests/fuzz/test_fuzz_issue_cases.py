"""The edge cases the original campaign reported (issue 10), as fixed command lines through
the same harness: each must end in a result or a clean error, within the time and memory
limits, without touching an existing output. They are tallied as input kind "issue 10".

Files the cases need are written into a temporary workspace; ``{w}`` in an argument is that
folder. Special inputs stand in for devices: a FIFO for ``/dev/urandom`` or a blocking pipe.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from .fuzz_corpus import EXAMPLES, GOLDEN, KNOWN_CONTENT, png_claiming
from .fuzz_harness import KNOWN_FAILURES, Case, check

PLASMA = EXAMPLES / "tpp" / "plasma.s"
CUBE = EXAMPLES / "theia" / "models" / "cube.obj"
TORUS = EXAMPLES / "rsx" / "models" / "torus.obj"
GOURAUD_FP = EXAMPLES / "rsx" / "gouraud.fp"

NESTED_LOOPS_FP = """!!ARBfp1.0
OPTION NV_fragment_program2;
#const c[0] = 255 0 1 0
#const c[1] = 0.001 0 0 0
PARAM c[2] = { { 255, 0, 1, 0 }, { 0.001, 0, 0, 0 } };
TEMP R0;
MOVR R0, fragment.color;
LOOP c[0];
LOOP c[0];
LOOP c[0];
ADDR R0, R0, c[1];
ENDLOOP;
ENDLOOP;
ENDLOOP;
MOVR result.color, R0;
END
"""

ENDLESS_VP = """!!ARBvp1.0
OPTION NV_vertex_program3;
TEMP R0;
MOV R0, vertex.color;
top:
ADD R0, R0, R0;
BRA top;
MOV result.color, R0;
MOV result.position, vertex.position;
END
"""

DIVIDING_BY_ZERO_FP = """!!ARBfp1.0
OPTION NV_fragment_program2;
#const c[0] = 0 -1 0 0
PARAM c[1] = { { 0, -1, 0, 0 } };
TEMP R0;
RCPR R0.x, c[0].x;
LG2R R0.y, c[0].y;
RSQR R0.z, c[0].y;
MULR R0.w, R0.x, c[0].x;
MOVR result.color, R0;
END
"""


def _plain_png(side: int) -> bytes:
    """A PNG of one colour: a few hundred kilobytes however large the picture."""
    buffer = io.BytesIO()
    Image.new("RGB", (side, side), (200, 100, 50)).save(buffer, format="PNG")
    return buffer.getvalue()


def _squaring_chain(prefix: str, depth: int = 40) -> str:
    lines = [f"{prefix}0 = 3"] + [f"{prefix}{i} = {prefix}{i - 1}*{prefix}{i - 1}" for i in range(1, depth)]
    return "\n".join(lines) + "\n"


# name -> (processor, command, files to write {name: bytes}, arguments)
CASES = {
    "unicode digit in --fullscreen": (
        "rsx-fp", "run", {"prog.fp": GOURAUD_FP.read_bytes()},
        ["run", "-m", "rsx-fp", "{w}/prog.fp", "--fullscreen", "²x2", "-o", "{w}/out.npy"]),
    "unicode digit in a texture unit": (
        "rsx-fp", "run", {"prog.fp": GOURAUD_FP.read_bytes(), "x.png": png_claiming(4, 4)},
        ["run", "-m", "rsx-fp", "{w}/prog.fp", "--texture", "²={w}/x.png", "-o", "{w}/out.npy"]),
    "unicode digit in --resolution": (
        "theia", "run", {}, ["run", "-m", "theia", "--obj", str(CUBE), "--resolution", "٣x3", "-o", "{w}/out.png"]),
    "constant index past Python's digit limit": (
        "rsx-fp", "asm", {"big.fp": ("!!ARBfp1.0\nOPTION NV_fragment_program2;\n#const c[" + "9" * 5000
                                     + "] = 1 2 3 4\nMOVR result.color, c[" + "9" * 5000 + "];\nEND\n").encode()},
        ["asm", "-m", "rsx-fp", "{w}/big.fp", "-f", "hex"]),
    "TPP immediate past Python's digit limit": (
        "tpp", "asm", {"big.s": b"ADD R0 #" + b"9" * 5000 + b"\n"}, ["asm", "-m", "tpp", "{w}/big.s"]),
    "--fps 0.0001 (TPP GIF)": (
        "tpp", "run", {}, ["run", "-m", "tpp", str(PLASMA), "--frames", "2", "--fps", "0.0001", "--scale", "1",
                           "-o", "{w}/out.gif"]),
    "--fps 1e-300 (THEIA)": (
        "theia", "run", {}, ["run", "-m", "theia", "--obj", str(CUBE), "--resolution", "8x8", "--frames", "2",
                             "--fps", "1e-300", "-o", "{w}/out.gif"]),
    "--fps 0.0001 (RSX GIF)": (
        "rsx", "run", {}, ["run", "-m", "rsx", "--fp", str(GOURAUD_FP), "--mesh", str(CUBE), "--size", "8x8",
                           "--frames", "2", "--fps", "0.0001", "-o", "{w}/out.gif"]),
    "--window -1e308": (
        "theia", "run", {}, ["run", "-m", "theia", "--obj", str(CUBE), "--resolution", "8x8",
                             "--window=-1e308,-1e308,1e308,1e308", "-o", "{w}/out.png"]),
    "--camera 1e308": (
        "theia", "run", {}, ["run", "-m", "theia", "--obj", str(CUBE), "--resolution", "8x8",
                             "--camera", "1e308,0,1e308", "-o", "{w}/out.png"]),
    "flash -m theia": ("theia", "flash", {}, ["flash", "-m", "theia", str(EXAMPLES / "theia" / "depth.s"), "--dry-run"]),
    "flash -m rsx": ("rsx", "flash", {}, ["flash", "-m", "rsx", str(GOURAUD_FP), "--dry-run"]),
    "THEIA texture claiming 20000x20000": (
        "theia", "run", {"big.png": png_claiming(20000, 20000)},
        ["run", "-m", "theia", "--obj", str(CUBE), "--texture", "{w}/big.png", "--resolution", "8x8", "-o", "{w}/out.png"]),
    "RSX texture claiming 20000x20000": (
        "rsx-fp", "run", {"prog.fp": (GOLDEN / "rsx" / "asm" / "fp_tex2d.fp.txt").read_bytes(),
                          "big.png": png_claiming(20000, 20000)},
        ["run", "-m", "rsx-fp", "{w}/prog.fp", "--texture", "0={w}/big.png", "-o", "{w}/out.npy"]),
    ".include with a NUL byte": ("tpp", "asm", {"inc.s": b'.include "a\x00b.s"\nADD R0 R1\n'}, ["asm", "-m", "tpp", "{w}/inc.s"]),
    ".include of a FIFO": ("theia", "asm", {"inc.s": b'.include "fifo"\n'}, ["asm", "-m", "theia", "{w}/inc.s"]),
    "a FIFO as the program": ("tpp", "disasm", {}, ["disasm", "-m", "tpp", "{w}/fifo"]),
    "squaring chain (TPP)": ("tpp", "asm", {"chain.s": (_squaring_chain("A") + "ADD R0 #A39\n").encode()},
                             ["asm", "-m", "tpp", "{w}/chain.s"]),
    "squaring chain (THEIA)": ("theia", "asm", {"chain.s": (_squaring_chain("A") + "SETX R1 A39\n").encode()},
                               ["asm", "-m", "theia", "{w}/chain.s"]),
    "RSX hex backtracking": ("rsx-fp", "disasm", {"slow.hex": b"0" * 28 + b"g"},
                             ["disasm", "-m", "rsx-fp", "{w}/slow.hex", "-f", "hex"]),
    "RSX hex backtracking, longer": ("rsx-vp", "disasm", {"slow.hex": b"0" * 60 + b"g\n"},
                                     ["disasm", "-m", "rsx-vp", "{w}/slow.hex", "-f", "hex"]),
    "TPP hex, many digits": ("tpp", "disasm", {"slow.hex": b"0" * 60 + b"g\n"}, ["disasm", "-m", "tpp", "{w}/slow.hex", "-f", "hex"]),
    "RSX 3-deep loop at 512x512": ("rsx-fp", "run", {"loops.fp": NESTED_LOOPS_FP.encode()},
                                   ["run", "-m", "rsx-fp", "{w}/loops.fp", "--fullscreen", "512x512", "-o", "{w}/out.npy"]),
    "RSX 3-deep loop in the pipeline": ("rsx", "run", {"loops.fp": NESTED_LOOPS_FP.encode()},
                                        ["run", "-m", "rsx", "--fp", "{w}/loops.fp", "--mesh", str(TORUS),
                                         "--size", "512x512", "-o", "{w}/out.png"]),
    "RSX endless vertex loop, animated": ("rsx", "run", {"loop.vp": ENDLESS_VP.encode()},
                                          ["run", "-m", "rsx", "--vp", "{w}/loop.vp", "--fp", str(GOURAUD_FP),
                                           "--mesh", str(CUBE), "--frames", "2", "-o", "{w}/out.gif"]),
    "NumPy warnings from RCP 0, LG2 -1": ("rsx-fp", "run", {"zero.fp": DIVIDING_BY_ZERO_FP.encode()},
                                         ["run", "-m", "rsx-fp", "{w}/zero.fp", "--fullscreen", "4x4", "-o", "{w}/out.npy"]),
    "GIF of 100000 frames": ("tpp", "run", {}, ["run", "-m", "tpp", str(PLASMA), "--frames", "100000", "-o", "{w}/out.gif"]),
    "-o ''": ("tpp", "asm", {}, ["asm", "-m", "tpp", str(PLASMA), "-o", ""]),
    "unknown option": ("tpp", "asm", {}, ["asm", "-m", "tpp", str(PLASMA), "--bogus"]),
    "bad choice": ("theia", "asm", {}, ["asm", "-m", "theia", str(PLASMA), "-f", "elf"]),
    "line break in a value": ("theia", "run", {}, ["run", "-m", "theia", "--obj", str(CUBE), "--resolution", "4\nx4",
                                                   "-o", "{w}/out.png"]),
    "empty file (TPP)": ("tpp", "disasm", {"empty.bin": b""}, ["disasm", "-m", "tpp", "{w}/empty.bin"]),
    "empty file (THEIA)": ("theia", "disasm", {"empty.bin": b""}, ["disasm", "-m", "theia", "{w}/empty.bin"]),
    "empty file (RSX)": ("rsx-fp", "disasm", {"empty.bin": b""}, ["disasm", "-m", "rsx-fp", "{w}/empty.bin"]),
    "directory as output": ("tpp", "asm", {}, ["asm", "-m", "tpp", str(PLASMA), "-o", "{w}"]),
    "--registers with -o": ("theia", "run", {}, ["run", "-m", "theia", "--program",
                                                 str(EXAMPLES / "theia" / "unit" / "vector_math.s"), "--registers",
                                                 "-o", "{w}/out.npy"]),
    "largest --fullscreen (RSX)": ("rsx-fp", "run", {}, ["run", "-m", "rsx-fp", str(GOURAUD_FP), "--fullscreen",
                                                         "4096x4096", "-o", "{w}/out.npy"]),
    "largest --resolution (THEIA)": ("theia", "run", {}, ["run", "-m", "theia", "--obj", str(CUBE), "--resolution",
                                                          "4096x4096", "-o", "{w}/out.png"]),
    "RSX texture of 8192x8192": ("rsx-fp", "run", {"prog.fp": (GOLDEN / "rsx" / "asm" / "fp_tex2d.fp.txt").read_bytes(),
                                                   "big.png": lambda: _plain_png(8192)},
                                 ["run", "-m", "rsx-fp", "{w}/prog.fp", "--texture", "0={w}/big.png", "--fullscreen",
                                  "8x8", "-o", "{w}/out.npy"]),
    "--cores with an unwritable output": ("theia", "run", {}, ["run", "-m", "theia", "--obj", str(CUBE), "--resolution",
                                                               "8x8", "--cores", "2", "-o", "{w}/missing/out.png"]),
    "--stats with an unwritable output": ("theia", "run", {}, ["run", "-m", "theia", "--obj", str(CUBE), "--resolution",
                                                               "8x8", "--stats", "-o", "{w}/missing/out.png"]),
    "--const past float32": ("rsx-vp", "run", {}, ["run", "-m", "rsx-vp", str(EXAMPLES / "rsx" / "gouraud.vp"),
                                                   "--mesh", str(CUBE), "--const", "c[10]=1e39", "-o", "{w}/out.npy"]),
    "--input past float32": ("rsx-fp", "run", {}, ["run", "-m", "rsx-fp", str(GOURAUD_FP), "--fullscreen", "4x4",
                                                   "--input", "COL0=1e39,0,0,1", "-o", "{w}/out.npy"]),
    "--camera 1e308 (RSX)": ("rsx", "run", {}, ["run", "-m", "rsx", "--fp", str(GOURAUD_FP), "--mesh", str(CUBE),
                                                "--size", "8x8", "--camera", "1e308,0,1e308", "-o", "{w}/out.png"]),
    "OBJ vertex past float32 (RSX)": ("rsx", "run", {"big.obj": b"v 1e39 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n"},
                                      ["run", "-m", "rsx", "--fp", str(GOURAUD_FP), "--mesh", "{w}/big.obj",
                                       "--size", "8x8", "-o", "{w}/out.png"]),
    "--camera 0,1e30,0 (RSX)": ("rsx", "run", {}, ["run", "-m", "rsx", "--fp", str(GOURAUD_FP), "--mesh", str(CUBE),
                                                   "--size", "8x8", "--camera", "0,1e30,0", "-o", "{w}/out.png"]),
    "read-only output": ("tpp", "asm", {"out.hex": KNOWN_CONTENT}, ["asm", "-m", "tpp", str(PLASMA), "-o", "{w}/out.hex"]),
}
# Cases that must end in a clean error, not a result.
MUST_FAIL = {"constant index past Python's digit limit", "TPP immediate past Python's digit limit",
             "flash -m theia", "flash -m rsx", ".include with a NUL byte", ".include of a FIFO",
             "a FIFO as the program", "squaring chain (TPP)", "squaring chain (THEIA)", "RSX hex backtracking",
             "RSX hex backtracking, longer", "TPP hex, many digits", "GIF of 100000 frames", "-o ''",
             "unknown option", "bad choice", "--cores with an unwritable output",
             "--stats with an unwritable output", "RSX endless vertex loop, animated", "empty file (TPP)",
             "empty file (THEIA)", "empty file (RSX)",
             "directory as output", "read-only output",
             "unicode digit in --fullscreen",
             "unicode digit in a texture unit", "unicode digit in --resolution", "line break in a value",
             "--const past float32", "--input past float32", "OBJ vertex past float32 (RSX)",
             "RSX texture of 8192x8192"}
# Cases failing at the time of writing (none now): name -> their KNOWN_FAILURES entry. strict: a fixed case fails
# loudly here until its mark is removed.
FAILING: dict[str, str] = {}


def _parameters():
    for name in CASES:
        known = KNOWN_FAILURES.get(FAILING.get(name, ""))
        marks = [pytest.mark.xfail(strict=True, reason=f"issue 10: {known}")] if known else []
        yield pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", list(_parameters()))
def test_issue_case(name):
    processor, command, files, arguments = CASES[name]
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        os.mkfifo(workspace / "fifo")
        for file_name, data in files.items():
            (workspace / file_name).write_bytes(data() if callable(data) else data)
        if name == "read-only output":
            (workspace / "out.hex").chmod(0o444)
        arguments = [argument.replace("{w}", folder) for argument in arguments]
        guarded = [workspace / entry for entry in ("out.npy", "out.png", "out.gif", "out.hex")]
        if name == "--registers with -o":  # a result must have written its -o file
            guarded = [workspace / "out.npy"]
        verdict = check(Case(processor, command, "issue 10", arguments, guarded, workspace), tolerate_known=False)
        if name in MUST_FAIL:
            assert verdict.outcome == "clean error", (verdict.outcome, verdict.stdout[:300])
