"""The processors shaderkit knows, each a package with a public ``ISA`` object.

``get(name, **options)`` is the only way the CLI and ``render/`` reach an ISA, and
the one registry line per processor lives here.
"""

from __future__ import annotations

import importlib

from ..core.diagnostics import InputError

REGISTRY = {
    "tpp": "shaderkit.isa.tpp",
    "theia": "shaderkit.isa.theia",
    "rsx": "shaderkit.isa.rsx",
    "rsx-vp": "shaderkit.isa.rsx",
    "rsx-fp": "shaderkit.isa.rsx",
}
# Names that select a variant of their package (passed to its make_isa).
VARIANTS = {
    "rsx-vp": {"kind": "vertex"},
    "rsx-fp": {"kind": "fragment"},
}
# Program containers only some processors have (the CLI offers them, the ISA checks).
CONTAINERS = {
    "theia": ("imem",),
    "rsx": ("vpo", "fpo"),
}


def container_formats() -> tuple[str, ...]:
    return tuple(sorted({fmt for formats in CONTAINERS.values() for fmt in formats}))


def names() -> list[str]:
    return sorted(REGISTRY)


def get(name: str, **options):
    """The ISA object for ``name``; options such as ``rev`` select a variant."""
    module_name = REGISTRY.get(name.lower())
    if module_name is None:
        raise InputError(f"unknown processor '{name}' (known: {', '.join(names())})")
    return importlib.import_module(module_name).make_isa(**options, **VARIANTS.get(name.lower(), {}))
