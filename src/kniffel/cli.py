"""The ``kniffel`` command line: a thin layer over the library."""

from __future__ import annotations

import contextlib
import copy
import difflib
import gc
import inspect
import json
import math
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeVar

import click
from rich.console import Console

from kniffel import __version__
from kniffel.engine.dice import Roll
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count, decimal, dice_text, render, rules_title
from kniffel.engine.messages import strategy_name as shown_strategy
from kniffel.engine.messages import text as words
from kniffel.engine.rules import (
    BOX_TEXTS,
    DEFAULT_RULES,
    FLAT_POINTS,
    PRESETS,
    Box,
    Lang,
    RuleSet,
    StrikeRule,
    describe,
    evaluate,
    preset,
)
from kniffel.lang import default_lang
from kniffel.paths import default_db_path

# Imported where used: the game, its saves, the history database and rich's tables (_table)
# are not needed by every command (``kniffel solve`` starts without them).
if TYPE_CHECKING:
    from rich.table import Table

    from kniffel.engine.chances import Chances
    from kniffel.engine.game import Game
    from kniffel.engine.match import Seat
    from kniffel.engine.review import LuckSkill
    from kniffel.history import History
    from kniffel.simulate import SimulationResult


def strategy_names() -> tuple[str, ...]:
    """The registered strategy names (imported on use: the strategies need numpy, which the
    other commands do without)."""
    from kniffel.engine.strategy import strategy_names as names

    return names()


#: Every text :func:`both` made, with its catalog code and params: ``--help`` shows it in the
#: reader's language only (:func:`in_lang`).
_BILINGUAL: dict[str, tuple[str, dict[str, object]]] = {}


def both(code: str, **params: object) -> str:
    """A help text of the catalog in both languages in one text, German first ("Regelwerk /
    rule set"), for a reader who has not chosen (a docstring, click's own places); ``--help``
    shows it in the reader's language only (:func:`in_lang`)."""
    text = f"{words(code, 'de', **params)} / {words(code, 'en', **params)}"
    _BILINGUAL[text] = (code, params)
    return text


def in_lang(text: str, lang: Lang) -> str:
    """A help text made by :func:`both` in ``lang`` only; any other text as it is."""
    found = _BILINGUAL.get(text.strip())
    return text if found is None else words(found[0], lang, **found[1])


F = TypeVar("F", bound=Callable[..., Any])


def summary(code: str) -> Callable[[F], F]:
    """Put a command's summary line from the catalog, in both languages, in front of its
    docstring (the English details): click shows it in ``kniffel --help`` and ``CMD --help``."""
    def put(f: F) -> F:
        details = inspect.cleandoc(f.__doc__ or "")
        f.__doc__ = f"{both(code)}\n\n{details}" if details else both(code)
        return f
    return put


RULES_HELP = both("cli.help.rules")
LANG_KEY = "kniffel.lang"

rules_option = click.option(
    "--rules", "rules_name", type=click.Choice(PRESETS, case_sensitive=False),
    default=DEFAULT_RULES, show_default=True, help=RULES_HELP,
)


def _remember_lang(ctx: click.Context, _param: click.Parameter, value: Lang) -> Lang:
    """Keep the chosen language where the error handler of :class:`KniffelGroup` finds it."""
    ctx.meta[LANG_KEY] = value
    return value


def _chosen_lang() -> Lang:
    """A command's language when it is given no ``--lang``: the one given to ``kniffel``
    itself (``kniffel --lang en score …``), else the locale's."""
    ctx = click.get_current_context(silent=True)
    chosen = ctx.meta.get(LANG_KEY) if ctx is not None else None
    if chosen == "de" or chosen == "en":
        return chosen  # type: ignore[no-any-return]
    return default_lang()


#: ``--lang de|en`` (in any case: ``--lang EN``), on ``kniffel`` itself and on every command.
lang_option = click.option(
    "--lang", type=click.Choice(["de", "en"], case_sensitive=False), default=_chosen_lang,
    callback=_remember_lang, is_eager=True, show_default=False,
    help=both("cli.help.lang"),
)


def _message(error: BaseException, lang: Lang) -> str:
    """An error as a player reads it: a kniffel error from the message catalog, a file that
    cannot be read or written by its name and the reason in words."""
    if isinstance(error, OSError):
        where = str(error.filename) if error.filename is not None else "?"
        if isinstance(error, FileNotFoundError):
            return words("os.not_found", lang, where=where)
        if isinstance(error, PermissionError):
            return words("os.permission", lang, where=where)
        if isinstance(error, IsADirectoryError):
            return words("os.is_folder", lang, where=where)
        if isinstance(error, NotADirectoryError):
            return words("os.not_a_folder", lang, where=where)
        return words("os.error", lang, where=where)
    return render(error, lang)


def _write_failed(path: str, error: OSError, lang: Lang) -> str:
    """Why the file ``path`` could not be written, in words."""
    if isinstance(error, FileNotFoundError):
        return words("os.no_folder", lang, where=path)
    if isinstance(error, PermissionError):
        return words("os.permission", lang, where=path)
    return words("os.cannot_write", lang, where=path)


def _fail(command: str, error: BaseException | str, lang: Lang) -> NoReturn:
    """Print ``kniffel COMMAND: <the error in words>`` on stderr and exit with status 2."""
    words = error if isinstance(error, str) else _message(error, lang)
    _console(err=True).print(f"kniffel {command}: {words}", markup=False)
    sys.exit(2)


# --- click's own messages in the user's language ----------------------------------------------
# click words its errors in English (and through gettext, which kniffel does not use). Every
# error click raises is shown here instead: one line "kniffel COMMAND: <sentence>" from the
# message catalog, at most one more line with the help command, exit status 2; an interrupt is
# "Abgebrochen." / "Interrupted." with exit status 130, never click's "Aborted!". The sentence
# comes from the error's type and attributes; a refused value from the parameter's type, which
# every KniffelCommand gives a copy that knows the value (localized_type); --help's headings
# and notes follow the language too (_KniffelHelp).

ARGS_KEY = "kniffel.args"

# Not in every click kniffel runs on: NoSuchCommand came with click 8.4 (before, a plain
# UsageError), NoArgsIsHelpError with 8.2; where one is missing, an empty tuple (``isinstance``
# and ``except`` match nothing).
_NO_ARGS_IS_HELP: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())
_NO_SUCH_COMMAND: Any = getattr(click.exceptions, "NoSuchCommand", ())


class CliValueError(click.BadParameter):
    """A value that a parameter's type refused, with the catalog code and params of its
    sentence (the English message stays click's own, for logs)."""

    def __init__(self, message: str, code: str, params: dict[str, object],
                 ctx: click.Context | None = None, param: click.Parameter | None = None) -> None:
        super().__init__(message, ctx=ctx, param=param)
        self.code = code
        self.params = params


def _given_lang(args: Sequence[str]) -> Lang | None:
    """The language of the last ``--lang de|en`` (or ``--lang=…``) in ``args`` before ``--``."""
    found: Lang | None = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        else:
            continue
        if value.lower() == "de":
            found = "de"
        elif value.lower() == "en":
            found = "en"
    return found


def _lang_of(ctx: click.Context | None) -> Lang:
    """The language of a sentence about the command line itself: the command's ``--lang``
    where click read it, where it was given on the command line (an error can come before it
    is read), else the locale's (:func:`~kniffel.lang.default_lang`)."""
    if ctx is not None:
        chosen = ctx.meta.get(LANG_KEY)
        if chosen == "de" or chosen == "en":
            return chosen  # type: ignore[no-any-return]
        given = _given_lang(ctx.meta.get(ARGS_KEY, ()))
        if given is not None:
            return given
    return default_lang()


def _command_path(ctx: click.Context | None) -> str:
    """``kniffel`` and the names of the (sub)commands ``ctx`` belongs to: ``kniffel rules``."""
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["kniffel", *reversed(names)])


def _param_name(param: click.Parameter | None) -> str | None:
    """A parameter as the command line spells it: an option's longest name, an argument's
    metavar (``SAVE``)."""
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return param.human_readable_name if param is not None else None


def _shown_value(value: object, lang: Lang) -> str:
    """A number (a range's bound, a value out of range) as ``lang`` writes it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return decimal(value, lang)


def _range_text(kind: click.IntRange | click.FloatRange, lang: Lang) -> str:
    """The range of an ``IntRange``/``FloatRange`` in words: "mindestens 1", "0 bis 65.535"."""
    low = None if kind.min is None else _shown_value(kind.min, lang)
    high = None if kind.max is None else _shown_value(kind.max, lang)
    if low is not None and high is not None and not (kind.min_open or kind.max_open):
        return words("cli.click.range.between", lang, low=low, high=high)
    lower = None if low is None else words(
        "cli.click.range.more_than" if kind.min_open else "cli.click.range.at_least", lang,
        low=low)
    upper = None if high is None else words(
        "cli.click.range.less_than" if kind.max_open else "cli.click.range.at_most", lang,
        high=high)
    if lower is not None and upper is not None:
        return words("cli.click.range.both", lang, low=lower, high=upper)
    return lower or upper or ""


def _value_problem(kind: click.ParamType[Any, Any], value: Any) -> tuple[str, dict[str, object]]:
    """Why the type ``kind`` refused ``value``: the catalog code and params of the sentence,
    found the way click's own checks go (click only words it in English)."""
    if isinstance(kind, click.Choice):
        return "cli.click.choice", {"value": str(value),
                                    "choices": [str(c) for c in kind.choices]}
    if isinstance(kind, (click.IntRange, click.FloatRange)):
        try:
            number = kind._number_class(value)
        except (TypeError, ValueError):
            pass
        else:
            return "cli.click.range", {"value": number, "range": kind}
    if isinstance(kind, click.types.IntParamType):
        return "cli.click.not_whole", {"value": str(value)}
    if isinstance(kind, click.types.FloatParamType):
        return "cli.click.not_number", {"value": str(value)}
    if isinstance(kind, click.Path):
        where = os.fsdecode(value) if isinstance(value, (str, bytes, os.PathLike)) else str(value)
        try:
            st = os.stat(where)
        except OSError:
            return "os.not_found", {"where": where}
        if not kind.file_okay and stat.S_ISREG(st.st_mode):
            return "cli.click.path_is_file", {"where": where}
        if not kind.dir_okay and stat.S_ISDIR(st.st_mode):
            return "os.is_folder", {"where": where}
        return "os.permission", {"where": where}
    return "cli.click.bad_value", {"value": str(value)}


if TYPE_CHECKING:
    _ParamType = click.ParamType[Any, Any]
else:
    _ParamType = click.ParamType  # generic only since click 8.5


