"""click in the player's language: every help text, refused value and usage error of the
``kniffel`` command line worded from the message catalog.

click words its errors in English (and through gettext, which kniffel does not use). Every
error click raises is shown here instead: one line "kniffel COMMAND: <sentence>" from the
message catalog, at most one more line with the help command, exit status 2; an interrupt is
"Abgebrochen." / "Interrupted." with exit status 130, never click's "Aborted!". The sentence
comes from the error's type and attributes; a refused value from the parameter's type, which
every :class:`KniffelCommand` gives a copy that knows the value (:func:`localized_type`);
``--help``'s headings and notes follow the language too (:class:`KniffelHelp`).
"""

from __future__ import annotations

import copy
import difflib
import inspect
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import decimal, render
from kniffel.engine.messages import text as words
from kniffel.lang import default_lang

if TYPE_CHECKING:
    from rich.console import Console

    from kniffel.engine.rules import Lang

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



def details(code: str) -> Callable[[F], F]:
    """Put the catalog's text ``code`` in both languages after a command's docstring (a
    paragraph of its ``--help``; below :func:`summary`)."""
    def put(f: F) -> F:
        doc = inspect.cleandoc(f.__doc__ or "")
        f.__doc__ = f"{doc}\n\n{both(code)}" if doc else both(code)
        return f
    return put


LANG_KEY = "kniffel.lang"


def remember_lang(ctx: click.Context, _param: click.Parameter, value: Lang) -> Lang:
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
    callback=remember_lang, is_eager=True, show_default=False,
    help=both("cli.help.lang"),
)



def rich_console(err: bool = False) -> Console:
    """A rich console on stdout (``err``: stderr) that writes text as it is (rich is imported
    on first use: ``kniffel --help`` starts without it)."""
    from rich.console import Console

    return Console(stderr=err, highlight=False, soft_wrap=True)


def message(error: BaseException, lang: Lang) -> str:
    """An error as a player reads it: a kniffel error from the message catalog, a file that
    cannot be read or written by its name and the reason in words
    (:func:`kniffel.storage.os_sentence`)."""
    if isinstance(error, OSError):
        from kniffel.storage import os_sentence

        return os_sentence(error, lang)
    return render(error, lang)


def fail(command: str, error: BaseException | str, lang: Lang) -> NoReturn:
    """Print ``kniffel COMMAND: <the error in words>`` on stderr and exit with status 2."""
    said = error if isinstance(error, str) else message(error, lang)
    rich_console(err=True).print(f"kniffel {command}: {said}", markup=False)
    sys.exit(2)


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
        commands = (sorted(group.list_commands(ctx)) if isinstance(group, click.Group)
                    and ctx is not None else [])
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
            names = group.list_commands(ctx) if ctx is not None else list(group.commands)
            near = difflib.get_close_matches(unknown.group(1), names)
            if near:
                return words("cli.click.no_such_command_near", lang, command=unknown.group(1),
                             possible=" / ".join(near)), True
            return words("cli.click.no_such_command", lang, command=unknown.group(1),
                         commands=sorted(names)), True
        return words("cli.click.usage", lang), True
    return words("error", lang), False


def _refuse(error: click.ClickException, ctx: click.Context | None) -> NoReturn:
    """Show one of click's errors as kniffel does and exit with status 2."""
    if isinstance(error, click.UsageError) and error.ctx is not None:
        ctx = error.ctx
    lang = _lang_of(ctx)
    path = _command_path(ctx)
    sentence, with_hint = _usage_sentence(error, lang)
    err = rich_console(err=True)
    err.print(f"{path}: {sentence}", markup=False)
    if with_hint:
        err.print(words("cli.click.help_hint", lang, command=path), markup=False)
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
    rich_console(err=True).print(f"{path}: {sentence}", markup=False)
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


class KniffelHelp(click.Command):
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


