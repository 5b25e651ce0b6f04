"""The ``shaderkit`` command: asm, disasm, decompile, run, flash and bench.

Every user error ends as one message on stderr and exit code 2 (source errors as
``file:line:col: error: …`` with the line and a caret); outputs are written
atomically, so a failed command leaves no partial file.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from . import isa as isas
from .cli_machinery import (ProcessorCommand, ShaderkitGroup, declared_options, force_option, machine_option,
                             own_options, variant_of)
from .core import binfmt
from .core.diagnostics import InputError
from .core.fileio import MAX_INPUT_BYTES, check_writable, read_file_bytes, write_bytes_atomic

SOURCE_SUFFIXES = (".s", ".asm", ".tpp", ".shdr")
# Containers every ISA has, plus those only some ISAs have (checked when used).
ALL_FORMATS = binfmt.FORMATS + isas.container_formats()


def program_input(command):
    """The optional PROGRAM argument and how it is stored (run, flash)."""
    command = click.option("-f", "--format", "input_format", default=None,
                           type=click.Choice(("source", *ALL_FORMATS)),
                           help="How PROGRAM is stored (default: source for .s/.asm, else detected).")(command)
    return click.argument("program", required=False)(command)


def read_input(path: str) -> bytes:
    if path != "-":
        return read_file_bytes(path)
    data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"standard input: more than the {MAX_INPUT_BYTES:,} bytes an input may have")
    return data


def print_warnings(warnings) -> None:
    for warning in warnings:
        click.echo(warning.render(), err=True)


def load_program(processor, path: str, input_format: str | None):
    """Assemble a source file, or read a binary image in any container format. Without ``-f``,
    a file is source when its name says so or when it is text that reads as no word format
    (an upstream ``prog.txt`` of assembly is source, a ``.txt`` hex dump is words)."""
    data = read_input(path)
    suffixes = getattr(processor, "source_suffixes", SOURCE_SUFFIXES)
    is_source = input_format == "source" or (input_format is None and (path.lower().endswith(suffixes)
                                                                      or _is_source_text(processor, data)))
    if is_source:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{path}: not UTF-8 text") from None
        assembled = processor.assemble(text, path)
        warnings = getattr(assembled, "warnings", None)
        print_warnings(assembled.program.warnings if warnings is None else warnings)
        return assembled.image
    return read_image(processor, data, path, input_format, None)


def _is_source_text(processor, data: bytes) -> bool:
    """Text that no word format reads (with the ISA's word size): assembly source."""
    if not binfmt.looks_like_text(data):
        return False
    for fmt in binfmt.TEXT_FORMATS:
        try:
            binfmt.read_words(data, fmt, word_bits=processor.word_bits)
            return False
        except InputError:
            pass
    return True


def _containers(processor) -> dict:
    return getattr(processor, "containers", {})


# How the generic containers meet an ISA's own (a processor's `containers`: name -> (write(image),
# read(data, path))). Every ISA has all of binfmt's formats; a container of its own with a binfmt
# name replaces binfmt's layout for that ISA (a hex listing of one slot per line). An image is the list
# of words, or an object with `.words` and, when the ISA stores different images in different byte
# orders, `.byte_order` (one program kind big-endian, another half-word swapped).
# Reading the other formats ends in the ISA's own raw or hex reader, so that the ISA builds its
# image one way whatever the file: raw and Intel HEX in the ISA's own byte order carry its raw
# bytes; words (hex, readmemh, C, or raw and Intel HEX in an explicit --byte-order) its hex words.


def _check_format(processor, fmt: str) -> None:
    available = binfmt.FORMATS + tuple(name for name in _containers(processor) if name not in binfmt.FORMATS)
    if fmt not in available:
        raise InputError(f"format '{fmt}' is not available for {processor.name} (use one of {', '.join(available)})")


def _own_layout(processor, fmt: str, byte_order: str | None) -> bool:
    """Whether the ISA's own container of that name reads and writes ``fmt`` (an explicit byte
    order asks for binfmt's layout of raw and Intel HEX)."""
    return fmt in _containers(processor) and not (byte_order and fmt in binfmt.BYTE_ORDER_FORMATS)


def read_image(processor, data: bytes, path: str, fmt: str | None, byte_order: str | None):
    """The program image of a binary in any container, the ISA's own containers included."""
    if not data.strip(b" \t\r\n"):
        raise InputError(f"{path}: empty file: no program image in it")
    detect = getattr(processor, "detect_format", None)
    detected = not fmt
    fmt = fmt or (detect(data, path) if detect else None) or binfmt.detect_format(data, path)
    if detected and fmt == "raw" and binfmt.looks_like_text(data):
        raise InputError(f"{path}: this is text, not a binary image; to disassemble a program, assemble it "
                         f"first (shaderkit asm -m {processor.name} {path} -f raw -o prog.bin), or give -f raw "
                         "to read the text's bytes as words")
    _check_format(processor, fmt)
    containers = _containers(processor)
    if _own_layout(processor, fmt, byte_order):
        return containers[fmt][1](data, path)
    words = binfmt.read_words(data, fmt, word_bits=processor.word_bits,
                              byte_order=byte_order or processor.byte_order, source=path)
    if fmt in binfmt.BYTE_ORDER_FORMATS and not byte_order and "raw" in containers:
        # The bytes are in the ISA's own order, whichever that is: words read in any one order and
        # written back in the same order are those bytes again.
        raw = binfmt.write_words(words, "raw", word_bits=processor.word_bits, byte_order=processor.byte_order)
        return containers["raw"][1](raw, path)
    if "hex" in containers:
        return containers["hex"][1](binfmt.write_words(words, "hex", word_bits=processor.word_bits), path)
    return words


def write_image(processor, image, fmt: str, byte_order: str | None, name: str) -> bytes:
    _check_format(processor, fmt)
    if _own_layout(processor, fmt, byte_order):
        return _containers(processor)[fmt][0](image)
    words = getattr(image, "words", image)
    byte_order = byte_order or getattr(image, "byte_order", None) or processor.byte_order
    return binfmt.write_words(words, fmt, word_bits=processor.word_bits, byte_order=byte_order, name=name)


def c_array_name(path: str) -> str:
    """A C identifier from a file name: the part before its first dot (``vp_dots`` for
    ``vp_dots.vp.txt``), other characters as ``_``, ``program`` when nothing is left."""
    stem = re.sub(r"\W+", "_", Path(path).name.split(".", 1)[0], flags=re.ASCII).strip("_")
    if not stem:
        return "program"
    return "program_" + stem if stem[0].isdigit() else stem


def write_output(output: str | None, data: bytes) -> None:
    if output is None or output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        try:
            write_bytes_atomic(output, data)
        except OSError as error:
            raise InputError(f"{output}: cannot write ({error.strerror or error})") from None


@click.group(cls=ShaderkitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="shaderkit")
def main() -> None:
    """Assemblers, disassemblers and emulators for graphics and video processors."""


@main.command(cls=ProcessorCommand)
@machine_option("asm")
@click.argument("source")
@click.option("-f", "--format", "fmt", default="hex", show_default=True, type=click.Choice(ALL_FORMATS),
              help="Output container.")
@click.option("--byte-order", type=click.Choice(["big", "little"]), default=None,
              help="For raw and ihex output (default: the processor's own).")
@click.option("-o", "--output", default=None, help="Output file (default: standard output).")
@declared_options("asm")
@force_option
def asm(machine: str, source: str, fmt: str, byte_order: str | None, output: str | None, **declared) -> None:
    """Assemble SOURCE into a program image."""
    processor = isas.get(machine, **variant_of(machine, "asm", declared))
    image = load_program(processor, source, "source")
    write_output(output, write_image(processor, image, fmt, byte_order, c_array_name(source)))


@main.command(cls=ProcessorCommand)
@machine_option("disasm")
@click.argument("binary")
@click.option("-f", "--format", "fmt", default=None, type=click.Choice(ALL_FORMATS),
              help="Input container (default: from the file name and contents).")
@click.option("--byte-order", type=click.Choice(["big", "little"]), default=None,
              help="For raw and ihex input (default: the processor's own).")
@click.option("--addresses/--no-addresses", default=True, show_default=True,
              help="Show address and words in a comment after each instruction.")
@click.option("-o", "--output", default=None, help="Output file (default: standard output).")
@declared_options("disasm")
@force_option
def disasm(machine: str, binary: str, fmt: str | None, byte_order: str | None, addresses: bool,
           output: str | None, **declared) -> None:
    """Disassemble BINARY into source that re-assembles to the same words."""
    processor = isas.get(machine, **variant_of(machine, "disasm", declared))
    words = read_image(processor, read_input(binary), binary, fmt, byte_order)
    listing_options = {name: value for name, value in own_options(machine, "disasm", declared).items()
                       if value is not None}
    text = processor.disassemble(words, addresses=addresses, **listing_options)
    for line in processor.disassembly_warnings(words):
        click.echo(f"{binary}: warning: {line}", err=True)
    write_output(output, text.encode("utf-8"))


@main.command(cls=ProcessorCommand)
@machine_option("decompile")
@click.argument("binary")
@click.option("-f", "--format", "fmt", default=None, type=click.Choice(("source", *ALL_FORMATS)),
              help="How BINARY is stored (default: source for assembly text, else detected).")
@click.option("-o", "--output", default=None, help="Output .frag/.vert/.glsl file (default: standard output).")
@declared_options("decompile")
@force_option
def decompile(machine: str, binary: str, fmt: str | None, output: str | None, **declared) -> None:
    """Decompile a shader program BINARY to GLSL 4.30 core."""
    processor = isas.get(machine, **variant_of(machine, "decompile", declared))
    image = load_program(processor, binary, fmt)
    write_output(output, processor.decompile(image).encode("utf-8"))


@main.command(cls=ProcessorCommand)
@machine_option("run")
@program_input
@click.option("--frames", type=click.IntRange(1, None), default=None, help="Render an animation of this many frames.")
# GIF keeps a frame's delay in 16 bits of hundredths of a second (at most 655 s): 0.01 fps is
# 100 s a frame, well inside it, and slower than any animation anyone plays.
@click.option("--fps", type=click.FloatRange(0.01, 60), default=20.0, show_default=True,
              help="Playback rate of the animation.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar for animations and long renders (default: only when stderr is a terminal).")
@click.option("-o", "--output", default=None, help="Output .png, or .gif/.mp4 with --frames.")
@declared_options("run")
@force_option
def run(machine: str, program: str | None, input_format: str | None, output: str | None, **options) -> None:
    """Run a program and render a frame or an animation.

    Add -m PROCESSOR to --help to see only that processor's options.
    """
    if options["progress"] is None:
        options["progress"] = sys.stderr.isatty()
    processor = isas.get(machine, **variant_of(machine, "run", options))
    if output:
        check_writable(output)  # before the render, which may take minutes
    summary = processor.run_command(program, output, options,
                                    load=lambda path: load_program(processor, path, input_format),
                                    echo=click.echo, warn=lambda text: click.echo(text, err=True))
    if summary:
        click.echo(summary, err=True)


@main.command(cls=ProcessorCommand)
@machine_option("flash")
@program_input
@click.option("-o", "--output", default=None, help="Write the raw bytes to this file instead of sending them.")
@declared_options("flash")
@force_option
def flash(machine: str, program: str | None, input_format: str | None, output: str | None, port: str | None,
          time_divisor: int | None, dry_run: bool, **declared) -> None:
    """Upload PROGRAM over UART (9600 8N1)."""
    processor = isas.get(machine, **variant_of(machine, "flash", declared))
    if program is None and time_divisor is None:
        raise InputError("nothing to send: give a program and/or --time-divisor")
    image = load_program(processor, program, input_format) if program is not None else None
    data = processor.upload_bytes(image, time_divisor)
    if dry_run:
        click.echo(processor.format_bytes(data))
    if output:
        write_output(output, data)
    if not dry_run and not output:
        click.echo(processor.send(data, port), err=True)


@main.command(cls=ProcessorCommand)
@machine_option("bench")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--seconds", type=click.FloatRange(0.1, 60), default=2.0, show_default=True,
              help="Time spent on each measurement.")
@declared_options("bench")
def bench(machine: str, as_json: bool, seconds: float, **declared) -> None:
    """Measure emulator speed against a naive baseline in the same run."""
    processor = isas.get(machine, **variant_of(machine, "bench", declared))
    results = processor.benchmark(seconds=seconds)
    if as_json:
        click.echo(json.dumps(results.figures, sort_keys=True))
    else:
        click.echo(results.report())


@main.command(cls=ProcessorCommand)
@machine_option("doc")
@click.argument("mnemonic", required=False)
def doc(machine: str, mnemonic: str | None) -> None:
    """Print a processor's reference manual (as in docs/), or the entry of one MNEMONIC."""
    reference = isas.get(machine).documentation()
    entries = reference.find(mnemonic) if mnemonic else None
    text = reference.render() if entries is None else "\n".join(entry.render() for entry in entries)
    click.echo(text, nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