class _LocalizedType(_ParamType):
    """A mixin for click's parameter types: a refused value raises :class:`CliValueError`,
    which knows the value and the sentence that says what is wrong with it. Numbers take a
    decimal comma too (``--speed 0,5``)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if (isinstance(self, click.types.FloatParamType) and isinstance(value, str)
                and value.count(",") == 1 and "." not in value):
            value = value.replace(",", ".")
        try:
            return super().convert(value, param, ctx)
        except CliValueError:
            raise
        except click.BadParameter as e:
            code, params = _value_problem(self, value)
            raise CliValueError(e.message, code, params, ctx=ctx, param=param) from e

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str | None:
        shown = super().get_metavar(param, ctx)
        if shown is not None or not isinstance(param, click.Option):
            return shown  # choices list themselves; an argument is shown by its name
        if isinstance(self, click.types.IntParamType):
            code = "cli.help.metavar.integer"
        elif isinstance(self, click.types.FloatParamType):
            code = "cli.help.metavar.number"
        elif isinstance(self, click.Path) and not self.dir_okay:
            code = "cli.help.metavar.file"
        elif isinstance(self, click.Path) and not self.file_okay:
            code = "cli.help.metavar.folder"
        else:
            code = "cli.help.metavar.path"
        return words(code, _lang_of(ctx))


_LOCALIZED_TYPES: dict[type[click.ParamType[Any, Any]], type[click.ParamType[Any, Any]]] = {}


def localized_type(kind: click.ParamType[Any, Any]) -> click.ParamType[Any, Any]:
    """``kind`` (a click type that can refuse a value: choices, numbers, ranges, paths) as a
    copy that words its refusals from the catalog; any other type as it is."""
    if isinstance(kind, _LocalizedType) or not isinstance(
            kind, (click.Choice, click.types.IntParamType, click.types.FloatParamType,
                   click.Path)):
        return kind
    base: type[click.ParamType[Any, Any]] = type(kind)
    if base not in _LOCALIZED_TYPES:
        _LOCALIZED_TYPES[base] = type(base.__name__, (_LocalizedType, base), {})
    shown: click.ParamType[Any, Any] = copy.copy(kind)
    shown.__class__ = _LOCALIZED_TYPES[base]
    return shown


def _usage_sentence(error: click.ClickException, lang: Lang) -> tuple[str, bool]:
    """The catalog's sentence for one of click's errors, and whether the help command should
    follow it (where the command was called wrongly, not given a wrong value)."""
    ctx = error.ctx if isinstance(error, click.UsageError) else None
    if isinstance(error, CliValueError):
        params = dict(error.params)
        kind = params.get("range")
        if isinstance(kind, (click.IntRange, click.FloatRange)):
            params["range"] = _range_text(kind, lang)
            params["value"] = _shown_value(params["value"], lang)
        sentence = words(error.code, lang, **params)
        name = _param_name(error.param)
        if isinstance(error.param, click.Option) and "where" not in params:
            sentence = f"{name}: {sentence}"
        return sentence, False
    if isinstance(error, click.MissingParameter):
        kind = error.param_type or (error.param.param_type_name if error.param else "")
        code = "cli.click.missing_option" if kind == "option" else "cli.click.missing_argument"
        return words(code, lang, name=_param_name(error.param) or "?"), True
    if isinstance(error, click.BadParameter):
        cause = error.__cause__
        if isinstance(cause, KniffelError):
            return render(cause, lang), False
        name = _param_name(error.param)
        sentence = words("cli.click.usage", lang)
        return (f"{name}: {sentence}" if name else sentence), True
    if isinstance(error, click.NoSuchOption):
        near = difflib.get_close_matches(error.option_name, error.possibilities or [])
        if near:  # (click before 8.4 keeps every option as a possibility)
            return words("cli.click.no_such_option_near", lang, option=error.option_name,
                         possible=" / ".join(near)), True
        return words("cli.click.no_such_option", lang, option=error.option_name), True
    if isinstance(error, _NO_SUCH_COMMAND):
        if error.possibilities:
            return words("cli.click.no_such_command_near", lang, command=error.command_name,
                         possible=" / ".join(error.possibilities)), True
        group = ctx.command if ctx is not None else None
        commands = sorted(group.commands) if isinstance(group, click.Group) else []
        return words("cli.click.no_such_command", lang, command=error.command_name,
                     commands=commands), True
    if isinstance(error, click.BadOptionUsage):
        declared = ctx.command.params if ctx is not None else []
        option = next((p for p in declared if isinstance(p, click.Option)
                       and error.option_name in (*p.opts, *p.secondary_opts)), None)
        code = ("cli.click.takes_no_value" if option is not None and option.is_flag
                else "cli.click.needs_value")
        return words(code, lang, option=error.option_name), True
    if isinstance(error, click.FileError):
        return words("os.error", lang, where=error.filename), False
    if isinstance(error, click.UsageError):
        # click words only this one without an attribute: "Got unexpected extra argument(s) (…)"
        extra = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", error.message, re.S)
        if extra is not None:
            return words("cli.click.extra_arguments", lang, args=extra.group(1)), True
        unknown = re.fullmatch(r"No such command '(.*)'\.", error.message, re.S)  # click < 8.4
        group = ctx.command if ctx is not None else None
        if unknown is not None and isinstance(group, click.Group):
            near = difflib.get_close_matches(unknown.group(1), list(group.commands))
            if near:
                return words("cli.click.no_such_command_near", lang, command=unknown.group(1),
                             possible=" / ".join(near)), True
            return words("cli.click.no_such_command", lang, command=unknown.group(1),
                         commands=sorted(group.commands)), True
        return words("cli.click.usage", lang), True
    return words("error", lang), False


def _refuse(error: click.ClickException, ctx: click.Context | None) -> NoReturn:
    """Show one of click's errors as kniffel does and exit with status 2."""
    if isinstance(error, click.UsageError) and error.ctx is not None:
        ctx = error.ctx
    lang = _lang_of(ctx)
    path = _command_path(ctx)
    sentence, with_hint = _usage_sentence(error, lang)
    console = _console(err=True)
    console.print(f"{path}: {sentence}", markup=False)
    if with_hint:
        console.print(words("cli.click.help_hint", lang, command=path), markup=False)
    sys.exit(2)


def _interrupted(path: str, lang: Lang, error: BaseException) -> NoReturn:
    """Ctrl-C (or an answer that never came) that the command did not handle itself: a
    sentence, exit status 130 (2 when the input ended)."""
    inner = error if not isinstance(error, click.Abort) else (
        error.__cause__ or error.__context__ or error)
    ended = isinstance(inner, EOFError)
    if not ended and sys.stderr.isatty():
        sys.stderr.write("\n")  # past the terminal's "^C"
    sentence = words("cli.click.no_answer" if ended else "cli.click.interrupted", lang)
    _console(err=True).print(f"{path}: {sentence}", markup=False)
    sys.exit(2 if ended else 130)


_YES = {"j", "ja", "y", "yes"}
_NO = {"n", "nein", "no", ""}


def confirm(question: str, lang: Lang) -> bool:
    """Ask ``question`` on stderr with ``[j/N]`` (English ``[y/N]``) until the answer is yes
    (j, ja, y, yes) or no (n, nein, no, or nothing): click's own ``confirm`` asks and complains
    only in English. Ctrl-C or an input that ended reach :class:`KniffelGroup` as
    :class:`click.Abort` ("Abgebrochen." / "Keine Antwort …")."""
    while True:
        answer = click.prompt(f"{question} {words('cli.confirm.suffix', lang)}", default="",
                              show_default=False, prompt_suffix=" ", err=True)
        answer = str(answer).strip().lower()
        if answer in _YES or answer in _NO:
            return answer in _YES
        click.echo(words("cli.confirm.again", lang), err=True)


def _help_heading(ctx: click.Context, code: str) -> str:
    return words(code, _lang_of(ctx))


