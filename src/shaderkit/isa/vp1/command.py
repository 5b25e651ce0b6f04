"""``shaderkit run -m vp1``: run a program on the emulator and show what it did.

``run_command`` loads the program (source or words, through the CLI's ``load``), starts the
machine from a zeroed state or from ``--memory`` (an 8,192-byte data store image in the layout
of :mod:`.datastore`) and ``--state`` (JSON: register file → list of values, the golden
``before`` shape or any part of it, optionally wrapped as ``{"before": …}``), runs it to
``exit`` within ``--max-bundles`` and reports:

* ``--trace``: each bundle as it runs — address, words with their envydis text, then the
  registers and data-store bytes it changed;
* ``--dump``: every register and data-store byte that differs from the start;
* ``-o FILE``: the data store after the run, as 8,192 raw bytes (``.bin``) or, for ``.png``, as
  the picture ``--image-out`` writes.

``--image-in FILE`` loads a picture into the data store before the run (after ``--memory``,
replacing it) and ``--image-out FILE`` writes the data store after the run as a picture, both
in the layout of :mod:`.pictures` (a 64×128 greyscale picture at stride 0).

Without ``--trace`` the run goes on in the compiled loop once it proves long
(:func:`.compiled.run_long`: after 15,000 bundles when the program's kernel is in the disk
cache, after 150,000 when it must be compiled), with the same results as the interpreter's.

The one-line summary it returns says how the program ended. A word with no model (DMA, FIFO,
undocumented opcodes), a program that runs off its words, a return-stack error and an
exhausted bundle budget are :class:`~shaderkit.core.diagnostics.InputError`\\ s: one line, exit
code 2. ``$tick`` is left out of the changes (it changes every bundle).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ...core.diagnostics import InputError
from ...core.fileio import read_file_bytes, write_bytes_atomic
from .datastore import SIZE
from .state import TICK, Vp1State

# Files shown in changes, with how an entry is named; exchange-format files first.
NAMED_FILES = (("uc", "$uc"), ("r", "$r"), ("v", "$v"), ("vx", "$vx"), ("va", "$va"), ("vc", "$vc"),
               ("a", "$a"), ("c", "$c"), ("l", "$l"), ("m", "$m"), ("x", "$x"), ("d", "$d"), ("sr", "$sr"),
               ("mi", "$mi"))
WIDTHS = {"uc": 8, "r": 8, "vx": 32, "v": 32, "va": 7, "vc": 8, "a": 8, "c": 4, "l": 4, "m": 8, "x": 8, "d": 5,
          "sr": 8, "mi": 8}
UC_NAMES = {16: "$uccfg"}
SR_NAMES = {30: "$tick", 31: "$csreq"}


def run_command(processor, program: str | None, output: str | None, options: dict, *,
                load: Callable[[str], list[int]], echo: Callable[[str], None],
                warn: Callable[[str], None]) -> str:
    """Run as the options say; return the one line the CLI prints when the program exits."""
    if program is None:
        raise InputError("give the program to run")
    image_out = options.get("image_out")
    if output is not None and not output.lower().endswith((".bin", ".png")):
        raise InputError(f"{output}: -o writes the data store after the run as raw bytes; give a .bin file "
                         "(or a .png for the data store as a picture)")
    for path in (image_out, output):
        if path is not None and path.lower().endswith(".png"):
            from ...render import check_picture_suffix
            check_picture_suffix(path, False)
    if image_out is not None and not image_out.lower().endswith(".png"):
        raise InputError(f"{image_out}: --image-out writes a .png picture")
    words = load(program)
    machine = processor.machine(words, chip=options.get("chip") or getattr(processor, "chip", "g80"))
    if options.get("memory"):
        machine.data_store = read_memory(options["memory"])
    if options.get("image_in"):
        from .pictures import load_picture
        machine.data_store = load_picture(options["image_in"])
    if options.get("state"):
        apply_state(machine.state, options["state"])
    start, start_store = machine.state.copy(), machine.data_store
    def show_bundle(address, bundle, before, before_store):
        echo(trace_text(processor, address, bundle, before, machine.state, before_store, machine.data_store))

    max_bundles = options.get("max_bundles") or 1_000_000
    if options.get("trace"):
        result = machine.run(max_bundles=max_bundles, trace=show_bundle)
    else:  # the interpreter, going on in the compiled loop once the run proves long (same results)
        from .compiled import run_long
        result = run_long(machine, max_bundles)
    if options.get("dump"):
        echo(dump_text(start, machine.state, start_store, machine.data_store))
    pictures = [path for path in (image_out, output) if path is not None and path.lower().endswith(".png")]
    if output is not None and output not in pictures:
        write_bytes_atomic(output, machine.data_store)
    for path in pictures:
        from .pictures import HEIGHT, WIDTH, save_picture
        save_picture(path, machine.data_store)
    interrupt = " with intr" if result.interrupt else ""
    bundles = f"{result.bundles:,} bundle{'s' if result.bundles != 1 else ''}"
    ended = f"exit {result.exit_code:#x}{interrupt} after {bundles}"
    if pictures:
        # the CLI's usual "wrote FILE (…)" line, one per picture
        return "\n".join(f"wrote {path} ({WIDTH}×{HEIGHT} data store, {program}: {ended})" for path in pictures)
    written = f"; data store written to {output}" if output is not None else ""
    return f"{program}: {ended}{written}"


def read_memory(path: str) -> bytes:
    data = read_file_bytes(path)
    if len(data) != SIZE:
        raise InputError(f"{path}: a VP1 data store image is {SIZE:,} bytes, not {len(data):,}")
    return data


def apply_state(state: Vp1State, path: str) -> None:
    try:
        settings = json.loads(read_file_bytes(path).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{path}: not a JSON state ({error})") from None
    if isinstance(settings, dict) and isinstance(settings.get("before"), dict):
        settings = settings["before"]
    if not isinstance(settings, dict):
        raise InputError(f"{path}: a state is a JSON object of register files (r, v, a, …)")
    try:
        state.update(settings)
    except ValueError as error:
        raise InputError(f"{path}: {error}") from None


# --- showing changes -------------------------------------------------------------------------

def register_name(file: str, index: int) -> str:
    if file == "uc" and index in UC_NAMES:
        return UC_NAMES[index]
    if file == "sr" and index in SR_NAMES:
        return SR_NAMES[index]
    if file == "vx":
        return "$vx"
    if file == "va":
        return f"$va[{index}]"
    return f"{dict(NAMED_FILES)[file]}{index}"


def entries(state: Vp1State, file: str) -> list[int]:
    if file == "v":
        return [int.from_bytes(bytes(value), "big") for value in state.v]
    if file == "vx":
        return [int.from_bytes(bytes(state.vx), "big")]
    return getattr(state, file)


def register_changes(before: Vp1State, after: Vp1State) -> list[tuple[str, str, str]]:
    """(name, old, new) of every register that differs, in file order; ``$tick`` left out."""
    changes = []
    for file, _prefix in NAMED_FILES:
        if file == "x" and not after.g80 or file == "d" and not after.g80:
            continue
        digits = WIDTHS[file]
        for index, (old, new) in enumerate(zip(entries(before, file), entries(after, file))):
            if old != new and not (file == "sr" and index == TICK):
                changes.append((register_name(file, index), f"{old:0{digits}x}", f"{new:0{digits}x}"))
    return changes


def store_changes(before: bytes, after: bytes) -> list[str]:
    """One line per changed row k (cell byte k of the 16 banks, file offsets 16k…16k+15), which
    holds program addresses 16k…16k+15 under every stride (only their order among the banks
    depends on it): the row's address, then its new bytes in bank order, ``..`` where a byte
    did not change."""
    lines = []
    for row in range(SIZE // 16):
        old, new = before[16 * row:16 * row + 16], after[16 * row:16 * row + 16]
        if old != new:
            shown = " ".join(f"{b:02x}" if a != b else ".." for a, b in zip(old, new))
            lines.append(f"  {16 * row:#06x}  {shown}")
    return lines


def change_lines(before: Vp1State, after: Vp1State, before_store: bytes, after_store: bytes,
                 indent: str = "  ") -> list[str]:
    lines = [f"{indent}{name} = {new} (was {old})" for name, old, new in register_changes(before, after)]
    lines.extend(indent + line.lstrip() for line in store_changes(before_store, after_store))
    return lines


def dump_text(before: Vp1State, after: Vp1State, before_store: bytes, after_store: bytes) -> str:
    registers = register_changes(before, after)
    rows = store_changes(before_store, after_store)
    if not registers and not rows:
        return "no register or data-store changes"
    lines = []
    if registers:
        width = max(len(name) for name, _old, _new in registers)
        lines.append("registers changed:")
        lines.extend(f"  {name:<{width}}  {new}  (was {old})" for name, old, new in registers)
    if rows:
        lines.append("data store changed (rows of 16 addresses, bytes in bank order 0-15; '..' = unchanged):")
        lines.extend(rows)
    return "\n".join(lines)


def word_text(processor, word: int, address: int) -> str:
    """envydis's text of ``word`` at ``address`` when the ISA object can give it, else ''."""
    try:
        if hasattr(processor, "decode_envydis") and hasattr(processor, "envydis_text"):
            return processor.envydis_text(processor.decode_envydis([word], address))
        return processor.format(processor.decode([word], address))
    except Exception:  # the text is a courtesy; a description problem must not stop a run
        return ""


def trace_text(processor, address: int, bundle: list[int], before: Vp1State, after: Vp1State,
               before_store: bytes, after_store: bytes) -> str:
    lines = []
    for offset, word in enumerate(bundle):
        head = f"{address + offset:#06x}" if offset == 0 else " " * 6
        text = word_text(processor, word, address + offset)
        lines.append(f"{head}  {word:08x}  {text}".rstrip())
    lines.extend(change_lines(before, after, before_store, after_store, indent=" " * 8 + "-> "))
    return "\n".join(lines)
