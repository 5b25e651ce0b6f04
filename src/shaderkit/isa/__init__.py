"""The processors shaderkit knows, each a package with a public ``ISA`` object.

``get(name, **options)`` is the only way the CLI and ``render/`` reach an ISA. The one
registry line per processor lives here: its package, the variant it selects, which of the
optional commands it offers and its own containers. The command-line options only it takes
are declared in its package (``cli_options``, see :mod:`.command_options`). The CLI builds
its commands, choices, per-processor ``--help`` and "not an option for X" errors from these,
so it never names a processor itself: adding one touches its folder and one registry line.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, field

from ..core.diagnostics import InputError
from ..core.suggest import did_you_mean
from .command_options import CommandOption

# Commands every processor offers; the others are listed per processor.
COMMON_COMMANDS = frozenset({"asm", "disasm", "run", "doc"})


@dataclass(frozen=True)
class Processor:
    package: str
    summary: str
    commands: frozenset[str] = frozenset()
    variant: dict = field(default_factory=dict)  # passed to the package's make_isa
    containers: tuple[str, ...] = ()  # program containers beyond core.binfmt's

    def offers(self, command: str) -> bool:
        return command in COMMON_COMMANDS or command in self.commands

    @property
    def declarations(self):
        """The package's ``cli_options`` module (light: click only)."""
        return importlib.import_module(f"{self.package}.cli_options")

    def command_options(self) -> dict[str, list[CommandOption]]:
        """Command → the options only this processor takes (:mod:`.command_options`)."""
        return {command: options for command, options in self.declarations.command_options(**self.variant).items()
                if self.offers(command)}

    def usage(self) -> dict[str, list[str]]:
        return self.declarations.usage(**self.variant)

    @property
    def options(self) -> frozenset[str]:
        return frozenset(declared.name for options in self.command_options().values() for declared in options)


REGISTRY = {
    "tpp": Processor("shaderkit.isa.tpp", "Tiny Pixel Processor (TinyTapeout)", commands=frozenset({"flash", "bench"})),
    "theia": Processor("shaderkit.isa.theia", "THEIA ray-casting GPU (OpenCores, V1)", commands=frozenset({"bench"}),
                       containers=("imem",)),
    "rsx": Processor("shaderkit.isa.rsx", "PS3 RSX vertex and fragment programs (containers, text)",
                     commands=frozenset({"decompile", "bench"}), containers=("vpo", "fpo")),
    "rsx-vp": Processor("shaderkit.isa.rsx", "PS3 RSX bare vertex-program microcode",
                        commands=frozenset({"decompile", "bench"}), variant={"kind": "vertex"},
                        containers=("vpo", "fpo")),
    "rsx-fp": Processor("shaderkit.isa.rsx", "PS3 RSX bare fragment-program microcode",
                        commands=frozenset({"decompile", "bench"}), variant={"kind": "fragment"},
                        containers=("vpo", "fpo")),
    "vp1": Processor("shaderkit.isa.vp1", "NVIDIA VP1 video processor (NV41–G84)", commands=frozenset({"bench"})),
    "usse": Processor("shaderkit.isa.usse", "PowerVR SGX543/544 USSE shader programs (PS Vita)",
                      commands=frozenset({"decompile", "bench"}), containers=("gxp",)),
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


@functools.cache
def option_owners(option: str) -> list[str]:
    """The processors that take a processor-specific option (empty: every processor takes it)."""
    return sorted(name for name, processor in REGISTRY.items() if option in processor.options)


def declared_options(command: str) -> list[tuple[CommandOption, dict[str, str]]]:
    """Every processor-specific option of ``command``, once each, with each owner's help text
    (processor → help). Two processors declaring one option must declare it alike."""
    merged: dict[str, tuple[CommandOption, dict[str, str]]] = {}
    for name in names(command):
        for declared in REGISTRY[name].command_options().get(command, []):
            known = merged.get(declared.name)
            if known is None:
                merged[declared.name] = (declared, {name: declared.help})
            elif known[0].same_option_as(declared):
                known[1][name] = declared.help
            else:
                raise ValueError(f"{name} declares {declared.flags[0]} for '{command}' unlike "
                                 f"{', '.join(known[1])}")
    return list(merged.values())


def registration(name: str) -> Processor:
    processor = REGISTRY.get(name.lower())
    if processor is None:
        raise InputError(f"unknown processor '{name}'{did_you_mean(name, REGISTRY)} (known: {', '.join(names())})")
    return processor


def get(name: str, **options):
    """The ISA object for ``name``; options such as ``rev`` select a variant."""
    processor = registration(name)
    return importlib.import_module(processor.package).make_isa(**options, **processor.variant)