class _KniffelHelp(click.Command):
    """``--help`` with its headings and click's notes (default, range, required) in the
    user's language."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The summary and details in the reader's language: the catalog's texts in that
        language only; a command's details from the catalog (``cli.help.details.NAME``) where
        it has them, else its docstring (English)."""
        lang = _lang_of(ctx)
        paragraphs = inspect.cleandoc(self.help or "").split("\n\n")
        shown = [in_lang(p, lang).replace("``", "") for p in paragraphs if p.strip()]
        code = f"cli.help.details.{self.name}"
        from kniffel.engine.messages import CATALOG

        if code in CATALOG and shown:
            own = [p for p in paragraphs[1:] if p.strip() not in _BILINGUAL]
            kept = [in_lang(p, lang) for p in paragraphs[1:] if p.strip() in _BILINGUAL]
            if own:
                shown = [shown[0], *words(code, lang).split("\n\n"), *kept]
        if shown:
            formatter.write_paragraph()
            with formatter.indentation():
                for i, paragraph in enumerate(shown):
                    if i:
                        formatter.write_paragraph()
                    formatter.write_text(paragraph)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        lang = _lang_of(ctx)
        shown = {self.options_metavar: words("cli.help.options_metavar", lang),
                 getattr(self, "subcommand_metavar", None): words("cli.help.command_metavar",
                                                                  lang)}
        pieces = [shown.get(piece, piece) for piece in self.collect_usage_pieces(ctx)]
        formatter.write_usage(ctx.command_path, " ".join(pieces),
                              _help_heading(ctx, "cli.help.usage"))

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        lang = _lang_of(ctx)
        records = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None and isinstance(param, click.Option):
                shown = (_option_help(param, ctx, lang) if hasattr(param, "get_help_extra")
                         else record[1])  # click before 8.2: its own notes
                records.append((record[0], shown))
        if records:
            with formatter.section(words("cli.help.options", lang)):
                formatter.write_dl(records)

    def format_arguments(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        arguments = [p for p in self.get_params(ctx) if isinstance(p, click.Argument)]
        if any(getattr(a, "help", None) is not None for a in arguments):
            with formatter.section(_help_heading(ctx, "cli.help.arguments")):
                formatter.write_dl([r for a in arguments
                                    if (r := a.get_help_record(ctx)) is not None])


def _option_help(option: click.Option, ctx: click.Context, lang: Lang) -> str:
    """An option's help with click's notes in ``lang``: ``[Standard: 1000; mindestens 1]``."""
    extra = option.get_help_extra(ctx)
    items = []
    if "envvars" in extra:
        items.append(f"env: {', '.join(extra['envvars'])}")
    if "default" in extra:
        default = option.default
        # a decimal in the reader's form ("0,5"); a whole number as it is typed (1000, 8765)
        shown = decimal(default, lang) if isinstance(default, float) else extra["default"]
        items.append(f"{words('cli.help.default', lang)}: {shown}")
    if "range" in extra and isinstance(option.type, (click.IntRange, click.FloatRange)):
        items.append(_range_text(option.type, lang))
    if "required" in extra:
        items.append(words("cli.help.required", lang))
    help_text = in_lang(option.help or "", lang)
    if option is ctx.command.get_help_option(ctx):
        help_text = words("cli.help.help", lang)
    elif option.name == "version" and option.is_eager and not option.expose_value:
        help_text = words("cli.help.version", lang)
    if items:
        notes = "; ".join(items)
        help_text = f"{help_text}  [{notes}]" if help_text else f"[{notes}]"
    return help_text


class _KniffelArgument(click.Argument):
    """An argument named in the reader's language in ``--help`` and usage (``WÜRFEL``,
    ``SPIELSTAND``): the catalog's ``cli.help.arg.NAME``."""

    def make_metavar(self, ctx: click.Context) -> str:
        shown = super().make_metavar(ctx)
        code = f"cli.help.arg.{self.name}"
        from kniffel.engine.messages import CATALOG

        if code not in CATALOG:
            return shown
        name = words(code, _lang_of(ctx))
        return re.sub(r"[A-Z_]{2,}", name, shown, count=1)


#: The metavars of options that name their value in words, with the catalog code of the
#: words: ``--load SPIELSTAND``, ``--filled KÄSTCHEN=PUNKTE``.
_OPTION_METAVARS = {"ID": "cli.help.optvar.id", "[ID]": "cli.help.optvar.id_optional",
                    "SAVE": "cli.help.arg.save", "NAME[:STRATEGY]": "cli.help.optvar.seat",
                    "BOX=POINTS": "cli.help.optvar.box_points"}


class _KniffelOption(click.Option):
    """An option whose value's name (its metavar) is shown in the reader's language."""

    def make_metavar(self, ctx: click.Context) -> str:
        shown = super().make_metavar(ctx)
        code = _OPTION_METAVARS.get(shown)
        return shown if code is None else words(code, _lang_of(ctx))


class KniffelCommand(_KniffelHelp):
    """A kniffel command: the values its parameters refuse are worded from the catalog (see
    :func:`localized_type`), its ``--help`` speaks the user's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            param.type = localized_type(param.type)
            if type(param) is click.Argument:
                param.__class__ = _KniffelArgument
            elif type(param) is click.Option and param.metavar in _OPTION_METAVARS:
                param.__class__ = _KniffelOption

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            if e.ctx is None:
                e.ctx = ctx  # click's parser leaves it out of some errors (BadOptionUsage)
            raise


class KniffelGroup(click.Group, _KniffelHelp):
    """The command group: a kniffel error that a command did not handle itself is still shown
    in words, in the command's language, with exit status 2 — never as a traceback; so are
    click's own errors (usage, bad values, paths), and Ctrl-C is "Abgebrochen." with status
    130, never click's English "Aborted!"."""

    command_class = KniffelCommand

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[ARGS_KEY] = list(args)  # for the language of an error before --lang is read
        try:
            return super().parse_args(ctx, args)
        except _NO_ARGS_IS_HELP:
            raise  # "kniffel" alone: click shows the help
        except click.ClickException as e:
            if isinstance(e, click.UsageError) and e.ctx is None:
                e.ctx = ctx
            _refuse(e, ctx)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KniffelError as e:
            name = ctx.invoked_subcommand or "kniffel"
            _fail(name, e, _lang_of(ctx))
        except _NO_ARGS_IS_HELP:
            raise
        except click.ClickException as e:
            _refuse(e, ctx)
        except (click.Abort, KeyboardInterrupt, EOFError) as e:
            sub = ctx.invoked_subcommand
            _interrupted(f"kniffel {sub}" if sub else "kniffel", _lang_of(ctx), e)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                first = inspect.cleandoc(command.help or "").split("\n\n")[0]
                short = (in_lang(first, _lang_of(ctx)) if first.strip() in _BILINGUAL
                         else command.get_short_help_str(formatter.width - 6 - len(name)))
                rows.append((name, short))
        if rows:
            with formatter.section(_help_heading(ctx, "cli.help.commands")):
                formatter.write_dl(rows)


class StrategyChoice(click.Choice[str]):
    """The registered strategy names, read when the command line runs (so a strategy registered
    after this module was imported is offered too)."""

    def __init__(self) -> None:
        super().__init__((), case_sensitive=False)

    @property  # type: ignore[override]
    def choices(self) -> Sequence[str]:
        return strategy_names()

    @choices.setter
    def choices(self, value: Sequence[str]) -> None:
        pass  # the registry is the only source of names


CACHE_HELP = both("cli.help.cache")

free_strike_option = click.option(
    "--free-strike", is_flag=True,
    help=both("cli.help.free_strike"))


def ruleset_from_options(rules_name: str, free_strike: bool, command: str,
                         lang: Lang) -> RuleSet:
    """The rule set that ``--rules`` and ``--free-strike`` ask for. ``--free-strike`` with a
    rule set in which any open box may be filled with 0 at any time anyway (the championship
    rules, Yahtzee, the rule sheet) would change nothing: it is refused with a sentence and exit
    status 2 instead of being ignored silently."""
    if free_strike and preset(rules_name).strike is not StrikeRule.FORCED:
        _fail(command, words("cli.free_strike_changes_nothing", lang, rules=rules_name), lang)
    return preset(rules_name, free_strike=free_strike)


def _console(err: bool = False) -> Console:
    return Console(stderr=err, highlight=False, soft_wrap=True)


def _table(title: str | None = None, **options: Any) -> Table:
    """A rich table; rich's table module is imported here, on first use (``kniffel solve``
    starts without it)."""
    from rich.table import Table

    return Table(title=title, **options)


@click.group(cls=KniffelGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kniffel", message="%(prog)s %(version)s")
@click.option("--lang", type=click.Choice(["de", "en"], case_sensitive=False), default=None,
              callback=lambda ctx, param, value: value and _remember_lang(ctx, param, value),
              is_eager=True, expose_value=False, help=both("cli.help.lang"))
def main() -> None:
    """Rule sets: extreme (Kniffel Extreme, default), kniffel (classic German rules),
    kniffel-championship (championship rules), yahtzee (official Hasbro rules),
    kniffel-anleitung (a rule sheet: free strikes, 100 per further Kniffel, no joker).
    """


main.help = f"{both('cli.help.main')}\n\n{inspect.cleandoc(main.help or '')}"


def _roll_json(rules: RuleSet, roll: Roll) -> str:
    values = evaluate(roll)
    boxes = {b.value: {"points": values[b] or 0, "fits": values[b] is not None}
             for b in rules.boxes}
    return json.dumps({"dice": list(roll.values), "boxes": boxes}, separators=(",", ":"))


def _roll_line(rules: RuleSet, roll: Roll) -> str:
    values = evaluate(roll)
    fitting = [f"{b.value} {values[b]}" for b in rules.boxes if values[b] is not None]
    return f"{roll}: {', '.join(fitting)}"


def _roll_table(rules: RuleSet, roll: Roll, lang: Lang) -> Table:
    values = evaluate(roll)
    title = words("cli.roll", lang, dice=dice_text(roll.d6, roll.d10, lang))
    table = _table(title=f"{title}  ({rules.title(lang)})")
    table.add_column(words("cli.col.box", lang))
    table.add_column("id", style="dim")
    table.add_column(words("cli.col.points", lang), justify="right")
    table.add_column(words("cli.col.fits", lang), justify="center")
    for b in rules.boxes:
        v = values[b]
        table.add_row(rules.box_name(b, lang), b.value, count(v or 0, lang),
                      words("cli.yes", lang) if v is not None else "–",
                      style=None if v is not None else "dim")
    return table


def _read_rolls(rules: RuleSet, lines: Iterable[str], out: TextIO, as_json: bool,
                lang: Lang) -> int:
    errors = 0
    err = _console(err=True)
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            roll = rules.parse_roll(text)
        except KniffelError as e:
            err.print(f"kniffel score: {words('cli.line', lang, line=number)}: "
                      f"{render(e, lang)}", markup=False)
            errors += 1
            continue
        out.write((_roll_json(rules, roll) if as_json else _roll_line(rules, roll)) + "\n")
    return errors


# Negative numbers are dice to complain about, not options: "-1" must reach the dice check.
@main.command(context_settings={"ignore_unknown_options": True})
@summary("cli.help.command.score")
@rules_option
@click.option("--json", "as_json", is_flag=True,
              help=both("cli.help.score.json"))
@lang_option
@click.argument("dice", nargs=-1)
def score(rules_name: str, as_json: bool, lang: Lang, dice: tuple[str, ...]) -> None:
    """DICE: for extreme six values, the five d6 (1–6) then the d10 (0–9) last; for the classic
    rule sets five d6. Separate them by spaces or commas ("5 5 5 6 6 6" or "5,5,5,6,6,6").
    Without DICE, rolls are read from standard input, one per line.

    \b
    Examples:
      kniffel score 5 5 5 6 6 6
      kniffel score --rules kniffel --json 3,3,3,5,5
      printf '1 2 3 4 5 0\\n6 6 6 6 6 6\\n' | kniffel score --json
    """
    rules = preset(rules_name)
    for arg in dice:
        if arg.startswith("-") and not arg.lstrip("-").isdigit():
            known = [o for p in click.get_current_context().command.params
                     if isinstance(p, click.Option) for o in p.opts]
            raise click.NoSuchOption(arg, possibilities=known)
    if not dice:
        errors = _read_rolls(rules, sys.stdin, sys.stdout, as_json, lang)
        if errors:
            sys.exit(2)
        return
    try:
        roll = rules.parse_roll(" ".join(dice))
    except KniffelError as e:
        _fail("score", e, lang)
    if as_json:
        click.echo(_roll_json(rules, roll))
    else:
        _console().print(_roll_table(rules, roll, lang))


def _points_text(rules: RuleSet, box: Box, lang: Lang) -> str:
    if box in FLAT_POINTS:
        return count(FLAT_POINTS[box], lang)
    if box.face is not None:
        return words("cli.points.face_sum", lang, face=box.face, low=count(0, lang),
                     high=count(rules.max_points(box), lang))
    if box is Box.SUPER_CHANCE:
        return words("cli.points.double_sum", lang)
    return words("cli.points.sum", lang)


@main.command()
@summary("cli.help.command.rules")
@rules_option
@free_strike_option
@lang_option
def rules(rules_name: str, free_strike: bool, lang: Lang) -> None:
    """Lists every box with its condition and points, then the bonus, chips, strike and joker
    rules.
    """
    ruleset = ruleset_from_options(rules_name, free_strike, "rules", lang)
    table = _table(title=ruleset.title(lang))
    console = _console()
    # The ids (for the API and --json) only where the terminal has room for them.
    with_ids = console.width >= 110
    table.add_column(words("cli.col.box", lang), no_wrap=True)
    if with_ids:
        table.add_column("id", style="dim", no_wrap=True)
    table.add_column(words("cli.col.condition", lang))
    table.add_column(words("cli.col.points", lang), justify="right", no_wrap=True)
    for box in ruleset.boxes:
        ids = [box.value] if with_ids else []
        table.add_row(ruleset.box_name(box, lang), *ids, BOX_TEXTS[box].rule(lang),
                      _points_text(ruleset, box, lang),
                      end_section=box is ruleset.upper_boxes[-1])
    console.print(table)
    for line in describe(ruleset, lang):
        console.print(f"• {line}", markup=False)


@main.command()
@summary("cli.help.command.show")
@click.argument("save", type=click.Path(dir_okay=False))
@lang_option
def show(save: str, lang: Lang) -> None:
    try:
        from kniffel.storage import load_game
        game = load_game(save)
    except (KniffelError, OSError) as e:
        _fail("show", e, lang)
    _console().print(sheet_table(game, lang))


def sheet_table(game: Game, lang: Lang = "de") -> Table:
    """The score sheet of ``game``: a column per player, totals and the leader or winner."""
    rules = game.rules
    table = _table(title=rules.title(lang))
    table.add_column(words("cli.col.box", lang))
    sheets = [game.sheet(i) for i in range(len(game.players))]
    for i, p in enumerate(game.players):
        marker = " ◀" if i == game.current_player else ""
        table.add_column(p.name + marker, justify="right")
    for box in rules.boxes:
        cells = []
        for s in sheets:
            e = s.entries.get(box)
            cells.append("" if e is None else ("–" if e.struck else count(e.points, lang)))
        table.add_row(rules.box_name(box, lang), *cells,
                      end_section=box is rules.upper_boxes[-1])
    rows = [
        ("cli.sheet.upper_sum", [s.upper_sum for s in sheets]),
        ("cli.sheet.to_bonus", [s.bonus_missing for s in sheets]),
        ("cli.sheet.bonus", [s.bonus for s in sheets]),
        ("cli.sheet.lower_sum", [s.lower_sum for s in sheets]),
    ]
    if rules.extra_kniffel_bonus:
        rows.append(("cli.sheet.extra_kniffel", [s.extra_bonus for s in sheets]))
    if rules.chips:
        rows.append(("cli.sheet.chips", [s.chips_left for s in sheets]))
    for label, vals in rows:
        table.add_row(words(label, lang), *(count(v, lang) for v in vals), style="dim")
    table.add_row(words("cli.sheet.total", lang), *(count(s.total, lang) for s in sheets),
                  style="bold")
    return table


# --- kniffel simulate -------------------------------------------------------------------------


@main.command()
@summary("cli.help.command.simulate")
@rules_option
@free_strike_option
@click.option("--strategy", "strategy_name", type=StrategyChoice(), default="greedy",
              show_default=True,
              help=both("cli.help.simulate.strategy"))
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help=both("cli.help.simulate.games"))
@click.option("--seed", type=int, default=0, show_default=True,
              help=both("cli.help.simulate.seed"))
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help=both("cli.help.simulate.plot"))
@click.option("--json", "as_json", is_flag=True, help=both("cli.help.simulate.json"))
@lang_option
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help=both("cli.help.simulate.jobs"))
def simulate_cmd(rules_name: str, free_strike: bool, strategy_name: str, games: int, seed: int,
                 plot: str | None, as_json: bool, lang: Lang, jobs: int | None) -> None:
    """Prints mean, standard deviation, percentiles, bonus rate and, per box, the mean points and
    how often it was struck. A Rich progress bar runs on stderr. Ctrl-C (or SIGTERM) stops the
    run: the games 0…N-1 finished by then are printed as a partial result (the same as
    ``--games N``), exit status 130. A ``--plot`` target is checked before any game runs.
    """
    from kniffel.interrupt import EXIT_INTERRUPTED, interruptible, shielded
    from kniffel.simulate import SimulationInterrupted, simulate

    ruleset = ruleset_from_options(rules_name, free_strike, "simulate", lang)
    err = _console(err=True)
    try:
        from kniffel.engine.strategy import get_strategy

        strategy = get_strategy(strategy_name, ruleset)
    except KniffelError as e:
        _fail("simulate", e, lang)
    if plot is not None:
        problem = plot_target_problem(plot, lang)
        if problem is not None:
            _fail("simulate", problem, lang)
    try:
        with interruptible():
            from rich.progress import BarColumn, Progress, TimeRemainingColumn

            with Progress("[progress.description]{task.description}", BarColumn(),
                          _count_column(lang), TimeRemainingColumn(), console=err,
                          transient=True, disable=not err.is_terminal) as bar:
                task = bar.add_task(f"{shown_strategy(strategy.name, lang)} / "
                                    f"{ruleset.title(lang)}", total=games)
                result = simulate(ruleset, strategy, games, seed,
                                  progress=lambda done, _n: bar.update(task, completed=done),
                                  jobs=jobs or os.cpu_count() or 1)
    except KeyboardInterrupt as e:
        with shielded():  # a second Ctrl-C does not cut the partial result short
            partial = e.partial if isinstance(e, SimulationInterrupted) else None
            _print_interrupted(partial, ruleset, strategy.name, games, seed, plot, as_json, lang)
        sys.exit(EXIT_INTERRUPTED)
    if plot is not None:
        try:
            with interruptible():
                problem = _plot(result, plot, lang)
        except KeyboardInterrupt:
            _console(err=True).print(f"kniffel simulate: {words('interrupt.stopped', lang)} "
                                     f"{words('simulate.plot_skipped', lang, where=plot)}",
                                     markup=False)
            sys.exit(EXIT_INTERRUPTED)
        if problem is not None:
            _fail("simulate", problem, lang)
    if as_json:
        click.echo(json.dumps(rounded(result.to_json())))
        return
    _print_simulation(result, ruleset, lang)


