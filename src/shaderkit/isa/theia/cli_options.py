"""The command-line options only THEIA takes (see :mod:`shaderkit.isa.command_options`)."""

from __future__ import annotations

import click

from ..command_options import option

RUN = [
    option("--scene", default=None, help="Scene folder (Params.mem, Vertex.mem, Textures.mem, Creg.mem)."),
    option("--obj", default=None, help="Build the scene from this Wavefront OBJ mesh."),
    option("--texture", multiple=True, help="Texture image for --obj."),
    option("--camera", default=None, help="Camera position x,y,z (default: the model framed from +z)."),
    option("--window", default=None, help="Projection window xmin,ymin,xmax,ymax for --obj."),
    option("--resolution", default=None, help="Image size WxH for --obj (default 128x128)."),
    option("--shader", default=None, help="User program (.s) whose routines replace the defaults."),
    option("--program", "program_file", default=None, help="Program for a bare run (with --registers)."),
    option("--registers", is_flag=True, help="Run --program on one lane, print the registers it wrote."),
    option("--cores", type=click.IntRange(1, 4096), default=None,
           help="Split the rows over this many cores (default: the scene's split)."),
    option("--stats", is_flag=True, help="Print per-core statistics."),
    option("--complete-isa", is_flag=True, selects_variant=True,
           help="Execute INTP/XCHANGEY/XCHANGEZ/RESCALE as the manual documents."),
    option("--budget", type=click.IntRange(1, None), default=None, help="Instruction groups a routine may run."),
]

_USAGE = {"run": ["shaderkit run -m theia --scene DIR [--shader user.s] [--cores N] -o out.png",
                 "shaderkit run -m theia --obj model.obj [--texture t.png] -o out.png",
                 "shaderkit run -m theia --program prog.s --registers"]}


def command_options(**variant) -> dict[str, list]:
    return {"run": RUN}


def usage(**variant) -> dict[str, list[str]]:
    return _USAGE
