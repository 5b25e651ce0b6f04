"""Click machinery behind the ``shaderkit`` command: one-line errors and per-processor options.

* :class:`ShaderkitGroup` turns every error into one line on stderr with exit code 2:
  the project's own errors, and click's usage errors (click prints four lines by default).
* :class:`ProcessorCommand` is a command that takes ``-m PROCESSOR``. Options that only some
  processors take (the registry in :mod:`shaderkit.isa` says which) are refused for the others,
  and ``COMMAND -m X --help`` lists only the options X takes.
"""

from __future__ import annotations

import contextlib
import copy
import os
import sys

import click

from . import isa as isas
from .core.diagnostics import EXIT_BAD_INPUT, DiagnosticError, InputError, ShaderkitError
from .core.fileio import remove_temporaries_on_signals, replacing_read_only_files
from .core.suggest import did_you_mean

MACHINE_FLAGS = ("-m", "--machine")


class ShaderkitGroup(click.Group):
    """Turns the project's errors and click's usage errors into one line and exit code 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except ShaderkitError as error:
            text = error.render()
            # Source errors are blocks (message, line, caret); anything else is one line, even
            # when it quotes a value with a line break (or a terminal escape) in it.
            click.echo(text if isinstance(error, DiagnosticError) else escape_control_characters(text), err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(0)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        remove_temporaries_on_signals()
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except OSError as error:
            # Standard output that cannot take what we print (a full disk, `> /dev/full`).
            _silence_standard_output()
            click.echo(f"shaderkit: error: cannot write the output: {error.strerror or error}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except click.UsageError as error:
            command = error.ctx.command_path if error.ctx is not None else (prog_name or "shaderkit")
            click.echo(f"{command}: error: {one_line(error.format_message())} (see '{command} --help')", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except click.ClickException as error:
            click.echo(f"shaderkit: error: {one_line(error.format_message())}", err=True)
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("shaderkit: aborted", err=True)
            sys.exit(130)
        sys.exit(result if isinstance(result, int) else 0)


def _silence_standard_output() -> None:
    """Point standard output at /dev/null, so the interpreter's final flush of what could not
    be written raises nothing more at exit."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


# Control characters (C0, DEL, C1) as Python writes them in a string literal: \n, \r, \t, \x1b.
_CONTROL_ESCAPES = {code: repr(chr(code))[1:-1] for code in (*range(0x20), *range(0x7F, 0xA0))}


def escape_control_characters(text: str) -> str:
    """``text`` with every control character spelled as an escape: one line, and a value
    quoted in a message cannot move the cursor or recolour the terminal."""
    return text.translate(_CONTROL_ESCAPES)


def one_line(text: str) -> str:
    """A message of click's on one line: runs of white space as one space, other control
    characters escaped."""
    return escape_control_characters(" ".join(text.split()))


class ProcessorChoice(click.Choice):
    """The processors that offer one command; any other name is refused saying which do."""

    def __init__(self, command: str):
        super().__init__(isas.names(command), case_sensitive=False)
        self.command = command

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value.lower() in isas.REGISTRY and value.lower() not in self.choices:
            self.fail(f"{value} has no {self.command} command (processors with {self.command}: "
                      f"{', '.join(self.choices)})", param, ctx)
        if isinstance(value, str) and value.lower() not in isas.REGISTRY:
            self.fail(f"unknown processor '{value}'{did_you_mean(value, isas.REGISTRY)} "
                      f"(known: {', '.join(self.choices)})", param, ctx)
        return super().convert(value, param, ctx).lower()


def machine_option(command: str):
    """``-m/--machine``, offering only the processors that have ``command``."""
    return click.option(*MACHINE_FLAGS, "machine", required=True, metavar="PROCESSOR",
                        type=ProcessorChoice(command), help=f"Processor: {', '.join(isas.names(command))}.")


def _machine_in(args: list[str]) -> str | None:
    """The processor named by ``-m X``, ``-mX``, ``--machine X`` or ``--machine=X`` in raw arguments."""
    for index, arg in enumerate(args):
        if arg in MACHINE_FLAGS and index + 1 < len(args):
            return args[index + 1].lower()
        if arg.startswith("--machine="):
            return arg.split("=", 1)[1].lower()
        if arg.startswith("-m") and not arg.startswith("--") and len(arg) > 2:
            return arg[2:].lower()
    return None