simulate_cmd.name = "simulate"


def _print_interrupted(partial: SimulationResult | None, rules: RuleSet, strategy: str,
                       games: int, seed: int, plot: str | None, as_json: bool,
                       lang: Lang) -> None:
    """After Ctrl-C: "interrupted after N of M games" on stderr, then the result of those N
    games (JSON with ``"partial": true`` and ``"games_requested"``); no plot is drawn."""
    done = partial.games if partial is not None else 0
    sentence = words("simulate.interrupted", lang, done=count(done, lang), games=count(games, lang))
    if plot is not None:
        sentence += " " + words("simulate.plot_skipped", lang, where=plot)
    _console(err=True).print(f"kniffel simulate: {sentence}", markup=False)
    if as_json:
        data = (rounded(partial.to_json()) if partial is not None else
                {"rules": rules.name, "strategy": strategy, "seed": seed, "games": 0,
                 "partial": True, "games_requested": games, "totals": []})
        click.echo(json.dumps(data))
    elif partial is not None:
        _print_simulation(partial, rules, lang)


def _print_simulation(result: SimulationResult, rules: RuleSet, lang: Lang) -> None:
    """The summary table (mean, spread, percentiles, bonus rate, speed) and the box table."""
    from kniffel.engine.messages import number, percent

    console = _console()
    summary = _table(title=_simulation_title(result, lang), show_header=False)
    summary.add_column("")
    summary.add_column("", justify="right")
    rows: list[tuple[str, str]] = [
        (words("simulate.mean", lang), number(result.mean, lang)),
        (words("simulate.std", lang), number(result.std, lang)),
        (words("simulate.min", lang), count(min(result.totals), lang)),
    ]
    rows += [(words("simulate.percentile", lang, p=p), number(v, lang))
             for p, v in result.percentiles().items()]
    rows += [
        (words("simulate.max", lang), count(max(result.totals), lang)),
        (words("simulate.bonus_rate", lang), percent(result.bonus_rate, lang)),
    ]
    if rules.chips:
        rows.append((words("simulate.chips", lang), number(result.chips_per_game, lang, 2)))
    rows += [
        (words("simulate.speed", lang), number(result.games_per_second, lang)),
    ]
    for label, value in rows:
        summary.add_row(label, value)
    console.print(summary)
    boxes = _table()
    boxes.add_column(words("simulate.col_box", lang))
    boxes.add_column(words("simulate.col_mean", lang), justify="right")
    boxes.add_column(words("simulate.col_struck", lang), justify="right")
    for box in rules.boxes:
        boxes.add_row(rules.box_name(box, lang), number(result.box_mean(box), lang, 2),
                      percent(result.strike_rate(box), lang),
                      end_section=box is rules.upper_boxes[-1])
    console.print(boxes)


def _simulation_title(result: SimulationResult, lang: Lang) -> str:
    """"Kniffel · gierig · 1.000 Spiele · Startwert 0"; for an interrupted run "… 250 von
    1.000 Spielen (abgebrochen) …"."""
    if result.partial:
        return words("simulate.title_partial", lang, rules=result.rules,
                     strategy=result.strategy, games=count(result.games, lang),
                     requested=count(result.requested or 0, lang), seed=result.seed)
    return words("simulate.title", lang, rules=result.rules, strategy=result.strategy,
                 games=count(result.games, lang), seed=result.seed)


def rounded(value: Any, digits: int = 4) -> Any:
    """``value`` (JSON: dicts, lists, numbers) with every float rounded to ``digits`` decimals,
    so that ``733.0500000000002`` is written ``733.05``."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v, digits) for v in value]
    return value


def histogram_bins(totals: Sequence[int]) -> int:
    """About the square root of the number of games (5–60 bins), never more than there are
    different totals: 200 games get 14 bins."""
    n = len(totals)
    return max(1, min(len(set(totals)), max(5, min(60, round(math.sqrt(n))))))


def _first_existing(path: Path) -> Path:
    """The nearest of ``path``'s ancestors that exists (as anything), or ``path`` itself."""
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return candidate
    return Path(".")


