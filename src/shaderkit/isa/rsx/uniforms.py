"""The values a run gives a program pair's constants: ``--const``, the time value, and the
uniforms nobody gave a value.

Where values go:

* A vertex program reads the (468, 4) constant memory: its own ``#const`` values and uniform
  defaults first, then (``run -m rsx`` only) the host's framing constants and the time value,
  then every ``--const``. ``--const c[N]=x,y,z,w`` needs no declaration (a raw register);
  ``--const NAME=…`` names a ``#var`` uniform (16 numbers fill a matrix's four rows).
* A fragment program has no constant memory: each read of a constant is a literal slot after the
  instruction. A ``#var`` uniform's slots are listed in the program's parameter table, so
  ``--const NAME=x,y,z,w`` rewrites those slots (one vec4 per fragment uniform).
* **Time** (``run -m rsx``, every frame; a still is frame 0): the value ``(t, sin t, cos t,
  frame)`` with t = frame / fps seconds goes into the vertex constant c[467]
  (:data:`TIME_REGISTER`; unless the vertex program declares c[467] itself), and into any
  uniform named ``time`` (:data:`TIME_UNIFORM`) of either program, so a fragment program reads
  it by declaring ``#var float4 time :  : c[N] : -1 : 1`` and reading c[N]. A ``--const`` of
  the same register or name is applied after it and wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from shaderkit.core.diagnostics import InputError
from shaderkit.core.options import parse_numbers

from .container import CgVariability
from .image import VP_CONSTANT_RESOURCE, RsxImage
from .instruction import Program, floats_to_words

TIME_REGISTER = 467
TIME_UNIFORM = "time"
_CONSTANT_INDEX = re.compile(r"^\s*c\s*\[\s*([0-9]+)\s*\]\s*$")
_ROW_SUFFIX = re.compile(r"\[\d+\]$")


@dataclass(frozen=True)
class ConstantSetting:
    """One ``--const``: a register index or a uniform name, and its rows of four numbers."""

    target: int | str
    rows: tuple[tuple[float, float, float, float], ...]


def _numbers(text: str) -> tuple[float, ...]:
    count = len([part for part in text.replace(",", " ").split() if part])
    if count not in (1, 2, 3, 4, 16):
        raise InputError(f"--const needs 4 numbers (or 16 for a matrix), not '{text}'")
    values = parse_numbers(text, count, "--const", float32=True)
    return values + (0.0, 0.0, 0.0, 1.0)[count:] if count < 4 else values


def parse_constant_settings(settings: tuple[str, ...]) -> tuple[ConstantSetting, ...]:
    parsed = []
    for setting in settings:
        target, equals, values_text = setting.partition("=")
        if not equals or not target.strip():
            raise InputError(f"--const needs c[N]=x,y,z,w or NAME=x,y,z,w, not '{setting}'")
        values = _numbers(values_text)
        rows = tuple(tuple(values[start:start + 4]) for start in range(0, len(values), 4))
        match = _CONSTANT_INDEX.match(target)
        if match and len(match.group(1)) > 9:  # past any constant memory (and past what int() converts)
            raise InputError(f"--const: c[{match.group(1)}] is outside the constant memory")
        parsed.append(ConstantSetting(int(match.group(1)) if match else target.strip(), rows))
    return tuple(parsed)


def vertex_uniforms(image: RsxImage | None) -> dict[str, int]:
    """Uniform name -> first constant register, from the program's parameter table."""
    names: dict[str, int] = {}
    for parameter in (image.parameters or ()) if image is not None else ():
        if parameter.resource == VP_CONSTANT_RESOURCE and parameter.resource_index >= 0 \
                and parameter.variability == CgVariability.UNIFORM:
            names.setdefault(parameter.name, parameter.resource_index)
    return names


def _vertex_names(image: RsxImage | None) -> dict[str, int]:
    """Every name --const may use for a vertex constant: uniforms and internal constants."""
    names = {}
    for parameter in (image.parameters or ()) if image is not None else ():
        if parameter.resource == VP_CONSTANT_RESOURCE and parameter.resource_index >= 0:
            names.setdefault(parameter.name, parameter.resource_index)
    return names


