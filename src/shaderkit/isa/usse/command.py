"""``shaderkit run -m usse``: run a vertex program on inputs given as JSON and print or write
its outputs.

``--inputs in.json`` is an object whose keys are parameter names of the program's GXP container
(``pos``, ``sa0``; attributes go to their PA registers, uniforms to their SA registers) or
register names (``pa4``, ``sa32``: that register and the ones after it). A value is a number, a
list of numbers (one register each) or, for attributes and PA registers, a list with one such
list per vertex; numbers are IEEE single values, or raw bits as ``"0x3f800000"``. The container's
literals are loaded into their SA registers first. ``--vertices N`` runs N vertices (default:
the number of per-vertex lists, else 1).

The output is JSON: ``{"vertices": N, "outputs": {"o4": [per vertex: value], ...}}`` with each
value a float (``"bits"`` holds the raw words), for the registers ``--outputs`` names (``o4-o15``,
``o0,o2``) or else every ``o`` register that holds a non-zero value for some vertex; printed, or
written with ``-o out.json``.

``-o out.png`` draws what the hardware test suites draw: the vertices as a triangle strip (triangle
k is vertices k, k+1, k+2, every other one turned round so all keep the strip's winding), ``o0``–``o3``
the clip-space position, the four registers from ``--colour`` (default ``o4``) the RGBA colour
interpolated over each triangle, clamped to [0, 1] on a black ``--resolution`` picture (default
960x544, the PS Vita's screen). Alpha is not drawn; where triangles overlap the later one wins.

Every user error (a bad key, a value that does not fit, an instruction the emulator does not
model) is one line and exit code 2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import numpy as np

from ...core.diagnostics import InputError
from ...core.fileio import read_file_bytes, write_bytes_atomic
from ...core.options import parse_size
from ...render.images import save_image
from ...render.raster import rasterize

_REGISTER = re.compile(r"(pa|sa)(\d+)\Z")
DEFAULT_RESOLUTION = "960x544"
_OUTPUT = re.compile(r"o(\d+)\Z")


def run_command(processor, program: str | None, output: str | None, options: dict, *,
                load: Callable, echo: Callable[[str], None], warn: Callable[[str], None]) -> str:
    if program is None:
        raise InputError("give the program to run")
    picture = output is not None and output.lower().endswith(".png")
    if output is not None and not picture and not output.lower().endswith(".json"):
        raise InputError(f"{output}: -o writes the outputs as JSON (.json) or draws them (.png)")
    size = parse_size(options.get("resolution") or DEFAULT_RESOLUTION, "--resolution")
    colour = _colour_register(options.get("colour") or "o4")
    image = processor.image(load(program))
    inputs = read_inputs(options.get("inputs"))
    per_vertex = [len(value) for value in inputs.values() if _is_per_vertex(value)]
    vertices = options.get("vertices") or (max(per_vertex) if per_vertex else 1)
    machine = processor.machine(image, lanes=vertices, budget=options.get("max_instructions") or 100_000)
    container = image.container
    if container is not None:
        for literal in container.literals:
            if literal.register is not None:
                machine.set_bank("sa", literal.register, np.full((1, vertices), literal.value, dtype=np.uint32))
    for key, value in inputs.items():
        bank, start = _destination(key, container)
        machine.set_bank(bank, start, _registers(key, value, vertices, per_vertex_allowed=bank == "pa"))
    machine.run()
    if picture:
        save_image(output, draw_strip(machine.bank("o"), colour, *size))
        return f"wrote {output} ({size[0]}x{size[1]}, {vertices} vertices drawn as a triangle strip)"
    registers = _chosen_outputs(options.get("outputs"), machine)
    result = machine.bank("o")
    report = {"vertices": vertices, "outputs": {f"o{n}": [float(x) for x in result[n].view(np.float32)]
                                                for n in registers},
              "bits": {f"o{n}": [f"0x{x:08x}" for x in result[n]] for n in registers}}
    text = _layout(report)
    if output is None:
        echo(text)
        return ""
    write_bytes_atomic(output, (text + "\n").encode("utf-8"))
    return f"wrote {output} ({vertices} vertices, {len(registers)} output registers)"


def _layout(report: dict) -> str:
    """The report as JSON with one line per register (a list of vertices stays on its line)."""
    lines = ["{", f' "vertices": {report["vertices"]},']
    for key in ("outputs", "bits"):
        registers = [f'  "{name}": {json.dumps(values)}' for name, values in report[key].items()]
        lines.append(f' "{key}": {{' + ("\n" + ",\n".join(registers) + "\n " if registers else "") + "}"
                     + ("," if key == "outputs" else ""))
    lines.append("}")
    return "\n".join(lines)


def read_inputs(path: str | None) -> dict:
    if path is None:
        return {}
    try:
        inputs = json.loads(read_file_bytes(path).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{path}: not a JSON object of inputs ({error})") from None
    if not isinstance(inputs, dict):
        raise InputError(f"{path}: the inputs must be a JSON object (name or register -> values)")
    return inputs


def _is_per_vertex(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, list) for item in value)


def _destination(key: str, container) -> tuple[str, int]:
    found = _REGISTER.match(key)
    if found:
        return found.group(1), int(found.group(2))
    if container is not None:
        for parameter in container.parameters:
            if parameter.name == key and parameter.register_bank and parameter.register is not None:
                return parameter.register_bank, parameter.register
    names = [parameter.name for parameter in container.parameters] if container is not None else []
    known = f" (the program's parameters: {', '.join(names)})" if names else " (a bare program has no named parameters)"
    raise InputError(f"inputs: '{key}' is no parameter of the program and no register like pa4 or sa32{known}")


def _bits(key: str, number) -> int:
    if isinstance(number, str):
        try:
            value = int(number, 16)
        except ValueError:
            raise InputError(f"inputs: {key}: '{number}' is neither a number nor raw bits like \"0x3f800000\"") from None
        if not 0 <= value <= 0xFFFFFFFF:
            raise InputError(f"inputs: {key}: {number} does not fit in 32 bits")
        return value
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise InputError(f"inputs: {key}: {json.dumps(number)} is not a number")
    return int(np.array(number, dtype=np.float32).view(np.uint32))


def _registers(key: str, value, vertices: int, per_vertex_allowed: bool) -> np.ndarray:
    """(registers, vertices) uint32 for one input."""
    if _is_per_vertex(value):
        if not per_vertex_allowed:
            raise InputError(f"inputs: {key}: a uniform has one value for all vertices, not one per vertex")
        if len(value) != vertices:
            raise InputError(f"inputs: {key}: {len(value)} vertices given, {vertices} run")
        widths = {len(item) for item in value}
        if len(widths) != 1:
            raise InputError(f"inputs: {key}: every vertex needs as many values")
        return np.array([[_bits(key, item) for item in vertex] for vertex in value], dtype=np.uint32).T
    numbers = value if isinstance(value, list) else [value]
    if not numbers:
        raise InputError(f"inputs: {key}: no values")
    column = np.array([_bits(key, number) for number in numbers], dtype=np.uint32)
    return np.repeat(column[:, None], vertices, axis=1)


def _chosen_outputs(spec: str | None, machine) -> list[int]:
    outputs = machine.bank("o")
    if spec is None:
        return [n for n in range(outputs.shape[0]) if outputs[n].any()]
    chosen: list[int] = []
    for part in spec.split(","):
        ends = part.strip().split("-")
        numbers = []
        for end in ends:
            found = _OUTPUT.match(end.strip())
            if not found or len(ends) > 2:
                raise InputError(f"--outputs: '{part.strip()}' is not an output register or range like o4-o15")
            numbers.append(int(found.group(1)))
        if numbers[-1] < numbers[0] or numbers[-1] >= outputs.shape[0]:
            raise InputError(f"--outputs: '{part.strip()}': output registers are o0 to o{outputs.shape[0] - 1}")
        chosen.extend(range(numbers[0], numbers[-1] + 1))
    return list(dict.fromkeys(chosen))


def _colour_register(text: str) -> int:
    found = _OUTPUT.match(text.strip())
    if not found:
        raise InputError(f"--colour: '{text}' is not an output register like o4")
    return int(found.group(1))


def strip_triangles(vertices: int) -> np.ndarray:
    """(T, 3) vertex indices of a triangle strip, odd triangles turned round to keep the winding."""
    if vertices < 3:
        raise InputError(f"a triangle strip needs at least 3 vertices, not {vertices}: give more with --vertices "
                         "or per-vertex inputs")
    first = np.arange(vertices - 2)
    odd = first % 2 == 1
    return np.stack([np.where(odd, first + 1, first), np.where(odd, first, first + 1), first + 2], axis=1)


def draw_strip(outputs: np.ndarray, colour: int, width: int, height: int) -> np.ndarray:
    """The picture of ``outputs`` ((registers, vertices) uint32) drawn as the module docstring says:
    (height, width, 3) uint8, row 0 at the top."""
    if colour + 4 > outputs.shape[0]:
        raise InputError(f"--colour o{colour}: its four registers run past o{outputs.shape[0] - 1}")
    values = outputs.view(np.float32).astype(np.float64)
    triangles = strip_triangles(values.shape[1])
    fragments = rasterize(values[0:4].T[triangles], width, height)
    colours = values[colour:colour + 3].T[triangles[fragments.triangle]]  # (F, 3 vertices, 3 channels)
    rgb = np.einsum("fv,fvc->fc", fragments.barycentric, colours)
    picture = np.zeros((height, width, 3), dtype=np.uint8)
    shaded = np.nan_to_num(rgb, nan=0.0)
    picture[height - 1 - fragments.y, fragments.x] = np.round(np.clip(shaded, 0.0, 1.0) * 255).astype(np.uint8)
    return picture
