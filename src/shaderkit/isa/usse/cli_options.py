"""The command-line options only USSE takes (see :mod:`shaderkit.isa.command_options`); the
``run`` options are consumed by :mod:`.command`."""

from __future__ import annotations

import click

from ..command_options import option

CORE = option("--core", type=click.Choice(["sgx543", "sgx540"]), default="sgx543", show_default=True,
              selects_variant=True,
              help="sgx543: the VEC34 family (SGX543/544); sgx540: the older family's opcode map (names only).")

RUN = [
    option("--inputs", "inputs", default=None,
           help="JSON: attributes and uniforms by parameter name or register (pa4, sa32), per vertex or for all."),
    option("--vertices", type=click.IntRange(1, 1_000_000), default=None,
           help="Vertices to run (default: as many as the inputs give, else 1)."),
    option("--outputs", "outputs", default=None, help="Output registers to print, e.g. o4-o15 (default: those written)."),
    option("--resolution", default=None, help="Picture size WxH for -o out.png (default 960x544)."),
    option("--colour", "colour", default=None, help="First of the four output registers drawn as RGBA (default o4)."),
    option("--max-instructions", type=click.IntRange(1, None), default=100_000, show_default=True,
           help="Instructions each program may run before it is stopped."),
]

_USAGE = {"run": ["shaderkit run -m usse prog.gxp --inputs in.json [--vertices N] [--outputs o4-o15] [-o out.json]",
                  "shaderkit run -m usse prog.gxp --inputs in.json -o strip.png [--colour o4] [--resolution 960x544]"]}


def command_options(**variant) -> dict[str, list]:
    return {"asm": [CORE], "disasm": [CORE], "run": RUN}


def usage(**variant) -> dict[str, list[str]]:
    return _USAGE