def declared_options(command: str):
    """The options processors declare for ``command`` (:mod:`shaderkit.isa.command_options`),
    each once; an option several processors declare with different help shows each one's."""

    def decorate(function):
        for declared, helps in reversed(isas.declared_options(command)):
            owners_of: dict[str, list[str]] = {}
            for owner, help_text in helps.items():
                owners_of.setdefault(help_text, []).append(owner)
            text = next(iter(owners_of)) if len(owners_of) == 1 else " ".join(
                f"{', '.join(owners)}: {help_text}" for help_text, owners in owners_of.items())
            function = click.option(*declared.flags, help=text, **declared.settings)(function)
            function.__click_params__[-1].owner_help = dict(helps)
        usage = [line for name in isas.names(command) for line in isas.REGISTRY[name].usage().get(command, [])]
        if usage and function.__doc__ is not None:
            function.__doc__ += "\n\n    \b\n    Examples:\n" + "".join(f"      {line}\n" for line in usage)
        return function

    return decorate


def variant_of(machine: str, command: str, values: dict) -> dict:
    """The values of the options that select ``machine``'s variant (``--rev``), for ``isa.get``."""
    return {name: value for name, (value, selects) in _own(machine, command, values).items() if selects}


def own_options(machine: str, command: str, values: dict) -> dict:
    """The values of ``machine``'s own options for ``command`` other than variant selectors."""
    return {name: value for name, (value, selects) in _own(machine, command, values).items() if not selects}


def _own(machine: str, command: str, values: dict) -> dict:
    processor = isas.registration(machine)
    return {declared.name: (values[declared.name], declared.selects_variant)
            for declared in processor.command_options().get(command, []) if declared.name in values}


# Commands that write a file take --force; ProcessorCommand consumes it before the callback.
force_option = click.option("--force", is_flag=True, help="Replace the output file even if it is read-only.")


def option_flag(name: str) -> str:
    """The command-line spelling of an option's parameter name."""
    return "--" + name.removesuffix("_file").replace("_", "-")


class ProcessorCommand(click.Command):
    """A command taking ``-m PROCESSOR`` whose processor-specific options are checked and filtered."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["shaderkit.machine"] = _machine_in(args)
        return super().parse_args(ctx, args)

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help for one processor shows only its own example lines.
        machine = ctx.meta.get("shaderkit.machine")
        if machine not in isas.REGISTRY or not self.help:
            return super().format_help_text(ctx, formatter)
        shown = self.help
        lines = self.help.splitlines()
        examples = [line for line in lines if line.strip().startswith("shaderkit ")]
        if examples:
            own = [line for line in examples if f" -m {machine} " in f"{line} "]
            kept = [line for line in lines if line not in examples or line in own]
            shown = "\n".join(kept if own else [line for line in kept if line.strip() != "Examples:"])
        original, self.help = self.help, shown
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = original

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help for one processor shows only the options it takes; help for all of them says
        # which processors take each processor-specific option.
        machine = ctx.meta.get("shaderkit.machine")
        records = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None or not isinstance(param, click.Option):
                continue
            owners = isas.option_owners(param.name or "")
            if machine in isas.REGISTRY:
                if owners and machine not in owners:
                    continue
                own_help = getattr(param, "owner_help", {}).get(machine)
                if own_help is not None and own_help != param.help:
                    record = copy.copy(param)
                    record.help = own_help
                    record = record.get_help_record(ctx)
            elif owners:
                record = (record[0], f"[{', '.join(owners)}] {record[1]}")
            records.append(record)
        if records:
            with formatter.section("Options"):
                formatter.write_dl(records)

    def invoke(self, ctx: click.Context):
        machine = (ctx.params.get("machine") or "").lower()
        misplaced = sorted(name for name in ctx.params
                           if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
                           and not _takes(machine, name))
        if misplaced:
            flags = ", ".join(option_flag(name) for name in misplaced)
            takers = sorted({owner for name in misplaced for owner in isas.option_owners(name)})
            raise InputError(f"{flags}: not an option for {machine} (only for {', '.join(takers)})")
        if ctx.params.get("output") == "":
            raise InputError("no output path: -o was given an empty name")
        with replacing_read_only_files(ctx.params.pop("force", False)):
            return super().invoke(ctx)


def _takes(machine: str, name: str | None) -> bool:
    owners = isas.option_owners(name or "")
    return not owners or machine in owners