class KniffelCommand(KniffelHelp):
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
            rest = super().parse_args(ctx, args)
        except click.UsageError as e:
            if e.ctx is None:
                e.ctx = ctx  # click's parser leaves it out of some errors (BadOptionUsage)
            raise
        if ctx.ignore_unknown_options:
            self._refuse_unknown_options(ctx)
        return rest

    def _refuse_unknown_options(self, ctx: click.Context) -> None:
        """A command that lets unknown options through (``score``, ``advise``: a negative die,
        ``-1``, is a value to complain about in words, not an option) still refuses an unknown
        option as click does (:class:`click.NoSuchOption`: "Eine Option --chps gibt es
        nicht"): every value its free arguments collected that looks like an option, ``-x`` or
        ``--name[=value]`` but not ``-`` or a negative number, is one."""
        for param in self.get_params(ctx):
            if not isinstance(param, click.Argument) or param.name is None:
                continue
            given = ctx.params.get(param.name)
            values = given if isinstance(given, (tuple, list)) else (given,)
            for value in values:
                if isinstance(value, str) and _looks_like_option(value):
                    known = [name for p in self.get_params(ctx) if isinstance(p, click.Option)
                             for name in (*p.opts, *p.secondary_opts)]
                    raise click.NoSuchOption(value.split("=", 1)[0], possibilities=known,
                                             ctx=ctx)


def _looks_like_option(arg: str) -> bool:
    """Whether a command-line word is written as an option (``-x``, ``--name``,
    ``--name=value``), not as a value: ``-`` alone and a negative number (``-1``) are values."""
    return len(arg) > 1 and arg.startswith("-") and not arg[1].isdigit()


class KniffelGroup(click.Group, KniffelHelp):
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
            fail(name, e, _lang_of(ctx))
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
            short = self.summary_of(ctx, name, formatter.width - 6 - len(name))
            if short is not None:
                rows.append((name, short))
        if rows:
            with formatter.section(_help_heading(ctx, "cli.help.commands")):
                formatter.write_dl(rows)

    def summary_of(self, ctx: click.Context, name: str, width: int) -> str | None:
        """The line ``--help`` lists the command ``name`` with, in the reader's language;
        None for a hidden command."""
        command = self.get_command(ctx, name)
        if command is None or command.hidden:
            return None
        first = inspect.cleandoc(command.help or "").split("\n\n")[0]
        return (in_lang(first, _lang_of(ctx)) if first.strip() in _BILINGUAL
                else command.get_short_help_str(width))


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's commands by name, each imported on first use: ``lazy`` maps a name to
    ``(module, function, summary code)``. Its names are known without importing anything
    (``--help`` lists them, an unknown command is matched against them); looking one up
    imports its module."""

    def __init__(self, lazy: Mapping[str, tuple[str, str, str]],
                 loaded: Mapping[str, click.Command] | None = None) -> None:
        self.lazy = dict(lazy)
        self.loaded: dict[str, click.Command] = dict(loaded or {})

    def __getitem__(self, name: str) -> click.Command:
        if name not in self.loaded and name in self.lazy:
            from importlib import import_module

            module, function, _code = self.lazy[name]
            command = getattr(import_module(module), function)
            if not isinstance(command, click.Command):
                raise TypeError(f"{module}.{function} is no click command")
            self.loaded[name] = command
        return self.loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        self.loaded.pop(name, None)
        self.lazy.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self.lazy, *self.loaded]))

    def __len__(self) -> int:
        return len({*self.lazy, *self.loaded})

    def __contains__(self, name: object) -> bool:
        return name in self.lazy or name in self.loaded


class LazyGroup(KniffelGroup):
    """A :class:`KniffelGroup` whose commands live in modules of their own, imported only when
    the command runs or shows its help (``kniffel --version`` and ``kniffel --help`` import
    none of them; :class:`LazyCommands`): ``lazy`` maps each name to ``(module, function,
    summary code)``, and ``kniffel --help`` lists every command by its summary from the
    catalog."""

    def __init__(self, *args: Any, lazy: Mapping[str, tuple[str, str, str]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands: LazyCommands = LazyCommands(lazy or {}, self.commands)

    def summary_of(self, ctx: click.Context, name: str, width: int) -> str | None:
        commands = self.commands
        if name in commands.lazy and name not in commands.loaded:
            return words(commands.lazy[name][2], _lang_of(ctx))
        return super().summary_of(ctx, name, width)
