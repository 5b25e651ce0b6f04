"""The command-line options only VP1 takes (see :mod:`shaderkit.isa.command_options`).

``--plain`` selects the golden-table reading of text: ``disasm --plain`` prints
``WORD<TAB>TEXT<TAB>FLAGS`` per word and ``asm --plain`` reads one instruction per line, each as
if at word address 0. The ``run`` options are consumed by :mod:`.command` (the emulator's side).
"""

from __future__ import annotations

import click

from ..command_options import option

PLAIN_ASM = option("--plain", is_flag=True, selects_variant=True,
                   help="One instruction per line, each as if at word address 0; prints one word per line.")
PLAIN_DISASM = option("--plain", is_flag=True, selects_variant=True,
                      help="WORD<TAB>TEXT<TAB>FLAGS per word, each as if at word address 0 (envydis's text; "
                           "FLAGS: ok, or bits:XXXXXXXX, operand, insn).")
CHIP = option("--chip", type=click.Choice(["nv41", "nv44", "g80"]), default="g80", show_default=True,
              selects_variant=True, help="Chip variant (pre-G80 chips lack $x, $d and $c bits 6-7).")

RUN = [
    CHIP,
    option("--memory", "memory", default=None, help="Data store image to start from (8,192 bytes)."),
    option("--state", "state", default=None,
           help="Register state to start from: JSON in the states.jsonl 'before' shape (file -> hex strings)."),
    option("--max-bundles", type=click.IntRange(1, None), default=1_000_000, show_default=True,
           help="Bundles the program may run before it is stopped."),
    option("--trace", is_flag=True, help="Print each bundle with the registers it changed."),
    option("--dump", is_flag=True, help="Print the registers and data store bytes the program changed."),
    option("--image-in", "image_in", default=None, help="Picture to load into the data store before the run."),
    option("--image-out", "image_out", default=None, help="Write the data store as a picture after the run."),
]

_USAGE = {"run": ["shaderkit run -m vp1 prog.s [--memory ds.bin] [--state s.json] [--max-bundles N] "
                  "[--trace] --dump"]}


def command_options(**variant) -> dict[str, list]:
    return {"asm": [PLAIN_ASM], "disasm": [PLAIN_DISASM], "run": RUN}


def usage(**variant) -> dict[str, list[str]]:
    return _USAGE
