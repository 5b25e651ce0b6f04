"""The command-line options only RSX takes (see :mod:`shaderkit.isa.command_options`): those of
the pipeline (``-m rsx``), of a vertex program alone (``rsx-vp``) and of a fragment program
alone (``rsx-fp``)."""

from __future__ import annotations

import click

from ..command_options import option

STYLE = option("--style", type=click.Choice(["rpcs3"]), default=None,
               help="A read-only listing in the RPCS3 style instead of assembly text.")
TEXTURES = [
    option("--texture", multiple=True, help="UNIT=file.png, repeatable."),
    option("--filter", "filter", type=click.Choice(["linear", "nearest"]), default="linear", show_default=True,
           help="Texture filtering."),
    option("--wrap", type=click.Choice(["repeat", "clamp", "mirror"]), default="repeat", show_default=True,
           help="Texture wrap mode (of 2D textures: a RECT unit's rectangle texture clamps to its edge)."),
    option("--budget", type=click.IntRange(1, None), default=None,
           help="Lane-instructions a picture may take (default 2,000,000,000, plus 5 s of running time)."),
]
# Selects the variant: decompile hands the ISA object nothing else (make_isa receives it).
TEXTURE_TARGET = option("--texture-target", "texture_target", multiple=True, selects_variant=True,
                        help="UNIT=RECT (or UNIT=2D), repeatable: how a fragment program samples a texture unit "
                             "where the program records no sampler for it (bare microcode never does); RECT reads "
                             "a rectangle texture at texel coordinates. Contradicting a container's record is an "
                             "error.")
MESH = option("--mesh", default=None, help="Wavefront OBJ mesh to draw (rsx) or whose vertices to run (rsx-vp).")
CONSTANTS = option("--const", "const", multiple=True,
                   help="c[N]=x,y,z,w or NAME=x,y,z,w (16 numbers for a matrix), repeatable.")
PIPELINE = [
    option("--vp", default=None, help="Vertex program (.vpo, assembly text, or raw/hex ucode)."),
    option("--fp", default=None, help="Fragment program (.fpo, assembly text, or raw/hex ucode)."),
    MESH, CONSTANTS,
    option("--size", default=None, help="Picture size WxH (default 256x256)."),
    option("--camera", default=None, help="Camera position x,y,z (default: the model framed from +z)."),
]
FRAGMENT = [
    option("--fullscreen", default=None, help="Run over a full-screen quad of WxH pixels (default 64x64)."),
    option("--input", "input", multiple=True, help="NAME=x,y,z,w overrides a fragment input, repeatable."),
]

USAGE = {
    "rsx": {"run": ["shaderkit run -m rsx [--vp a.vpo] --fp b.fpo --mesh m.obj [--texture 0=t.png] -o out.png"]},
    "fragment": {"run": ["shaderkit run -m rsx-fp prog.bin --fullscreen 64x64 [--input TEX0=x,y,z,w] -o out.npy"]},
    "vertex": {"run": ["shaderkit run -m rsx-vp prog.bin --mesh m.obj -o outputs.npy"]},
}


def command_options(kind: str | None = None, **variant) -> dict[str, list]:
    run = {None: PIPELINE, "vertex": [MESH, CONSTANTS], "fragment": FRAGMENT}[kind]
    targets = [] if kind == "vertex" else [TEXTURE_TARGET]  # fragment texture units
    return {"disasm": [STYLE, *targets], "decompile": targets, "run": [*run, *TEXTURES, *targets]}


def usage(kind: str | None = None) -> dict[str, list[str]]:
    return USAGE[kind or "rsx"]
