"""The processors shaderkit knows, each a package with a public ``ISA`` object.

``get(name, **options)`` is the only way the CLI and ``render/`` reach an ISA. The one
registry line per processor lives here: its package, the variant it selects, which of the
optional commands it offers, and which processor-specific command-line options it takes.
The CLI builds its choices, its per-processor ``--help`` and its "not an option for X"
errors from these lines, so it never names a processor itself.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from ..core.diagnostics import InputError
from ..core.suggest import did_you_mean

# Commands every processor offers; the others are listed per processor.
COMMON_COMMANDS = frozenset({"asm", "disasm", "run", "doc"})


@dataclass(frozen=True)
class Processor:
    package: str
    summary: str
    commands: frozenset[str] = frozenset()
    options: frozenset[str] = frozenset()  # processor-specific options it accepts (CLI parameter names)
    variant: dict = field(default_factory=dict)  # passed to the package's make_isa
    containers: tuple[str, ...] = ()  # program containers beyond core.binfmt's

    def offers(self, command: str) -> bool:
        return command in COMMON_COMMANDS or command in self.commands


_TPP_RUN = {"model", "rt", "frame", "divisor", "scale"}
_THEIA_RUN = {"scene", "obj", "camera", "window", "resolution", "shader", "program_file", "registers",
              "cores", "stats", "complete_isa", "budget", "texture"}
_RSX_ANY = {"texture", "filter", "wrap", "budget"}

REGISTRY = {
    "tpp": Processor("shaderkit.isa.tpp", "Tiny Pixel Processor (TinyTapeout)",
                     commands=frozenset({"flash", "bench"}), options=frozenset({"rev", *_TPP_RUN})),
    "theia": Processor("shaderkit.isa.theia", "THEIA ray-casting GPU (OpenCores, V1)",
                       commands=frozenset({"bench"}), options=frozenset(_THEIA_RUN), containers=("imem",)),
    "rsx": Processor("shaderkit.isa.rsx", "PS3 RSX vertex and fragment programs (containers, text)",
                     commands=frozenset({"decompile", "bench"}),
                     options=frozenset({"style", "vp", "fp", "mesh", "size", "const", "camera", *_RSX_ANY}),
                     containers=("vpo", "fpo")),
    "rsx-vp": Processor("shaderkit.isa.rsx", "PS3 RSX bare vertex-program microcode",
                        commands=frozenset({"decompile", "bench"}),
                        options=frozenset({"style", "mesh", "const", *_RSX_ANY}),
                        variant={"kind": "vertex"}, containers=("vpo", "fpo")),
    "rsx-fp": Processor("shaderkit.isa.rsx", "PS3 RSX bare fragment-program microcode",
                        commands=frozenset({"decompile", "bench"}),
                        options=frozenset({"style", "fullscreen", "input", *_RSX_ANY}),
                        variant={"kind": "fragment"}, containers=("vpo", "fpo")),
}


def container_formats() -> tuple[str, ...]:
    return tuple(sorted({fmt for processor in REGISTRY.values() for fmt in processor.containers}))


def names(command: str | None = None) -> list[str]:
    """Registered processor names; with ``command``, only those offering it."""
    return sorted(name for name, processor in REGISTRY.items() if command is None or processor.offers(command))


def instruction_sets() -> list[str]:
    """Registered names whose ISA object decodes bare instruction words (``decodes_words``);
    a name that only reads self-describing files (a container of either program kind) is left out."""
    return [name for name in names() if get(name).decodes_words]


def option_owners(option: str) -> list[str]:
    """The processors that take a processor-specific option (empty: every processor takes it)."""
    return sorted(name for name, processor in REGISTRY.items() if option in processor.options)


def registration(name: str) -> Processor:
    processor = REGISTRY.get(name.lower())
    if processor is None:
        raise InputError(f"unknown processor '{name}'{did_you_mean(name, REGISTRY)} (known: {', '.join(names())})")
    return processor


def get(name: str, **options):
    """The ISA object for ``name``; options such as ``rev`` select a variant."""
    processor = registration(name)
    return importlib.import_module(processor.package).make_isa(**options, **processor.variant)
