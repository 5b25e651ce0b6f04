"""How a processor declares the command-line options only it takes.

Each ISA package has a light ``cli_options`` module (it imports click, nothing heavy) with
``command_options(**variant)``: command name → the :class:`CommandOption` s that processor
variant takes for it, and ``usage(**variant)``: command name → example command lines for the
help text. The CLI builds its commands from every registered processor's declarations, so it
names no processor itself; an option two processors declare becomes one option whose help
says what it means for each.

An option with ``selects_variant`` picks the ISA object (``isa.get(name, rev="A")``); the others
reach the processor's command code with the other option values.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CommandOption:
    flags: tuple[str, ...]  # click's declaration strings: "--rt", or "--program", "program_file"
    help: str
    settings: dict = field(default_factory=dict, compare=False)  # click.option keyword arguments
    selects_variant: bool = False

    @property
    def name(self) -> str:
        """The parameter name click gives it."""
        explicit = [flag for flag in self.flags if not flag.startswith("-")]
        if explicit:
            return explicit[0]
        longest = max((flag for flag in self.flags if flag.startswith("--")), key=len, default=self.flags[0])
        return longest.lstrip("-").split("/")[0].replace("-", "_")

    def same_option_as(self, other: CommandOption) -> bool:
        """Whether two processors' declarations can be one option: same flags and settings
        (click parameter types compared by what they accept)."""
        return ((self.flags, _comparable(self.settings), self.selects_variant)
                == (other.flags, _comparable(other.settings), other.selects_variant))


def _comparable(settings: dict) -> dict:
    return {key: (type(value).__name__, value.to_info_dict()) if hasattr(value, "to_info_dict") else value
            for key, value in settings.items()}


def option(*flags: str, help: str, selects_variant: bool = False, **settings) -> CommandOption:
    return CommandOption(tuple(flags), help, settings, selects_variant)