def fragment_uniforms(image: RsxImage | None) -> dict[str, tuple[int, ...]]:
    """Uniform name -> the slots of the literals that hold it, from the parameter table."""
    names: dict[str, tuple[int, ...]] = {}
    for parameter in (image.parameters or ()) if image is not None else ():
        if parameter.variability == CgVariability.UNIFORM and parameter.embedded_constant_offsets:
            names.setdefault(parameter.name, tuple(offset // 16 for offset in parameter.embedded_constant_offsets))
    return names


def check_settings(settings: tuple[ConstantSetting, ...], vertex: RsxImage | None,
                   fragment: RsxImage | None, registers: int) -> None:
    """Refuse names neither program has, registers out of range, and matrices for FP uniforms."""
    vertex_names, fragment_names = _vertex_names(vertex), fragment_uniforms(fragment)
    for setting in settings:
        if isinstance(setting.target, int):
            if not 0 <= setting.target <= registers - len(setting.rows):
                raise InputError(f"--const: c[{setting.target}] is outside the constant memory "
                                 f"c[0..{registers - 1}]")
            continue
        if setting.target not in vertex_names and setting.target not in fragment_names:
            known = ", ".join(sorted({*vertex_names, *fragment_names})) or "none: use c[N]"
            raise InputError(f"--const: unknown constant '{setting.target}' (named constants: {known})")
        if setting.target in fragment_names and len(setting.rows) != 1:
            raise InputError(f"--const {setting.target}: a fragment program uniform takes 4 numbers")
        index = vertex_names.get(setting.target)
        if index is not None and index + len(setting.rows) > registers:
            raise InputError(f"--const {setting.target}: {len(setting.rows)} rows from c[{index}] run past "
                             f"c[{registers - 1}]")


def fill_vertex_constants(memory: np.ndarray, image: RsxImage | None, settings: tuple[ConstantSetting, ...],
                          time: tuple[float, float, float, float] | None = None) -> None:
    """The time value (when given), then the settings, into a vertex constant memory."""
    names = _vertex_names(image)
    if time is not None:
        declared = image.constants if image is not None else {}
        if TIME_REGISTER not in declared:
            memory[TIME_REGISTER] = time
        if TIME_UNIFORM in names:
            memory[names[TIME_UNIFORM]] = time
    for setting in settings:
        index = setting.target if isinstance(setting.target, int) else names.get(setting.target)
        if index is not None:
            memory[index: index + len(setting.rows)] = setting.rows


def fragment_with_values(image: RsxImage, settings: tuple[ConstantSetting, ...],
                         time: tuple[float, float, float, float] | None = None) -> Program:
    """The fragment program with the literal slots of set uniforms (and ``time``) rewritten."""
    slots_of = fragment_uniforms(image)
    values: dict[int, tuple[float, ...]] = {}
    if time is not None and TIME_UNIFORM in slots_of:
        values.update(dict.fromkeys(slots_of[TIME_UNIFORM], time))
    for setting in settings:
        if isinstance(setting.target, str) and setting.target in slots_of:
            values.update(dict.fromkeys(slots_of[setting.target], setting.rows[0]))
    if not values:
        return image.program
    instructions = tuple(
        replace(instruction, literal=floats_to_words(values[instruction.slot + 1]))
        if instruction.literal is not None and instruction.slot + 1 in values else instruction
        for instruction in image.program.instructions)
    return replace(image.program, instructions=instructions)


def unset_uniforms(image: RsxImage | None, settings: tuple[ConstantSetting, ...],
                   time_available: bool) -> list[str]:
    """Names of referenced uniforms that neither the program, ``--const`` nor the time value fill."""
    if image is None or not image.parameters:
        return []
    named = {setting.target for setting in settings if isinstance(setting.target, str)}
    vertex_names = _vertex_names(image)
    registers = set()
    for setting in settings:
        start = setting.target if isinstance(setting.target, int) else vertex_names.get(setting.target)
        if start is not None:
            registers.update(range(start, start + len(setting.rows)))
    fragment = fragment_uniforms(image)
    missing: dict[str, None] = {}
    for parameter in image.parameters:
        base = _ROW_SUFFIX.sub("", parameter.name)
        if parameter.variability != CgVariability.UNIFORM or not parameter.is_referenced \
                or base in named or (time_available and base == TIME_UNIFORM):
            continue
        if parameter.name in fragment:
            if parameter.default_value is None:
                missing[base] = None
        elif parameter.resource == VP_CONSTANT_RESOURCE and parameter.resource_index >= 0:
            if parameter.resource_index not in image.constants and parameter.resource_index not in registers:
                missing[base] = None
    return list(missing)


def reads_time(vertex: RsxImage, fragment: RsxImage) -> bool:
    """Whether either program can see the time value: a ``time`` uniform, or a vertex read of
    c[467] (or of a relatively addressed constant) while the program leaves c[467] to the host."""
    if TIME_UNIFORM in fragment_uniforms(fragment) or TIME_UNIFORM in _vertex_names(vertex):
        return True
    if TIME_REGISTER in vertex.constants:
        return False
    for instruction in vertex.program.instructions:
        view = instruction.view
        used = set((view.vector.sources if view.vector else ()) + (view.scalar.sources if view.scalar else ()))
        if any(view.sources[slot].file == "c" and (view.sources[slot].relative or view.sources[slot].index
                                                   == TIME_REGISTER) for slot in used):
            return True
    return False