def plot_target_problem(path: str, lang: Lang) -> str | None:
    """Why a PNG cannot be written to ``path``, as a sentence, or ``None`` when it can (and
    matplotlib loads): checked before any game runs. The folder must exist and be one, the path
    must not be a folder; writing is tried: an existing file is opened for appending (nothing
    written), a missing one is created and removed again (only the file this check made)."""
    import errno

    target = Path(path)
    folder = target.parent
    if target.is_dir():
        return words("os.is_folder", lang, where=path)
    if not folder.is_dir():
        if _first_existing(folder).is_dir():
            return words("os.no_folder", lang, where=path)
        return words("os.not_a_folder", lang, where=path)
    try:
        if os.path.lexists(target):
            os.close(os.open(target, os.O_WRONLY | os.O_APPEND))
        else:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            os.unlink(target)
    except FileExistsError:
        pass  # made meanwhile by someone else: theirs, and writing is tried after the games
    except OSError as e:
        if e.errno in (errno.EACCES, errno.EPERM):
            return words("os.permission", lang, where=path)
        if e.errno == errno.EROFS:
            return words("simulate.read_only", lang, where=path)
        if e.errno == errno.EISDIR:
            return words("os.is_folder", lang, where=path)
        if e.errno == errno.ENOENT:  # the folder is there, but takes no new files (/proc)
            return words("simulate.no_new_files", lang, where=path, folder=str(folder))
        return words("os.cannot_write", lang, where=path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot
    except Exception:  # an ImportError, or a broken installation: no traceback either way
        return words("simulate.no_matplotlib", lang)
    return None


def _plot(result: SimulationResult, path: str, lang: Lang) -> str | None:
    """Draw the plot of ``result`` to ``path``; why that failed, as a sentence, or ``None``."""
    try:
        plot_totals(result, path, lang)
    except OSError as e:
        return _write_failed(path, e, lang)
    except Exception:  # matplotlib's own failures: one sentence, no traceback
        return words("simulate.plot_failed", lang, where=path)
    return None


def plot_totals(result: SimulationResult, path: str, lang: Lang = "de") -> None:
    """Write a PNG histogram of ``result``'s totals to ``path`` (matplotlib, no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from kniffel.engine.messages import number

    fig, ax = plt.subplots(figsize=(8, 4.5))
    try:
        ax.hist(result.totals, bins=histogram_bins(result.totals), color="#3b6ea8",
                edgecolor="white")
        ax.axvline(result.mean, color="#c0392b", linestyle="--",
                   label=words("simulate.plot_mean", lang, mean=number(result.mean, lang)))
        ax.set_xlabel(words("simulate.plot_x", lang))
        ax.set_ylabel(words("simulate.plot_y", lang))
        ax.set_title(_simulation_title(result, lang))
        ax.legend()
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)




# --- history, statistics, export and import ----------------------------------------------------

db_option = click.option(
    "--db", "db_path", type=click.Path(dir_okay=False), default=None,
    help=both("cli.help.db", path=default_db_path()))


def _open_history(db_path: str | None, command: str, lang: Lang = "de", *,
                  create: bool = True, suffix: str = "") -> History:
    """The history database, or a clear message (followed by ``suffix``) and exit status 2.
    With ``create=False`` (the commands that only read) nothing is written: a missing or empty
    database is not created but read as empty, and a read-only one can be read."""
    try:
        from kniffel.history import History
        return History(db_path, create=create)
    except KniffelError as e:
        _fail(command, f"{render(e, lang)}{suffix}", lang)


def _no_database(db: History, lang: Lang) -> None:
    """Tell on stderr that the database does not exist (and was not created)."""
    if not db.exists:
        _console(err=True).print(words("cli.no_database", lang, where=str(db.path)),
                                 markup=False)


def _round_of(game: Game) -> tuple[int, int]:
    """The round an unfinished game is in and how many it has."""
    return game.round, len(game.rules.boxes)


@main.command()
@summary("cli.help.command.history")
@db_option
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help=both("cli.help.history.limit"))
@lang_option
def history(db_path: str | None, limit: int | None, lang: Lang) -> None:
    """Only reads: a missing or empty database file stays as it is.
    """
    from kniffel.engine.messages import count

    with _open_history(db_path, "history", lang, create=False) as db:
        _no_database(db, lang)
        try:
            records = db.games(limit)
            # an open game by its round, as a player counts (not by its stored actions)
            rounds = {r.id: _round_of(db.load(r.id)) for r in records if not r.finished}
        except KniffelError as e:
            _fail("history", e, lang)
    if not records:
        _console().print(words("history.list.empty", lang), markup=False)
        return
    table = _table(title=words("history.list.title", lang))
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(words("history.list.started", lang))
    table.add_column(words("history.list.rules", lang))
    table.add_column(words("history.list.players", lang), overflow="fold")
    table.add_column(words("history.list.state", lang))
    for r in records:
        people = ", ".join(n if t is None else f"{n} {count(t, lang)}"
                           for n, t in zip(r.players, r.totals, strict=True))
        state = (words("history.list.finished", lang) if r.finished else
                 words("history.list.unfinished_round", lang, round=rounds[r.id][0],
                       rounds=rounds[r.id][1]))
        table.add_row(str(r.id), r.started_at.replace("T", " ")[:16], rules_title(r.rules, lang),
                      people, state)
    _console().print(table)


@main.command()
@summary("cli.help.command.stats")
@db_option
@click.option("--player", default=None, help=both("cli.help.stats.player"))
@lang_option
def stats(db_path: str | None, player: str | None, lang: Lang) -> None:
    """One table per rule set; Bonus and Kniffel are the shares of a player's games with the bonus
    and with at least one Kniffel. Only reads: a missing or empty database file stays as it is.
    """
    from kniffel.engine.messages import count, number, percent

    with _open_history(db_path, "stats", lang, create=False) as db:
        _no_database(db, lang)
        try:
            rows = db.stats(player)
        except KniffelError as e:
            _fail("stats", e, lang)
    if not rows:
        _console().print(words("history.stats.none_for", lang, player=player) if player else
                         words("history.stats.none", lang), markup=False)
        return
    console = _console()
    keys = ("games", "wins", "average", "best", "bonus", "kniffel")
    heads = [words(f"history.stats.{key}", lang) for key in keys]
    # the table's width without the names: borders, padding and the number columns
    narrow = console.width < 1 + 3 * (len(keys) + 1) + sum(map(len, heads)) + 10
    for rules_name in dict.fromkeys(s.rules for s in rows):
        title = words("history.stats.title", lang, rules=rules_name)
        lines = [(s.name, [count(s.games, lang), count(s.wins, lang), number(s.average, lang, 1),
                           count(s.best, lang), percent(s.bonus_rate, lang, 0),
                           percent(s.kniffel_rate, lang, 0)])
                 for s in rows if s.rules == rules_name]
        if narrow:  # too narrow for the table: a block per player, nothing cut
            console.print(title, markup=False)
            for name, values in lines:
                console.print(f"  {name}", markup=False)
                cells = [f"{h} {v}" for h, v in zip(heads, values, strict=True)]
                for start in (0, 3):
                    console.print("    " + " · ".join(cells[start:start + 3]), markup=False)
            continue
        table = _table(title=title)
        table.add_column(words("history.stats.player", lang), overflow="fold", min_width=10)
        for head in heads:
            # a number column is never narrower than its heading: headings are never cut
            table.add_column(head, justify="right", no_wrap=True, min_width=len(head))
        for name, values in lines:
            table.add_row(name, *values)
        console.print(table)
    console.print(words("history.stats.legend", lang), markup=False, soft_wrap=False)


FORCE_HELP = both("cli.help.force")


@main.command()
@summary("cli.help.command.export")
@db_option
@click.option("--game", "game_id", type=click.IntRange(min=1), default=None, metavar="ID",
              help=both("cli.help.export.game"))
@click.option("--force", is_flag=True, help=FORCE_HELP)
@lang_option
@click.argument("target", type=click.Path(dir_okay=False, allow_dash=True), default="-")
def export(db_path: str | None, game_id: int | None, force: bool, lang: Lang,
           target: str) -> None:
    """The file is the one the browser app imports too (format kniffel-history, version 2: uid,
    start and finish time and the game of every stored game). With --game ID, only that game
    is written, as a save file (kniffel show, kniffel advise --game, kniffel review read it).

    TARGET is checked before anything is read: it is never the history database itself or any
    other SQLite database, an existing file is replaced only with --force, and a missing folder
    is not created. Only reads the history: a missing or empty database file stays as it is.
    """
    from kniffel.engine.messages import plural
    from kniffel.storage import check_target, now, save_text, write_target

    if target != "-":
        try:
            check_target(target, force=force, keep=[db_path or default_db_path()])
        except KniffelError as e:
            _fail("export", e, lang)
    with _open_history(db_path, "export", lang, create=False) as db:
        if game_id is None:
            _no_database(db, lang)
        try:
            if game_id is None:
                data = db.export()
                out = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
                done = plural("cli.exported", len(data["games"]), lang, where=target)
            else:
                record = next((r for r in db.games() if r.id == game_id), None)
                out = save_text(db.load(game_id), saved=now(),
                                started=None if record is None else record.started_at,
                                finished_at=None if record is None else record.finished_at)
                done = words("history.exported_game", lang, id=game_id, where=target)
        except KniffelError as e:
            _fail("export", e, lang)
    if target == "-":
        click.echo(out, nl=False)
        return
    try:
        write_target(target, out)
    except KniffelError as e:
        _fail("export", e, lang)
    _console(err=True).print(done, markup=False)


@main.command("import")
@summary("cli.help.command.import")
@db_option
@lang_option
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
def import_cmd(db_path: str | None, lang: Lang, source: str) -> None:
    """Reads the desktop's and the browser app's exports (every version), and a single saved game
    (``kniffel export --game``, a rescue file of ``kniffel play``). Every game is checked
    first; an invalid file is refused and nothing is changed (no database is created). Games
    already stored (by uid, or by content: the same game from a file of another version) are
    skipped and counted.
    """
    from kniffel.engine.history_file import decode_history

    nothing = f" {words('cli.nothing_imported', lang)}"
    try:
        raw = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as e:
        _fail("import", f"{_message(e, lang)}{nothing}", lang)
    except UnicodeDecodeError:
        _fail("import", f"{source}: {words('file.not_utf8', lang)}{nothing}", lang)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        _fail("import", f"{source}: {words('file.not_json', lang)}{nothing}", lang)
    undated: str | None = None  # a save that states no time: the file's own
    if source != "-":
        from datetime import UTC, datetime

        with contextlib.suppress(OSError):
            undated = datetime.fromtimestamp(os.stat(source).st_mtime, UTC).isoformat(
                timespec="seconds")
    try:
        entries = decode_history(data, undated=undated)
    except KniffelError as e:
        _fail("import", f"{source}: {render(e, lang)}{nothing}", lang)
    with _open_history(db_path, "import", lang, suffix=nothing) as db:
        try:
            result = db.add_entries(entries)
        except KniffelError as e:
            _fail("import", f"{render(e, lang)}{nothing}", lang)
    from kniffel.engine.messages import plural

    _console().print(words("cli.imported.both", lang,
                           new=plural("cli.imported.new", result.imported, lang),
                           skipped=plural("cli.imported.skipped", result.skipped, lang)),
                     markup=False)


# --- kniffel play -------------------------------------------------------------------------------


def parse_seat(text: str) -> Seat:
    """The seat ``--player`` names: ``NAME`` (a person) or ``NAME:STRATEGY`` (a computer); a
    suffix after the last colon that names no registered strategy is refused with
    :class:`~kniffel.engine.errors.UnknownStrategyError` listing them."""
    from kniffel.engine.errors import UnknownStrategyError
    from kniffel.engine.match import Seat

    name, sep, strategy = text.rpartition(":")
    if not sep:
        return Seat(text)
    key = strategy.strip().lower()
    if key not in strategy_names():
        raise UnknownStrategyError(
            f"unknown strategy {strategy!r} in {text!r}; a computer player is NAME:STRATEGY "
            f"with one of: {', '.join(strategy_names())}",
            code="strategy.unknown",
            params={"name": strategy.strip(), "strategies": list(strategy_names())})
    return Seat(name, key)


def _has_terminal() -> bool:
    """Whether ``kniffel play`` talks to a terminal: its input, its output and the error
    stream Textual draws on (a closed pipe or a redirection is none)."""
    try:
        return all(stream is not None and stream.isatty()
                   for stream in (sys.stdin, sys.stdout, sys.stderr))
    except (ValueError, OSError):  # a closed stream
        return False


def _stored_prefix(db: History, game: Game) -> tuple[int, Game] | None:
    """The unfinished game of ``db`` that ``game`` continues (the same players, rules, seed
    and start player, its moves the first moves of ``game``), the longest such; or None."""
    best: tuple[int, Game] | None = None
    for record in db.unfinished():
        stored = db.load(record.id)
        n = len(stored.actions)
        if (stored.rules, stored.players, stored.seed, stored.start_player, stored.mode) == (
                game.rules, game.players, game.seed, game.start_player, game.mode) \
                and game.actions[:n] == stored.actions \
                and (best is None or n > len(best[1].actions)):
            best = record.id, stored
    return best


@main.command()
@summary("cli.help.command.play")
@rules_option
@free_strike_option
@lang_option
@db_option
@click.option("--resume", type=int, is_flag=False, flag_value=0, default=None, metavar="[ID]",
              help=both("cli.help.play.resume"))
@click.option("--load", "load", type=click.Path(dir_okay=False), default=None, metavar="SAVE",
              help=both("cli.help.play.load"))
@click.option("--player", "players", multiple=True, metavar="NAME[:STRATEGY]",
              help=both("cli.help.play.player"))
@click.option("--start", type=click.IntRange(min=1, max=8), default=None,
              help=both("cli.help.play.start"))
@click.option("--speed", type=click.FloatRange(min=0), default=0.5, show_default=True,
              help=both("cli.help.play.speed"))
@click.option("--seed", type=int, default=None, help=both("cli.help.play.seed"))
def play(rules_name: str, free_strike: bool, lang: Lang, db_path: str | None,
         resume: int | None, load: str | None, players: tuple[str, ...], start: int | None,
         speed: float, seed: int | None) -> None:
    """Without --player a setup screen asks for the rule set and players. Every action is saved in
    the history database as it happens: quit with q at any time, continue with --resume (the
    last unfinished game) or --resume ID (any of them). A game that could not be stored is
    written to a rescue file; --load FILE plays it on.
    """
    from kniffel.engine.match import validate_players
    from kniffel.extras import require

    require("tui")  # textual (kniffel[tui]): else one sentence naming the extra, status 2
    from kniffel.tui import KniffelApp

    ctx = click.get_current_context()
    given = ctx.get_parameter_source("rules_name") not in (
        click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP)
    if resume is not None or load is not None:
        against = [name for name, used in (
            ("--resume", resume is not None and load is not None), ("--player", bool(players)),
            ("--rules", given), ("--free-strike", free_strike), ("--start", start is not None),
            ("--seed", seed is not None)) if used]
        if against:
            code = "play.load_conflict" if load is not None else "play.resume_conflict"
            _fail("play", words(code, lang, options=against), lang)
    if resume is not None and resume < 0:
        _fail("play", words("history.no_such_game", lang, id=resume), lang)
    ruleset = ruleset_from_options(rules_name, free_strike, "play", lang)
    try:  # players, names and strategies are checked before any file or screen is opened
        seats = [parse_seat(p) for p in players]
        if seats:
            validate_players(seats, ruleset)
    except (KniffelError, OSError) as e:  # a file a computer player needs: named, no traceback
        _fail("play", e, lang)
    if start is not None and start > max(len(seats), 1):
        _fail("play", words("play.start_beyond", lang, start=start, players=len(seats)), lang)
    loaded: Game | None = None
    if load is not None:
        try:
            from kniffel.storage import load_game
            loaded = load_game(load)
        except (KniffelError, OSError) as e:
            _fail("play", e, lang)
        if loaded.is_over():
            _fail("play", words("play.load_over", lang, where=load), lang)
    terminal = _has_terminal()
    # without a terminal nothing is created: a missing history is only read (as empty)
    with _open_history(db_path, "play", lang, create=terminal) as db:
        found: tuple[int | None, Game] | None = None
        stored: tuple[Any, ...] | None = None
        try:
            if resume == 0:
                found = db.latest_unfinished()
                if found is None:
                    _fail("play", words("cli.no_unfinished", lang), lang)
            elif resume is not None:
                game = db.load(resume)
                if game.is_over():
                    _fail("play", words("play.not_unfinished", lang, id=resume), lang)
                found = resume, game
            elif loaded is not None:
                prefix = _stored_prefix(db, loaded)
                found = (None if prefix is None else prefix[0]), loaded
                stored = () if prefix is None else prefix[1].actions
        except KniffelError as e:
            _fail("play", e, lang)
        if found is not None:
            for p in found[1].players:
                if p.strategy is not None and p.strategy not in strategy_names():
                    _fail("play", words("play.resume_strategy", lang, id=found[0] or "–",
                                        strategy=p.strategy, player=p.name,
                                        strategies=list(strategy_names())), lang)
        if not terminal:
            _fail("play", words("play.no_terminal", lang), lang)
        try:
            app = KniffelApp(lang=lang, rules=ruleset, history=db, seats=seats, resume=found,
                             stored=stored, speed=speed, seed=seed,
                             start=None if start is None else start - 1)
            app.run()
        except KniffelError as e:
            _fail("play", e, lang)
        # the last try to write the game, while the history is still open
        report = app.quit_report()
    if report:
        _console(err=True).print(report, markup=False)
    if app.unsaved_on_exit:
        sys.exit(1)


# --- solver: kniffel solve / kniffel advise -------------------------------------------------


def _count_column(lang: Lang) -> Any:
    """A progress bar's "done/total" column with the numbers as ``lang`` writes them
    ("12.000/359.424" in German; rich's own column writes no separators)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    from kniffel.engine.messages import count

    class CountColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            total = "?" if task.total is None else count(int(task.total), lang)
            return Text(f"{count(int(task.completed), lang)}/{total}", style="progress.download")

    return CountColumn()


@contextlib.contextmanager
def _work_progress(title: str, lang: Lang) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr for a command's long work (where stderr is a terminal; none in
    a file or a pipe), shown once the work has run half a second: the ``step(done, total)``
    the work calls as it goes. The bar is removed when the work ends."""
    import time

    err = _console(err=True)
    if not err.is_terminal:
        yield lambda done, total: None
        return
    began = time.monotonic()
    bar = _solve_progress(err, lang, transient=True)
    task = None

    def step(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            if time.monotonic() - began < 0.5:
                return
            bar.start()
            task = bar.add_task(title, total=total, rate="")
        bar.update(task, completed=done, total=total)

    try:
        yield step
    finally:
        if task is not None:
            bar.stop()


def _solve_progress(console: Console, lang: Lang, *, transient: bool = False) -> Any:
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=20),
                    TaskProgressColumn(), _count_column(lang), TextColumn("{task.fields[rate]}"),
                    TimeRemainingColumn(), console=console, transient=transient)


def _run_solve(rules: RuleSet, max_open: int | None, cache: str | None, force: bool,
               console: Console, lang: Lang = "de") -> Any:
    """Build (or load and check) the value table of ``rules`` with a progress bar (in a
    terminal); what it tells is in ``lang``."""
    import time
    from pathlib import Path

    from kniffel.solver import Progress as SolveProgress
    from kniffel.solver import TableMismatchError, TableMissingError, load_table
    from kniffel.solver import solve as solve_table

    directory = Path(cache) if cache else None
    if not force:
        try:
            return load_table(rules, max_open=max_open, directory=directory)
        except TableMissingError:
            pass
        except TableMismatchError as e:
            console.print(words("solve.recompute", lang, problem=render(e, lang)), markup=False)
            force = True
    def notice(message: str) -> None:
        from kniffel.engine.messages import count, render_code
        from kniffel.solver.solve import Notice

        if isinstance(message, Notice):  # in the user's language
            params = dict(message.params)
            sets = params.get("sets")
            if isinstance(sets, int):
                params["sets"] = count(sets, lang)
            message = render_code(message.code, params, lang)
        console.print(message, markup=False)

    if not console.is_terminal:  # no bar into a file or a pipe (nor its import: rich.progress)
        return solve_table(rules, max_open=max_open, directory=directory, force=force,
                           notice=notice)
    began = time.perf_counter()
    with _solve_progress(console, lang) as bar:
        task = bar.add_task(f"{rules.name}", total=None, rate="")

        def update(p: SolveProgress) -> None:
            spent = time.perf_counter() - began
            rate = (p.done - p.resumed) / spent if spent > 0 else 0.0
            bar.update(task, total=p.total, completed=p.done,
                       description=f"{rules.name} {p.layer}/{p.layers}",
                       rate=f"{count(round(rate), lang)}/s")

        return solve_table(rules, max_open=max_open, directory=directory, progress=update,
                           force=force, notice=notice)


@main.command()
@summary("cli.help.command.solve")
@rules_option
@free_strike_option
@click.option("--threads", type=int, default=None,
              help=both("cli.help.solve.threads"))
@click.option("--device", type=click.Choice(["cpu", "gpu"]), default="cpu", show_default=True,
              help=both("cli.help.solve.device"))
@click.option("--max-open", type=int, default=None,
              help=both("cli.help.solve.max_open"))
@click.option("--force", is_flag=True, help=both("cli.help.solve.force"))
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help=CACHE_HELP)
@lang_option
def solve(rules_name: str, free_strike: bool, threads: int | None, device: str,
          max_open: int | None, force: bool, cache_dir: str | None, lang: Lang) -> None:
    """Builds the table of expected final scores of optimal solitaire play (or loads and checks the
    stored one) and prints the expected score of the empty sheet. Long solves resume where they
    stopped: Ctrl-C or SIGTERM stop it (exit status 130), the last checkpoint is kept.
    """
    from kniffel.engine.messages import number
    from kniffel.interrupt import EXIT_INTERRUPTED, interruptible
    from kniffel.solver import SolverError, set_threads

    console = _console()
    err = _console(err=True)
    if device == "gpu":
        _fail("solve", words("cli.no_gpu", lang), lang)
    rules = ruleset_from_options(rules_name, free_strike, "solve", lang)
    try:
        with interruptible():
            n = set_threads(threads)
            table = _run_solve(rules, max_open, cache_dir, force, console, lang)
    except SolverError as e:
        _fail("solve", e, lang)
    except KeyboardInterrupt:
        err.print(f"kniffel solve: {words('cli.interrupted', lang)}", markup=False)
        sys.exit(EXIT_INTERRUPTED)
    header = table.header
    where = str(table.path) if table.path is not None else words("cli.table_not_kept", lang)
    console.print(words("cli.table", lang, where=where,
                       states=count(table.layout.states, lang), threads=n), markup=False)
    if header.get("seconds") is not None:
        console.print(words("cli.computed_in", lang,
                            seconds=number(float(header["seconds"]), lang, 2)), markup=False)
    if table.layout.is_full:
        console.print(words("cli.expected_score", lang, rules=rules.name,
                           score=number(table.expected_score(), lang, 4)), markup=False)
    else:
        console.print(words("cli.endgames", lang, most=table.layout.max_open), markup=False)


def _parse_filled(rules: RuleSet, items: tuple[str, ...]) -> dict[Box, Any]:
    from kniffel.engine.errors import IllegalMoveError
    from kniffel.engine.rules import Entry

    entries: dict[Box, Entry] = {}
    for item in items:
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            name, _, value = part.partition("=")
            box = rules.box(name.strip())
            if box in entries:
                raise IllegalMoveError(f"box {box.value} is given twice", code="advise.box_twice",
                                       params={"box": box.value})
            if not value.strip() or value.strip() in ("-", "x", "X"):
                entries[box] = Entry(0, struck=True)
                continue
            try:
                points = int(value)
            except ValueError:
                raise IllegalMoveError(f"{part!r}: the points must be a number",
                                       code="advise.points_not_number",
                                       params={"text": part}) from None
            if points not in rules.possible_points(box):
                raise IllegalMoveError(f"{box.value} cannot hold {points} points in {rules.name}",
                                       code="advise.points_impossible",
                                       params={"box": box.value, "points": points,
                                               "rules": rules.name})
            entries[box] = Entry(points)
    return entries


@main.command(context_settings={"ignore_unknown_options": True})
@summary("cli.help.command.advise")
@rules_option
@free_strike_option
@click.option("--filled", multiple=True, metavar="BOX=POINTS",
              help=both("cli.help.advise.filled"))
@click.option("--upper", type=int, default=None,
              help=both("cli.help.advise.upper"))
@click.option("--chips", type=int, default=None, help=both("cli.help.advise.chips"))
@click.option("--rolls-used", type=int, default=None,
              help=both("cli.help.advise.rolls_used"))
@click.option("--chip-used", is_flag=True, help=both("cli.help.advise.chip_used"))
@click.option("--game", "save", type=click.Path(dir_okay=False), default=None,
              help=both("cli.help.advise.game"))
@click.option("--top", type=int, default=10, show_default=True, help=both("cli.help.advise.top"))
@click.option("--json", "as_json", is_flag=True, help="JSON")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help=CACHE_HELP)
@lang_option
@click.argument("dice", nargs=-1)
def advise(rules_name: str, free_strike: bool, filled: tuple[str, ...], upper: int | None,
           chips: int | None, rolls_used: int | None, chip_used: bool, save: str | None,
           top: int, as_json: bool, cache_dir: str | None, lang: Lang,
           dice: tuple[str, ...]) -> None:
    """Every legal choice with its expected final score under optimal play and its loss against
    the best, for the player, throw and dice named in the first line. Without DICE: the expected
    final score from the start of the turn. A Kniffel Extreme position no table covers is
    answered by the expert, whose values are an estimate (the output says so).

    \b
    Examples:
      kniffel advise --rules yahtzee 1 3 3 5 6
      kniffel advise --rules kniffel --filled sixes=24,kniffel=50 --rolls-used 2 6 6 6 2 3
      kniffel advise --game partie.json
    """
    from pathlib import Path

    from kniffel.engine.messages import count, number
    from kniffel.solver import TableMissingError
    from kniffel.solver.advise import Advice, Advisor, Position

    err = _console(err=True)
    console = _console()
    player: str | None = None
    try:
        if save:
            from kniffel.storage import load_game
            game = load_game(save)
            rules = game.rules
            pos = Position.from_game(game)
            player = game.players[game.current_player or 0].name
        else:
            rules = ruleset_from_options(rules_name, free_strike, "advise", lang)
            entries = _parse_filled(rules, filled)
            roll = rules.parse_roll(" ".join(dice)) if dice else None
            used = rolls_used if rolls_used is not None else (1 if roll else 0)
            pos = Position(rules, entries, chips, roll, used, chip_used, upper)
        directory = Path(cache_dir) if cache_dir else None
        advisor = Advisor(rules, directory=directory, expert=rules.d10)
        try:
            result = advisor.advise(pos)
        except TableMissingError as e:
            if rules.d10:  # the expert's estimate, as in kniffel review
                found = advisor.estimate(pos, e)
                if not isinstance(found, Advice):
                    _fail("advise", " ".join(render(x, lang) for x in found), lang)
                result = found
            else:
                if not (sys.stdin.isatty() and confirm(
                        f"{render(e, lang)}\n{words('cli.build_now', lang)}", lang)):
                    raise
                table = _run_solve(rules, None, cache_dir, False, err, lang)
                result = Advisor(rules, table=table).advise(pos)
    except (KniffelError, OSError) as e:
        _fail("advise", e, lang)
    shown = result.options[:top] if top > 0 else result.options
    roll = pos.roll
    if as_json:
        click.echo(json.dumps({
            "rules": rules.name, "score_so_far": result.score_so_far, "source": result.source,
            "options": [{"action": _action_json(o.action), "text": o.describe(rules, lang),
                         "expected": round(o.expected, 6), "loss": round(o.loss, 6),
                         "points": o.points} for o in shown],
            "player": player,
            "roll": None if roll is None else {"d6": list(roll.d6), "d10": roll.d10},
            "rolls_used": pos.rolls_used, "chip_used": pos.chip_used}, ensure_ascii=False))
        return
    if roll is None:
        moment = words("advise.at_start", lang)
    else:
        shown_dice = dice_text(roll.d6, roll.d10, lang)
        moment = (words("advise.at_chip", lang, dice=shown_dice) if pos.chip_used else
                  words("advise.at_throw", lang, throw=pos.rolls_used, dice=shown_dice))
    if player is not None:
        moment = words("advise.for_player", lang, name=player, moment=moment)
    table = _table(title=words("advise.title", lang, title=rules.title(lang), moment=moment,
                               score=count(result.score_so_far, lang)))
    table.add_column("#", justify="right")
    table.add_column(words("advise.col_choice", lang))
    table.add_column(words("advise.col_expected", lang), justify="right")
    table.add_column(words("advise.col_loss", lang), justify="right")
    for i, o in enumerate(shown, start=1):
        table.add_row(str(i), o.describe(rules, lang), number(o.expected, lang, 2),
                      number(o.loss, lang, 2), style="bold" if i == 1 else None)
    console.print(table)
    if len(result.options) > len(shown):
        console.print(words("advise.more", lang, count=count(len(result.options) - len(shown),
                                                             lang)), markup=False)
    if result.source == "model":
        console.print(words("advise.estimate", lang), markup=False, soft_wrap=False)


def _action_json(action: Any) -> Any:
    from kniffel.engine.game import action_to_json

    return action_to_json(action)


#: A decision that loses at least this many expected points is listed by ``kniffel review``
#: (every decision with ``--all``).
REVIEW_LEAST = 0.5


@main.command()
@summary("cli.help.command.review")
@click.argument("save", required=False, type=click.Path(dir_okay=False))
@click.option("--history", "game_id", type=int, default=None,
              help=both("cli.help.review.history"))
@db_option
@click.option("--all", "show_all", is_flag=True,
              help=both("cli.help.review.all"))
@click.option("--json", "as_json", is_flag=True,
              help=both("cli.help.review.json"))
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help=both("cli.help.review.cache_dir"))
@lang_option
def review(save: str | None, game_id: int | None, db_path: str | None, show_all: bool,
           as_json: bool, cache_dir: str | None, lang: Lang) -> None:
    """For a saved game (SAVE) or one from the history (--history ID), per player: the points given
    away in all, that player's three costliest decisions and every decision that cost at least
    half a point (--all: every decision), each with the choice taken and the better one. Classic
    rule sets use their table (built if missing); Kniffel Extreme its stored table or endgames
    solved on the spot, and where neither covers a position the expert player (its fitted model
    at the turn's end), which the output says. Of a finished game, every player's result split
    into the total expected at the start with best play, the points the decisions lost and
    luck (the rest). --json: every decision at full precision.
    """
    from kniffel.engine.review import luck_skill_split
    from kniffel.solver import SolverError
    from kniffel.solver.review import review as review_game

    if (save is None) == (game_id is None):
        _fail("review", words("review.need_game", lang), lang)
    try:
        if save is not None:
            from kniffel.storage import load_game
            game = load_game(save)
        else:
            with _open_history(db_path, "review", lang, create=False) as db:
                game = db.load(int(game_id or 0))
        from kniffel.interrupt import interruptible  # Ctrl-C/SIGTERM: one sentence, 130

        with interruptible(), _work_progress(words("review.progress", lang), lang) as step:
            result = review_game(game, directory=Path(cache_dir) if cache_dir else None,
                                 build=not game.rules.d10, progress=step)
    except (KniffelError, SolverError) as e:
        _fail("review", e, lang)
    except KeyboardInterrupt:
        _console(err=True).print(f"kniffel review: {words('interrupt.review', lang)}",
                                 markup=False)
        sys.exit(130)
    rules = game.rules
    names = [p.name for p in game.players]
    split = luck_skill_split(result)

    def text(d: Any, option: Any) -> str:
        return str(option.describe(rules, lang))

    if as_json:
        click.echo(json.dumps({
            "rules": rules.name,
            "decisions": [{"index": d.index, "player": names[d.player], "round": d.round,
                           "roll": str(d.position.roll), "taken": _action_json(d.taken.action),
                           "taken_text": text(d, d.taken), "best": _action_json(d.best.action),
                           "best_text": text(d, d.best), "loss": round(d.loss, 6),
                           "source": d.source, "throw": d.position.rolls_used,
                           "chip_used": d.position.chip_used}
                          for d in result.decisions],
            "sources": result.by_source(),
            "uncovered": [{"index": u.index, "player": names[u.player], "round": u.round,
                           "reason": u.reason, "why": u.why(lang)} for u in result.uncovered],
            "total_loss": {names[i]: round(result.total_loss(i), 6) for i in range(len(names))},
            "costliest": [d.index for d in result.costliest(3)],
            "players": [{"name": name, "decisions": sum(d.player == i for d in result.decisions),
                         "total_loss": round(result.total_loss(i), 6),
                         "costliest": [d.index for d in result.costliest(3, i)],
                         "luck_skill": _luck_skill_json(split, i)}
                        for i, name in enumerate(names)]}, ensure_ascii=False))
        return
    _print_review(result, split, names, show_all, lang)


def _luck_skill_json(split: Sequence[Any], player: int) -> dict[str, Any] | None:
    if not split:
        return None
    s = split[player]
    return {"expected": round(s.expected, 6), "final": s.final, "skill": round(s.skill, 6),
            "luck": round(s.luck, 6)}


def signed(value: float, lang: Lang, digits: int = 1) -> str:
    """``value`` with its sign, "+" or "−" (none where it rounds to 0): ``"−12,3"``."""
    from kniffel.engine.messages import number

    shown = number(abs(value), lang, digits)
    if shown == number(0, lang, digits):
        return shown
    return ("+" if value > 0 else "−") + shown


def luck_skill_lines(split: Sequence[LuckSkill], names: Sequence[str], lang: Lang) -> list[str]:
    """The review's lines of the split into decisions and luck: a heading, then per player
    the final total, the expected one, the points the decisions lost and luck, as the engine
    rounds them (:meth:`~kniffel.engine.review.LuckSkill.shown`: the shown numbers add up)."""
    from kniffel.engine.messages import number
    from kniffel.engine.review import SHOWN_DIGITS

    if not split:
        return []
    shown = [s.shown() for s in split]
    return [words("cli.review.luck_title", lang), *(
        words("cli.review.luck", lang, name=names[s.player], final=count(s.final, lang),
              expected=number(s.expected, lang, SHOWN_DIGITS),
              skill=signed(-s.skill, lang, SHOWN_DIGITS),
              luck=signed(s.luck, lang, SHOWN_DIGITS)) for s in shown)]


def _print_review(result: Any, split: Sequence[LuckSkill], names: Sequence[str], show_all: bool,
                  lang: Lang) -> None:
    """A review as a person reads it: every player's result split into decisions and luck
    (``split``, :func:`luck_skill_lines`), then per player the points given away in all, the
    player's three costliest decisions and a table of the decisions that cost at least
    :data:`REVIEW_LEAST` points (every decision with ``show_all``); numbers with two decimals
    in the language's format, values of the expert's model marked "≈"; every line wrapped to
    the terminal's width."""
    from rich import box

    from kniffel.engine.messages import count, number

    rules = result.game.rules
    console = _console()
    least = number(REVIEW_LEAST, lang, 1)

    def say(line: str, style: str | None = None) -> None:
        console.print(line, markup=False, soft_wrap=False, style=style)

    def choice(option: Any) -> str:
        return str(option.describe(rules, lang))

    def dice(d: Any) -> str:
        roll = d.position.roll
        return dice_text(roll.d6, roll.d10, lang)

    def loss(d: Any, sign: str = "") -> str:
        return ("≈ " if d.source == "model" else "") + sign + number(d.loss, lang, 2)

    def throw(d: Any) -> str:
        if d.position.chip_used:
            return words("review.chip_throw", lang)
        return words("review.throw_number", lang, throw=d.position.rolls_used)

    say(words("review.title", lang, title=rules.title(lang)))
    lines = luck_skill_lines(split, names, lang)
    if lines:
        say("")
        say(lines[0], "bold")
        for line in lines[1:]:
            say(f"  {line}")
    hidden = 0
    for i, name in enumerate(names):
        own = [d for d in result.decisions if d.player == i]
        total = result.total_loss(i)
        say("")
        if not own:
            say(words("review.player_none", lang, name=name), "bold")
            continue
        if round(total, 2) == 0:
            say(words("review.player_perfect", lang, name=name, count=count(len(own), lang)),
                "bold")
            continue
        say(words("review.player", lang, name=name, count=count(len(own), lang),
                  points=number(total, lang, 2)), "bold")
        say(words("review.costliest", lang))
        costly = _table(box=None, show_header=False, padding=(0, 0, 0, 2))
        costly.add_column(no_wrap=True, justify="right")
        costly.add_column()
        for d in result.costliest(3, i):
            moment = words("review.moment_chip" if d.position.chip_used else "review.moment",
                           lang, round=d.round, throw=d.position.rolls_used, dice=dice(d))
            costly.add_row(loss(d, "−"), words("review.costly", lang, moment=moment,
                                               taken=choice(d.taken), best=choice(d.best)))
        console.print(costly)
        shown = own if show_all else [d for d in own if d.loss >= REVIEW_LEAST]
        hidden += len(own) - len(shown)
        if not shown:
            continue
        title = (words("review.all_title", lang, name=name) if show_all else
                 words("review.costly_title", lang, name=name, least=least))
        table = _table(title=title, title_justify="left", box=box.SIMPLE_HEAD,
                       show_edge=False, pad_edge=False, collapse_padding=True,
                       padding=(0, 1, 0, 0))
        for code, right, wrap in (("review.col_round", True, False),
                                  ("review.col_throw", True, False),
                                  ("review.col_dice", False, True),
                                  ("review.col_taken", False, True),
                                  ("review.col_best", False, True),
                                  ("review.col_loss", True, False)):
            # a choice's words wrap, and a word longer than its column folds rather than
            # being cut: the box's name is what the player reads it for ("Viererpa…")
            table.add_column(words(code, lang), justify="right" if right else "left",
                             no_wrap=not wrap, overflow="fold" if wrap else "ellipsis")
        for d in shown:
            same = d.best.action == d.taken.action
            table.add_row(str(d.round), throw(d), dice(d), choice(d.taken),
                          "–" if same else choice(d.best), loss(d),
                          style="bold red" if d.loss >= 1.0 else None)
        console.print(table)
    say("")
    if hidden:
        say(words("review.hidden", lang, count=count(hidden, lang), least=least))
    by_model = result.by_source().get("model", 0)
    if by_model:
        say(words("expert.review_fallback", lang, count=count(by_model, lang)))
    if result.uncovered:
        say(words("review.uncovered", lang, count=count(len(result.uncovered), lang),
                  why=result.uncovered[0].why(lang)))


# --- kniffel chances ----------------------------------------------------------------------------


def details(code: str) -> Callable[[F], F]:
    """Put the catalog's text ``code`` in both languages after a command's docstring (a
    paragraph of its ``--help``; below :func:`summary`)."""
    def put(f: F) -> F:
        doc = inspect.cleandoc(f.__doc__ or "")
        f.__doc__ = f"{doc}\n\n{both(code)}" if doc else both(code)
        return f
    return put


def _chances_of(path: str) -> tuple[Game, Chances]:
    """The game saved at ``path`` and every player's chances in it (the model of each rule set
    is loaded once per process: :func:`kniffel.engine.chances.chance_model`)."""
    from kniffel.engine.chances import win_chances
    from kniffel.storage import load_game

    game = load_game(path)
    return game, win_chances(game)


def chances_json(path: str, chances: Chances) -> dict[str, Any]:
    """The JSON line of ``kniffel chances --json`` for the save ``path``: every player's name,
    chance to win (the chances sum to 1), expected final total and range (10 %–90 %)."""
    return {"file": path, "players": [
        {"name": o.name, "win": round(o.win, 6), "expected": round(o.expected, 6),
         "low": o.low, "high": o.high} for o in chances.players]}


def chances_table(path: str, game: Game, chances: Chances, lang: Lang) -> Table:
    """The chances of the game saved at ``path`` as a table: per player the chance to win,
    the points now, the expected final total and the range; the leader in bold."""
    from rich.markup import escape
    from rich.text import Text

    from kniffel.engine.messages import number, percent

    rules = game.rules
    state = (words("cli.chances.over", lang) if game.is_over() else
             words("cli.chances.round", lang, round=count(game.round, lang),
                   of=count(len(rules.boxes), lang)))
    title = words("cli.chances.title", lang, file=path, rules=rules.name, state=state)
    table = _table(title=escape(title), title_justify="left")
    table.add_column(words("cli.chances.col_player", lang))
    for code in ("cli.chances.col_win", "cli.chances.col_points", "cli.chances.col_expected",
                 "cli.chances.col_range"):
        table.add_column(words(code, lang), justify="right", no_wrap=True)
    for i, o in enumerate(chances.players):
        table.add_row(Text(o.name), percent(o.win, lang), count(o.total, lang),
                      number(o.expected, lang, 1),
                      count(o.low, lang) if o.low == o.high else
                      f"{count(o.low, lang)}–{count(o.high, lang)}",
                      style="bold" if i == chances.leader else None)
    return table


@main.command()
@summary("cli.help.command.chances")
@details("cli.help.chances.exit")
@click.argument("saves", nargs=-1, required=True, metavar="SAVE...")
@click.option("--json", "as_json", is_flag=True, help=both("cli.help.chances.json"))
@lang_option
def chances(saves: tuple[str, ...], as_json: bool, lang: Lang) -> None:
    """For each saved game (SAVE, any number of them): every player's chance to win if everyone
    plays well from here (a tie shared), the expected final total and the range the final total
    falls in with 80 % (10 %–90 %). A finished game gives its winner 1. --json: one JSON object
    per file and line, {"file": ..., "players": [{"name", "win", "expected", "low", "high"}]}.
    A file that cannot be read, or a rule set without values, is named on stderr in one
    sentence; the other files are shown all the same.
    """
    failed, shown = False, 0
    console = _console()
    for path in saves:
        try:
            game, found = _chances_of(path)
        except (KniffelError, OSError) as e:
            message = _message(e, lang)
            if isinstance(e, KniffelError) and "where" not in e.params:
                message = f"{path}: {message}"  # the error does not name the file
            _console(err=True).print(f"kniffel chances: {message}", markup=False)
            failed = True
            continue
        shown += 1
        if as_json:
            click.echo(json.dumps(chances_json(path, found), ensure_ascii=False))
        else:
            if shown > 1:
                console.print()
            console.print(chances_table(path, game, found, lang))
    if shown and not as_json:
        console.print(words("cli.chances.note", lang), markup=False)
    if failed:
        sys.exit(2)


@main.command()
@summary("cli.help.command.web")
@click.option("--host", default="127.0.0.1", show_default=True,
              help=both("cli.help.web.host"))
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help=both("cli.help.web.port"))
@click.option("--no-browser", is_flag=True, help=both("cli.help.web.no_browser"))
@click.option("--export", "export_dir", type=click.Path(file_okay=False),
              help=both("cli.help.web.export"))
@click.option("--force", is_flag=True,
              help=both("cli.help.web.force"))
@lang_option
def web(host: str, port: int, no_browser: bool, export_dir: str | None, force: bool,
        lang: Lang) -> None:
    """A port in use is told before the site is built; ``--export`` writes only into an empty or
    new folder or over an earlier export (``--force``: into any folder).
    """
    from kniffel.extras import require

    require("web")  # numpy (kniffel[web]): else one sentence naming the extra, status 2
    from kniffel.web.server import build_site, serve

    try:
        if export_dir is not None:
            info = build_site(export_dir, force=force)
            click.echo("kniffel web: " + words("cli.site_written", lang,
                                              count=count(len(info["files"]), lang),
                                              where=export_dir, build=info["build"],
                                              pyodide=info["pyodide"]))
            return
        from kniffel.interrupt import interruptible

        with interruptible():  # SIGTERM stops it like Ctrl-C: the temporary site is removed
            serve(host, port, open_browser=not no_browser, echo=click.echo, lang=lang)
    except (KniffelError, OSError) as e:
        _fail("web", e, lang)
    except KeyboardInterrupt:
        pass  # the way to stop the server (it says so), not a failure


def run() -> None:
    """The ``kniffel`` program (its console script and ``python -m kniffel``): :func:`main`,
    then the exit without the interpreter's final sweeps over every object it ever loaded.

    The young garbage (what the command left lately) is collected, so its finalizers run, and
    every object left is frozen (:func:`gc.freeze`): the final collections at exit skip frozen
    objects, which takes the exit of a ``kniffel solve`` from about 60–100 ms to about 15
    (benchmarks/bench_solver.py times the whole process).
    """
    _plain_where_needed()
    try:
        main()
    finally:
        gc.collect(1)
        gc.freeze()


#: What a terminal that cannot show a character gets instead: dashes, quotes, signs (letters
#: are spelt plainly by :func:`_plain_char`).
_PLAIN = {"–": "-", "—": "-", "−": "-", "„": '"', "“": '"', "”": '"', "‚": "'", "‘": "'",
          "’": "'", "…": "...", "×": "x", "≈": "~", "→": "->", "·": "*", "★": "*",
          "\u00a0": " ", "\u202f": " "}


def _plain_char(ch: str) -> str:
    """``ch`` as the nearest plain (ASCII) text: a letter without its accent, an umlaut with
    an "e" as German spells it without one, sharp s as "ss"; a line of a table as ``-``,
    ``|`` or ``+``; anything else "?"."""
    if ch in _PLAIN:
        return _PLAIN[ch]
    if "\u2500" <= ch <= "\u257f":  # box drawing
        return "-" if ch in "─━═╌╍┄┅" else "|" if ch in "│┃║╎╏┆┇" else "+"
    if "\u2580" <= ch <= "\u259f":  # blocks (progress bars)
        return "#"
    parts = unicodedata.normalize("NFKD", ch)
    base = "".join(c for c in parts if not unicodedata.combining(c))
    if "\u0308" in parts:  # a diaeresis: the umlaut spelt with an e
        base += "e"
    if not base.isascii() or not base or base == ch:
        base = ch.casefold() if ch.casefold().isascii() else "?"
    return base


def _plain(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler ``kniffel-plain``: the characters the output cannot encode, as
    the nearest plain text (:func:`_plain_char`)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(map(_plain_char, error.object[error.start:error.end])), error.end


def _plain_where_needed() -> None:
    """Output streams that cannot encode kniffel's words (``PYTHONIOENCODING=ascii``, a
    Latin-1 terminal) write them plainly instead of ending in a traceback."""
    import codecs

    codecs.register_error("kniffel-plain", _plain)
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            (chr(0xE4) + "\u2013\u2502").encode(encoding)  # an umlaut, a dash, a line
        except (UnicodeEncodeError, LookupError):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                with contextlib.suppress(ValueError, OSError):
                    reconfigure(errors="kniffel-plain")
