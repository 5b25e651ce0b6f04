"""The command-line options only TPP takes (see :mod:`shaderkit.isa.command_options`)."""

from __future__ import annotations

import click

from ..command_options import option

REVISION = option("--rev", default="B", show_default=True, type=click.Choice(["A", "B"], case_sensitive=False),
                  help="Hardware revision.", selects_variant=True)

SLOTS = option("--slots", default="upstream", show_default=True, type=click.Choice(["upstream", "written"]),
               help="How the lines of a source without a '.slots' line take slots: upstream = as the upstream "
                    "flasher reads them (OUT lines left out, a '//' line is a NOP), written = OUT lines kept "
                    "where written, comment lines take none.", selects_variant=True)

RUN = [
    option("--model", type=click.Choice(["auto", "simple", "exact"]), default="auto", show_default=True,
           help="Emulator: auto picks simple only where it is proven exact."),
    option("--start", type=click.Choice(["auto", "reset", "upload"]), default="auto", show_default=True,
           help="Where the program starts: reset = in memory at reset; upload = sent over UART while the "
                "reset program runs, as on a chip; auto = upload where the program reads a register or the "
                "flag before setting it."),
    option("--rt", type=click.IntRange(0, 63), default=None,
           help="Render the program's first frame whose RT is this (after an upload: from frame 5)."),
    option("--frame", type=click.IntRange(0, None), default=None, help="Render this frame after reset."),
    option("--divisor", type=click.IntRange(0, 63), default=5, show_default=True,
           help="Time divisor N (animation frames are taken in real chip time)."),
    option("--scale", type=click.IntRange(1, 40), default=10, show_default=True,
           help="Pixels per dekapixel (10 = 640x480, 1 = the 64x48 logical picture)."),
]
FLASH = [
    option("--port", default=None, help="Serial port (default: the first USB serial port)."),
    option("--time-divisor", type=click.IntRange(0, 63), default=None, help="Also send the time divisor command."),
    option("--dry-run", is_flag=True, help="Print the bytes instead of sending them."),
]

_USAGE = {"run": ["shaderkit run -m tpp prog.s [--rt K | --frame K | --frames N] -o out.png"]}


def command_options(**variant) -> dict[str, list]:
    return {"asm": [REVISION, SLOTS], "disasm": [REVISION], "run": [REVISION, SLOTS, *RUN],
            "flash": [REVISION, SLOTS, *FLASH],
            "bench": [REVISION]}


def usage(**variant) -> dict[str, list[str]]:
    return _USAGE
