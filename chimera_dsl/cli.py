"""The ``chimera`` command: thin click commands over the library.

Exit codes (README, "Commands"): 0 done / yes; 1 no (not a combination, does not beat);
2 wrong input (usage, a variant that does not load, cards that cannot be read).
Every :class:`~chimera_dsl.errors.ChimeraError` becomes a message and exit 2, never a
traceback; this is the one place that maps errors to exit codes.  A command asked for
``--json`` answers every error in JSON too: ``{"error": ..., "problems": [...]}``, exit 2.
Text that came from the input (a path, a player's name, a value of a record) is printed with
what a terminal cannot show escaped: control characters and lone surrogates.

Every sentence printed for a person comes from the ``cli`` section of the catalogs
(``chimera_dsl/tell/locales``), in the language of the command's ``--lang`` (default: the
environment's ``CHIMERA_LANG``, else English); click's own messages are looked up there too.
"""
from __future__ import annotations

import contextlib
import functools
import gettext
import inspect
import json
import os
import re
import sys

import click

from .errors import ChimeraError, Problem, VariantError
from .tell.catalog import catalog, languages
from .tell.problems import said, said_error, translated

EXIT_YES, EXIT_NO, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class Exit(Exception):
    """Leave a command with an exit code (the answer to a yes/no question)."""

    def __init__(self, code: int):
        self.code = code


# what a terminal cannot show, or could be made to act on: C0 and C1 controls (but tab and
# newline), DEL, lone surrogates (from JSON escapes), and the bidirectional overrides
_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every character a terminal cannot show written as an escape (``\\x1b``, ``\\ud800``)."""
    return _UNSHOWABLE.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii")
                           if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)


LANG_ENV = "CHIMERA_LANG"     # the language of every command that is not given --lang
_asked: dict[str, str | None] = {"lang": None}      # the language the command line names (run())


def message_language() -> str:
    """The language of the running command's messages: its ``--lang`` (or the one given to
    ``chimera`` before the command), else the one its command line or ``CHIMERA_LANG`` names (a
    usage error and ``--help`` come before the options are read), else English."""
    context = click.get_current_context(silent=True)
    given = []
    while context is not None:
        given.append(context.params.get("lang"))
        context = context.parent
    for candidate in (*given, _asked["lang"], os.environ.get(LANG_ENV)):
        if candidate in languages():
            return candidate
    return "en"


def t(key: str, n: int | None = None, **fields) -> str:
    """The sentence ``key`` of the ``cli`` catalog in the command's language, fields filled in; a
    pair ``[one, many]`` is chosen by ``n``."""
    from .tell.printer import say
    return say(catalog(message_language())["cli"], key, n, **fields)


def _asked_language(args: list[str]) -> str | None:
    """The language ``args`` name with ``--lang`` (the last one), if any."""
    lang = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            lang = args[i + 1]
        elif arg.startswith("--lang="):
            lang = arg[len("--lang="):]
    return lang


# click says its own messages (a missing option, an unknown one...) through gettext: they are
# looked up in the catalog's cli.click, by click's English text, and left as click writes them
# when the catalog has none
_click_gettext, _click_ngettext = gettext.gettext, gettext.ngettext


def _click_words() -> dict:
    return catalog(message_language())["cli"].get("click") or {}


def _translated(message: str) -> str:
    found = _click_words().get(message)
    return found if isinstance(found, str) else _click_gettext(message)


def _translated_plural(singular: str, plural: str, n: int) -> str:
    found = _click_words().get(singular)
    if isinstance(found, list) and len(found) == 2:
        return found[0] if n == 1 else found[1]
    return _click_ngettext(singular, plural, n)


for _module in (click.core, click.exceptions, click.formatting, click.parser, click.types):
    if getattr(_module, "_", None) is _click_gettext:
        _module._ = _translated  # type: ignore[attr-defined]
    if getattr(_module, "ngettext", None) is _click_ngettext:
        _module.ngettext = _translated_plural  # type: ignore[attr-defined]


def say(text: str, err: bool = False) -> None:
    """Print one line of output, escaped with :func:`printable`."""
    click.echo(printable(text), err=err)


def _json_wanted() -> bool:
    """Did the running command get ``--json``?"""
    context = click.get_current_context(silent=True)
    return bool(context is not None and context.params.get("as_json"))


def fail(message: str, problems: list | None = None) -> None:
    """Report an input error (stderr, or JSON on stdout under ``--json``) and leave with exit code 2."""
    if _json_wanted():
        emit_json({"error": message, "problems": [_problem_json(p) for p in problems or []]})
    else:
        say(t("error", message=message), err=True)
    raise Exit(EXIT_INPUT)


def handles_errors(func):
    """Turn the library's errors into messages and exit codes."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except VariantError as error:
            if _json_wanted():
                first = error.problems[0].file if error.problems and error.problems[0].file else t("the_variant")
                fail(t("does_not_load", file=first, n=len(error.problems)), error.problems)
            for problem in error.problems:
                say(said(problem, message_language()), err=True)
            raise Exit(EXIT_INPUT)
        except ChimeraError as error:
            fail(said_error(error, message_language()))
        except BrokenPipeError:
            raise
        except OSError as error:
            fail(f"{error.filename or ''}: {error.strerror}")
    return wrapper


def load(path: str):
    """Load a variant for a command (errors reach :func:`handles_errors`)."""
    from . import load_variant
    return load_variant(path)


def emit_json(data) -> None:
    """Print ``data`` as one JSON document (ASCII escapes where the text could not be written)."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:          # a lone surrogate from the input: escape it
        text = json.dumps(data)
    click.echo(text)


class _Seed(click.ParamType):
    """A seed: a whole number of at most 40 digits (game records hold no longer numbers)."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip()
        digits = text.lstrip("+-")
        if not digits.isdigit():
            self.fail(t("not_whole", value=repr(value)), param, ctx)
        if len(digits) > 40:
            self.fail(t("seed_digits", n=len(digits)), param, ctx)
        return int(text)


SEED = _Seed()


class _Languages(click.Choice):
    """A language that has a catalog, as found when the command runs (a catalog added is a
    language offered)."""

    def __init__(self):
        super().__init__(list(languages()))

    @property
    def choices(self):
        return tuple(languages())

    @choices.setter
    def choices(self, value):
        pass


class _LanguageOption(click.Option):
    """A command's ``--lang``: when the command line does not give it, the one given to
    ``chimera`` before the command (``chimera --lang fr run ...``) comes before ``CHIMERA_LANG``."""

    def consume_value(self, ctx, opts):
        value, source = super().consume_value(ctx, opts)
        above = ctx.parent.params.get("lang") if ctx.parent is not None else None
        if above and source is not click.core.ParameterSource.COMMANDLINE:
            return above, click.core.ParameterSource.COMMANDLINE
        return value, source


def language_option(help_text: str):
    """``--lang``: a catalog's language, by default the environment's ``CHIMERA_LANG``, else English."""
    return click.option("--lang", cls=_LanguageOption, type=_Languages(), default="en", show_default=True,
                        envvar=LANG_ENV, show_envvar=True, help=help_text)


# --help in the command's language: the help of every command and option is looked up in the
# catalog's help section by its English text (as the CLI reference shows it), and said in English
# when the catalog has none; click's own words (Usage:, Options:) are in cli.click
_CLICK_HELP = {"help": "Show this message and exit.", "version": "Show the version and exit."}


def _help_said(text: str | None) -> str | None:
    if not text:
        return text
    found = catalog(message_language()).get("help", {}).get(inspect.cleandoc(text))
    return found if isinstance(found, str) else text


@contextlib.contextmanager
def _helps_said(*objects):
    """The help of ``objects`` (commands, options) in the command's language while a help is written."""
    kept = [(o, o.help) for o in objects if hasattr(o, "help")]
    try:
        for o, english in kept:
            o.help = _help_said(_CLICK_HELP.get(getattr(o, "name", None), english)
                                if isinstance(o, click.Option) else english)
        yield
    finally:
        for o, english in kept:
            o.help = english


class _Command(click.Command):
    """A command whose --help is said in the command's language."""

    def format_help_text(self, ctx, formatter):
        with _helps_said(self):
            super().format_help_text(ctx, formatter)

    def format_options(self, ctx, formatter):
        with _helps_said(*self.get_params(ctx)):
            super().format_options(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        with _helps_said(self):
            return super().get_short_help_str(limit)


class _Group(_Command, click.Group):
    command_class = _Command

    def format_options(self, ctx, formatter):
        with _helps_said(*self.get_params(ctx)):
            click.Command.format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)


messages_option = language_option("The language of the messages and tables (a catalog of chimera_dsl/tell/locales).")


def rank_name(rules, rank) -> str:
    """A rank as the deck names it (``H``), as run and play print it, not its number."""
    return rules.rank_name(rank)


def _beats_words() -> dict:
    """The sentences of a beats reason (``Rules.explain_beats``) in the command's language."""
    return catalog(message_language())["cli"]["beats"]


def play_line(play, rules=None) -> str:
    """One play as `moves` prints it: cards, combination, rank (by name when the rules are given)."""
    rank = rank_name(rules, play.rank) if rules is not None else play.rank
    return t("move", cards=" ".join(play.cards), combination=play.combination, rank=rank)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chimera_dsl")
@click.option("--lang", type=_Languages(), default=None,
              help="The language of every command's messages and help, unless the command is given its own --lang.")
def main(lang):
    """Play, check and study climbing and trick-taking card games defined by variant files."""


@main.command()
@click.argument("variants", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Answer as JSON on standard output.")
@messages_option
@handles_errors
def validate(variants, as_json, lang):
    """Load and check each VARIANT file: YAML, schema, patterns, meaning.

    Prints FILE:LINE:COL: message for every problem found.  Exit 0 when all load, 2 if not.
    """
    from .variant import check_variant
    report = {}
    bad = False
    for path in variants:
        problems = check_variant(path)
        report[path] = [_problem_json(p) for p in problems]
        bad = bad or bool(problems)
        if not as_json:
            for problem in problems:
                say(said(problem, message_language()), err=True)
            if not problems:
                say(t("ok", path=path))
    if as_json:
        emit_json({"valid": not bad, "files": report})
    raise Exit(EXIT_INPUT if bad else EXIT_YES)


def _problem_json(problem: Problem) -> dict:
    """A problem for programs: its ``message`` and ``hint`` in English, the same whatever the
    language; in another language, ``said`` holds them as a person reads them there."""
    data = {"file": problem.file, "line": problem.line, "column": problem.column,
            "message": problem.message, "hint": problem.hint}
    lang = message_language()
    if lang != "en":
        data["said"] = {"lang": lang, "message": translated(problem.message, lang),
                        "hint": translated(problem.hint, lang)}
    return data


def load_climbing(variant):
    """The rules of VARIANT, whose play must be of combinations (classify, beats and moves ask about them)."""
    rules = load(variant)
    if not rules.combinations:
        raise ChimeraError(t("plays_tricks", variant=variant))
    return rules


@main.command()
@click.argument("variant", type=click.Path())
@click.argument("cards")
@click.option("--json", "as_json", is_flag=True, help="Answer as JSON on standard output.")
@messages_option
@handles_errors
def classify(variant, cards, as_json, lang):
    """Which combination(s) CARDS form, e.g. chimera classify variants/chimera.yaml "7 7 7 5".

    Exit 0 if they form at least one combination, 1 if not.
    """
    rules = load_climbing(variant)
    readings = rules.classify(cards)
    if as_json:
        data = {"valid": bool(readings),
                "readings": [{"combination": p.combination, "rank": p.rank, "cards": p.size} for p in readings]}
        if not readings:
            data["reason"] = rules.why_not(cards)
        emit_json(data)
    elif readings:
        for p in readings:
            say(t("reading", p.size, combination=p.combination, rank=rank_name(rules, p.rank)))
    else:
        say(t("not_combination", reason=rules.why_not(cards, _beats_words())))
    raise Exit(EXIT_YES if readings else EXIT_NO)


@main.command()
@click.argument("variant", type=click.Path())
@click.argument("cards")
@click.option("--over", required=True, help="The play already on the table.")
@click.option("--json", "as_json", is_flag=True, help="Answer as JSON on standard output.")
@messages_option
@handles_errors
def beats(variant, cards, over, as_json, lang):
    """May CARDS be played on the play given with --over?  Exit 0 if yes, 1 if no."""
    rules = load_climbing(variant)
    if as_json:         # the reason for programs, in English as the library gives it
        yes, reason = rules.explain_beats(over, cards)
        emit_json({"beats": yes, "reason": reason, "over": rules.over_readings(over, cards)})
    else:
        yes, reason = rules.explain_beats(over, cards, _beats_words())
        say(t("yes" if yes else "no", reason=reason))
    raise Exit(EXIT_YES if yes else EXIT_NO)


@main.command()
@click.argument("variant", type=click.Path())
@click.option("--hand", required=True, help="The cards in hand.")
@click.option("--over", default=None, help="The play to answer; without it, every lead.")
@click.option("--json", "as_json", is_flag=True, help="Answer as JSON on standard output.")
@messages_option
@handles_errors
def moves(variant, hand, over, as_json, lang):
    """Every legal play from --hand, as a leader or in answer to --over, one per line."""
    rules = load_climbing(variant)
    plays = rules.iter_legal_plays(hand, over=over)     # the hand and --over are read here
    held = rules.deck.size_of(rules.cards_key(hand))
    if held > rules.max_hand:           # the loader bounds the plays of a hand up to this size only
        fail(t("hand_too_large", n=held, most=rules.max_hand))
    readings = rules.over_readings(over) if over is not None else []
    count = 0
    if as_json:         # one JSON document, streamed: {"over": [...], "moves": [...], "count": N}
        click.echo(('{"over": ' + json.dumps(readings, ensure_ascii=False) + ', ' if over is not None else '{')
                   + '"moves": [', nl=False)
        for p in plays:
            click.echo(("" if count == 0 else ", ") + json.dumps(p.as_dict(), ensure_ascii=False), nl=False)
            count += 1
        click.echo(f'], "count": {count}}}')
    else:
        if len(readings) > 1:       # each move answers at least one of them, as the player who made it chose
            shown = ", ".join(f"{r['combination']} {rank_name(rules, r['rank'])}" for r in readings)
            click.echo(t("over_reads", n=len(readings), readings=shown), err=True)
        for p in plays:
            say(play_line(p, rules))
            count += 1
        click.echo(t("moves", count), err=True)


@main.command("rules")
@click.argument("variant", type=click.Path())
@language_option("The language of the rulebook.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to this file instead of standard output.")
@handles_errors
def rules_command(variant, lang, output):
    """Write VARIANT's rulebook as Markdown, generated from the file itself.

    For a file that extends another, a last section lists exactly what differs from its base.
    """
    from pathlib import Path

    from .tell.rulebook import base_of, write_rulebook
    rules = load(variant)
    base_path = base_of(variant)
    base = None
    if base_path:
        from .errors import VariantError
        try:
            base = load(str(base_path))
        except VariantError:        # a base that does not load by itself: no section of differences
            base_path = None
    label = None
    if base_path:
        label = os.path.relpath(base_path, Path(variant).resolve().parent)
    text = write_rulebook(rules, lang, base=base, base_label=label)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        say(text)


def _read_search_budget(ctx, param, value):
    if value is None:
        return None
    from .players.search import BudgetError, parse_budget
    try:
        return str(parse_budget(value))
    except BudgetError as error:
        raise click.BadParameter(str(error)) from None


lang_option = language_option("The language the game is told in (a catalog of chimera_dsl/tell/locales).")

search_budget_option = click.option(
    "--search-budget", default=None, callback=_read_search_budget, metavar="BUDGET",
    help="What a search player may spend on each decision: playouts (default 24; e.g. 100) "
         "or time (e.g. 200ms, 1.5s).")


@main.command("run")
@click.argument("variant", type=click.Path())
@click.option("--seed", type=SEED, default=None, help="The game's seed (default: a random one, printed).")
@click.option("--target", type=click.IntRange(min=1), default=None,
              help="Points that end the game (default: the variant's end.target).")
@click.option("--players", "players_spec", default=None,
              help="One player per seat, e.g. heuristic,random,search (one name: every seat).")
@search_budget_option
@click.option("--log", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (JSON Lines) to this file.")
@click.option("--quiet", is_flag=True, help="Print only the result.")
@lang_option
@handles_errors
def run_command(variant, seed, target, players_spec, search_budget, log, quiet, lang):
    """Play one whole game of VARIANT with computer players and tell it round by round.

    The same seed gives the same game, byte for byte.
    """
    import random as _random

    from .engine import Game
    from .players import parse_players, play_game
    from .tell.printer import Teller, result_line
    rules = load(variant)
    if seed is None:
        seed = _random.SystemRandom().randrange(10 ** 9)
    game = Game(rules, target=target)
    players = parse_players(players_spec, game.players, seed, search_budget)
    record = open(log, "w", encoding="utf-8") if log else None     # a bad path fails before the game
    stream = _RecordStream(record, None if quiet else Teller(rules, lang=lang))
    try:
        play_game(game, players, seed, watch=stream.watch)
    finally:
        if record is not None:
            record.close()
    if quiet:
        say(result_line(stream.last, [p.name for p in players], lang=lang))


class _RecordStream:
    """The lines of a game written to the record and told as each round ends, then dropped from
    the game's memory (the engine never reads its past lines), so that a game of any length
    holds at most one round's lines: docs/commands.md, "Memory"."""

    def __init__(self, record, teller):
        self.record, self.teller = record, teller
        self.round: int | None = None
        self.first = True
        self.last: dict = {}

    def watch(self, state) -> None:
        """Called before every decision and at the end (play_game's ``watch``): at a new round
        and at the end, the lines so far are written, told and dropped."""
        if state.round == self.round and not state.is_terminal():
            return
        self.round = state.round
        lines = state.events                # writes out the lines a phase kept compact
        if not lines:
            return
        chunk = list(lines)
        del lines[:]
        if self.first:
            chunk[0] = _absolute_start(chunk[0])
            self.first = False
        self.last = chunk[-1]
        if self.record is not None:
            from .tell.record import dumps
            self.record.write(dumps(chunk))
        if self.teller is not None:
            for line in self.teller.lines(chunk):
                say(line)


@main.command("play")
@click.argument("variant", type=click.Path())
@click.option("--seat", type=int, default=0, show_default=True, help="The seat you sit at (0 is the first).")
@click.option("--players", "players_spec", default=None,
              help="The computer players of the other seats, clockwise from seat 0, e.g. heuristic,random "
                   "(one name: all of them).")
@search_budget_option
@click.option("--seed", type=SEED, default=None,
              help="Deal from this seed (the same seed, the same game). Default: every deal drawn from "
                   "the system's secure random source, and no seed you could use to learn another hand.")
@click.option("--target", type=click.IntRange(min=1), default=None,
              help="Points that end the game (default: the variant's end.target).")
@click.option("--log", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (JSON Lines) to this file; if you leave early, the record so far.")
@lang_option
@handles_errors
def play_command(variant, seat, players_spec, search_budget, seed, target, log, lang):
    """Sit at the table of VARIANT against computer players and play a whole game.

    You see your own hand and what the table shows, never another hand.  Type cards to play
    them (7 7 7 5), pass, a bid (20), ? for your legal moves, help for more.  quit or the end
    of the input leaves the game (exit 0).
    """
    import secrets as _secrets

    from .engine import SECRET_SEED, Game
    from .players.human import HumanPlayer, LeftTheTable, play_at_table, table_players
    rules = load(variant)
    # without --seed nothing the person sees (no seed, no computer player's choices) lets them
    # work out a hidden hand: the deals come from the secure source, the players' seeds too
    players_seed = seed if seed is not None else _secrets.randbits(62)
    game_seed = seed if seed is not None else SECRET_SEED
    game = Game(rules, target=target)
    if not 0 <= seat < game.players:
        fail(t("seat_range", last=game.players - 1, seat=seat))
    human = HumanPlayer(lang=lang)
    players = table_players(players_spec, game.players, seat, players_seed, human, search_budget)
    record = open(log, "w", encoding="utf-8") if log else None     # a bad path fails before the game
    code, state = EXIT_YES, None
    # the record is written round by round as the game is told, and the lines leave the game
    keep = (lambda lines: record.write(_record_text(lines))) if record is not None else None
    try:
        try:
            state = play_at_table(game, players, game_seed, seat, human, keep)
        except LeftTheTable as gone:
            state = gone.state
            reason = human.t("left_" + gone.reason.replace(" ", "_"))
            human.say(human.t("left_in_round", round=state.round, reason=reason) if state is not None
                      else human.t("left", reason=reason))
            code = 130 if gone.reason == "interrupted" else EXIT_YES
            if record is not None and state is not None:
                click.echo("chimera: " + human.t("record_unfinished", log=log), err=True)
        if record is not None and state is not None:
            record.write(_record_text(state.events))
    finally:
        if record is not None:
            record.close()
    raise Exit(code)


@main.command("serve")
@click.argument("variant", type=click.Path())
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port to listen on.")
@click.option("--players", "players_spec", default=None,
              help="The computer players of the seats nobody takes, e.g. heuristic,random,random "
                   "(one name: all of them; default: the default player).")
@click.option("--data", type=click.Path(file_okay=False), default="chimera-tables", show_default=True,
              help="The folder that keeps every table's record and seats; unfinished tables resume from it.")
@click.option("--delay", type=click.FloatRange(min=0, max=60), default=0.8, show_default=True,
              help="Seconds a computer player waits before it acts, so people can follow.")
@click.option("--target", type=click.IntRange(min=1), default=None,
              help="Points that end the game (default: the variant's end.target).")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="End each game after this many rounds (the highest total wins).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Deal the tables from this seed: the first table created gets SEED, the next "
                   "SEED+1, and so on (the same deals at every playtest; never told to the players). Default: "
                   "no seed, every deal drawn from the system's secure random source.")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="Let the pages of ORIGIN (scheme://host[:port], e.g. the address of a proxy in front "
                   "of the server) open tables and play; repeatable. Default: the server's own pages only.")
@click.option("--max-waiting", type=click.IntRange(min=1, max=100), default=3, show_default=True,
              help="Waiting tables (not started yet) one browser, or one address without a browser's "
                   "cookie, may hold at once.")
@click.option("--max-sockets", type=click.IntRange(min=1, max=10000), default=60, show_default=True,
              help="Connections (pages open at a table) one address may hold at once; more are refused "
                   "with a reason.")
@click.option("--expire-after", type=click.FloatRange(min=1), default=600, show_default=True, metavar="SECONDS",
              help="A waiting table nobody is seated at, or nobody watches, for this long is closed.")
@click.option("--replace-after", type=click.FloatRange(min=0), default=60, show_default=True, metavar="SECONDS",
              help="A person whose pages all left a started game is replaced by a computer player after "
                   "this long (said to the table); they take the seat back by coming back.")
@language_option("The page's language when neither its address (?lang=fr) nor the browser's languages "
                 "name one that has a catalog.")
@handles_errors
def serve_command(variant, host, port, players_spec, data, delay, target, rounds, seed, allow_origins,
                  max_waiting, max_sockets, expire_after, replace_after, lang):
    """Open a table of VARIANT in the browser: people take seats, computer players fill the rest.

    Each person opens the page, creates a table or follows a table's link, takes a free seat
    and plays; the creator starts the game.  Every
    table's record is written as it goes into --data; stopping the server and starting it
    again resumes the unfinished tables.  Needs the web extra: pip install 'chimera_dsl[web]'.
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        fail(t("web_extra", module=error.name))
    from .serve import serve
    serve(variant, host=host, port=port, players=players_spec, data=data, delay=delay, target=target,
          max_rounds=rounds, seed=seed, allow_origins=allow_origins, max_waiting=max_waiting,
          max_sockets=max_sockets,
          expire_after=expire_after, replace_after=replace_after, announce=lambda text: click.echo(text, err=True),
          lang=lang)


@main.command("replay")
@click.argument("record", type=click.Path())
@click.option("--variant", type=click.Path(), default=None,
              help="Check against this variant instead of the one the record names.")
@click.option("--quiet", is_flag=True, help="Print only the result.")
@click.option("--json", "as_json", is_flag=True,
              help='Answer as JSON: {"valid": true, "rounds", "totals", "winner", ...} or '
                   '{"valid": false, "line", "reason"} (exit 2).')
@lang_option
@handles_errors
def replay_command(record, variant, quiet, as_json, lang):
    """Check that the game RECORD is a legal game under its variant, and tell it.

    A record that breaks the rules, or is not a game record, is reported with its line (exit 2).
    """
    import tempfile

    from .errors import RecordError
    from .tell.printer import Teller, result_line
    from .tell.record import first_event, replay_file, variant_of
    path, changed = None, False
    # the story is told as the record is checked, into a file that spills to disk past 1 MiB, and
    # shown once the whole record has been found good: nothing of a bad record is told
    story = None if quiet or as_json else tempfile.SpooledTemporaryFile(1 << 20, "w+", encoding="utf-8")
    ends: list[dict] = []                # the game's first and last lines
    try:
        start = first_event(record)
        path, note = variant_of([start], record, variant)
        try:
            rules = load(path)
        except VariantError as error:
            if variant is not None:     # named by the user: its problems, lines quoted, are for them
                raise
            # named by the record, which may name any file: say that it does not load, never
            # what it holds (a problem quotes lines and values of the file)
            raise RecordError(t("record_variant", path=path, n=len(error.problems)), start[0], record) from None
        written = start[1].get("variant_path")
        own = variant is None or (isinstance(written, str) and _same_file(variant, written, record))
        changed = own and bool(note) and rules.source_hash != note
        if changed:
            say(t("warning", message=t("variant_changed", path=path, record=record)), err=True)
        elif not own and note and rules.source_hash != note:
            said = t("other_variant_named", record=record, written=written, path=path) if isinstance(written, str) \
                else t("other_variant", record=record, path=path)
            say(t("note", message=said), err=True)
        teller = Teller(rules, lang=lang) if story is not None else None

        def checked(event: dict) -> None:       # each line once the engine's agrees with it
            if not ends:
                ends.append(event)
            ends[1:] = [event]
            if teller is not None:
                for told in teller.lines((event,)):
                    story.write(printable(told) + "\n")     # escaped: one line, and UTF-8
        replay_file(record, rules, on_line=checked)
    except RecordError as error:
        if not as_json:
            raise
        emit_json({"valid": False, "line": error.line, "reason": error.message, "variant": path,
                   "variant_changed": changed, "error": str(error),
                   "problems": [{"file": error.file, "line": error.line, "column": None,
                                 "message": error.message, "hint": None}]})
        raise Exit(EXIT_INPUT)
    end = ends[-1]
    if as_json:
        answer = {"valid": True, "variant": path, "variant_changed": changed, "rounds": end.get("rounds"),
                  "totals": end["totals"], "winner": end["winner"]}
        if end.get("winners"):
            answer["winners"] = end["winners"]          # a shared win: the seats sharing it
        emit_json(answer)
    elif quiet:
        say(result_line(end, ends[0].get("player_names"), lang=lang))
    else:
        story.seek(0)
        for told in story:
            click.echo(told[:-1])
        story.close()


@main.command("analyse")
@click.argument("variant", type=click.Path())
@click.option("--against", type=click.Path(), default=None, help="Another variant, shown side by side (B).")
@click.option("--samples", type=click.IntRange(1, 1_000_000), default=20_000, show_default=True,
              help="Hands drawn when there are too many to list.")
@click.option("--exact-budget", type=click.IntRange(0, 1_000_000), default=20_000, show_default=True,
              help="List every rank-count hand when there are at most this many (exact chances).")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the drawn hands.")
@click.option("--union", "unions", multiple=True, metavar="A,B[,...]",
              help="Also the chance a hand holds any of these combinations (ids or names; repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON on standard output.")
@click.option("--report", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write a self-contained HTML page.")
@messages_option
@handles_errors
def analyse_command(variant, against, samples, exact_budget, seed, unions, as_json, report, lang):
    """What VARIANT's rules give before anyone plays: the chance a hand holds each combination.

    For a dealt hand (and the bidder's hand with the nest, where the bidder takes it): exact
    when the rank-count hands are few enough to list, otherwise sampled with 95% intervals;
    combinations that can never be played; card sets that read as several combinations.
    A file without combinations (trick-taking) is refused with that reason.
    """
    from .study.analyse import analyse, analysis_json, render_analysis, side_by_side
    _check_report_path(report)
    rules = load(variant)
    other = load(against) if against else None
    console = None if as_json else _output_console()
    words = None if as_json else _figure_words(rules, lang)
    # each hand's table is printed as soon as it is counted (with --against, once B's is)
    shown = None if as_json or other is not None else \
        (lambda hand: render_analysis(analysis_json({"hands": [hand]}), console, lang, words, parts=("hands",)))
    data = analyse(rules, samples=samples, exact_budget=exact_budget, seed=seed, unions=unions, on_hand=shown)
    if other is not None:
        first = data

        def beside(hand: dict) -> None:
            mine = [h for h in first["hands"] if h["id"] == hand["id"]]
            if console is not None and mine:
                render_analysis(analysis_json({"a": {"hands": mine}, "b": {"hands": [hand]}}), console, lang, words,
                                parts=("hands",))
        data_b = analyse(other, samples=samples, exact_budget=exact_budget, seed=seed, unions=unions, on_hand=beside)
        data = {"a": data, "b": data_b, "side_by_side": side_by_side(data, data_b)}
    data = analysis_json(data)
    if as_json:
        emit_json(data)
    else:
        render_analysis(data, console, lang, words, parts=("deck",))
    if report:
        from .study.report import analysis_report
        _write_report(report, analysis_report(data))


def _figure_words(rules, lang: str) -> dict:
    """The names a figure's label reads, in ``lang``: the roles, the bidder's with its articles,
    and the combinations (as the file names them in that language, else in English, else by id);
    and the variant's title in that language."""
    from .tell.articles import gender_of, role_forms, title_of, word
    from .study.summary import bonus_label_words
    roles = rules.spec.get("roles") or {}
    bidder = word(roles.get("bidder", "bidder"), lang)
    combinations = {}
    for c in rules.combinations:
        names = getattr(c, "names", None) or {}
        combinations[c.id] = str(names.get(lang) or names.get("en") or c.id)
    return {"bidder": bidder, "others": word(roles.get("others", "others"), lang), "combinations": combinations,
            "fields": role_forms(bidder, gender_of(roles.get("bidder", "bidder"), lang), lang, "bidder"),
            "bonuses": bonus_label_words(rules, lang),
            "title": title_of(rules, lang)}


def _same_file(given: str, written: str, record: str) -> bool:
    """Is ``given`` (--variant) the file the record names (as written, or beside the record)?"""
    from pathlib import Path
    for candidate in (Path(written), Path(record).parent / written):
        try:
            if candidate.is_file() and os.path.samefile(candidate, given):
                return True
        except OSError:
            continue
    return False


def _record_text(events) -> str:
    """The record of a game as written by run and play: the variant's path made absolute, so
    that the record replays from any folder."""
    from .tell.record import dumps
    events = list(events)
    if events:
        events[0] = _absolute_start(events[0])
    return dumps(events)


def _absolute_start(start: dict) -> dict:
    """``game_start`` with its variant's path made absolute."""
    if isinstance(start.get("variant_path"), str) and start["variant_path"]:
        return {**start, "variant_path": os.path.abspath(start["variant_path"])}
    return start


def simulation_options(func):
    """The options `simulate` and `compare` share."""
    options = [
        click.option("--games", type=int, default=None, help="Play N whole games."),
        click.option("--rounds", type=int, default=None, help="Play N single rounds instead of games."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Unit i plays with a seed derived from (SEED, i): the same seed, the same figures."),
        click.option("--players", default=None,
                     help="Who plays: one name for every seat or one per seat, e.g. heuristic,random,random "
                          "(default: heuristic)."),
        search_budget_option,
        click.option("--target", type=int, default=None, help="Points that end a game, instead of the variant's."),
        click.option("--workers", type=int, default=None, help="Processes to use (default: every core)."),
        click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="Where the games run: this machine, or a Dask cluster (extra 'dask')."),
        click.option("--address", default=None,
                     help="The Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: a local cluster)."),
        click.option("--seconds-per-play", type=click.FloatRange(min=0, min_open=True, max=3600), default=None,
                     help="The pace for the estimated playing time: seconds per play or pass at the table "
                          "(default: 6)."),
        click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON on standard output."),
        click.option("--report", type=click.Path(dir_okay=False, writable=True), default=None,
                     help="Also write a self-contained HTML page with tables and charts."),
        messages_option,
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _run_simulation(call, units: int):
    """Run ``call(progress)`` with a progress bar when standard error is a terminal."""
    if not sys.stderr.isatty():
        return call(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    # no refresh thread: the bar is redrawn as chunks come back, and worker processes never fork
    # from a process with a drawing thread
    progress = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                        auto_refresh=False, transient=True)
    with progress:
        task = progress.add_task(t("simulating"), total=units)
        progress.refresh()

        def advance(n: int) -> None:
            progress.advance(task, n)
            progress.refresh()
        return call(advance)


def _units(games, rounds) -> tuple[int, bool]:
    if games is not None and rounds is not None:
        fail(t("both_units"))
    if games is None and rounds is None:
        fail(t("no_units"))
    count = games if games is not None else rounds
    if count < 1:
        fail(t("few_games" if games is not None else "few_rounds", n=count))
    return count, rounds is not None


class _Unpadded:
    """Standard output without the spaces rich pads each line with to the console's width: a
    piped table is read by programs and diffs, where those spaces are noise."""

    def __init__(self, out):
        self.out, self.pending = out, ""

    def write(self, text: str) -> int:
        *lines, self.pending = (self.pending + text).split("\n")
        for line in lines:
            self.out.write(line.rstrip(" ") + "\n")
        return len(text)

    def flush(self) -> None:
        self.out.flush()


def _output_console():
    from rich.console import Console
    if sys.stdout.isatty():
        return Console()
    return Console(file=_Unpadded(sys.stdout), width=120, force_terminal=False, color_system=None)


@main.command()
@click.argument("variant", type=click.Path())
@simulation_options
@handles_errors
def simulate(variant, games, rounds, seed, players, search_budget, target, workers, backend, address,
             seconds_per_play, as_json, report, lang):
    """Play many games of VARIANT and print what happened, each figure with its 95% interval.

    The same seed gives the same figures whatever the number of workers or the backend.
    """
    from .study import simulate as sim
    rules = load(variant)       # a missing file before a missing option, as compare
    count, single = _units(games, rounds)
    _check_report_path(report)
    summary, info = _run_simulation(
        lambda progress: sim.simulate(rules, count, single_rounds=single, seed=seed, players=players,
                                      target=target, workers=workers, backend=backend, address=address,
                                      progress=progress, search_budget=search_budget), count)
    data = sim.simulation_data(summary, info, _pace(seconds_per_play))
    if not as_json:                 # the JSON holds them; its standard error stays clean
        _say_warnings(data)
    if as_json:
        emit_json(data)
    else:
        sim.render_simulation(data, _output_console(), lang, _figure_words(rules, lang))
    if report:
        from .study.analyse import REPORT_SAMPLES, analysable, analyse, analysis_json
        from .study.report import simulation_report
        analysis = analysis_json(analyse(rules, samples=REPORT_SAMPLES, seed=seed)) if analysable(rules) else None
        _write_report(report, simulation_report(data, analysis))


@main.command()
@click.argument("variant_a", type=click.Path())
@click.argument("variant_b", type=click.Path())
@simulation_options
@handles_errors
def compare(variant_a, variant_b, games, rounds, seed, players, search_budget, target, workers, backend, address,
            seconds_per_play, as_json, report, lang):
    """Play VARIANT_A and VARIANT_B on the same seeds and show each figure's difference (B - A).

    Differences are paired seed by seed; fairness, success and length first; significance is
    corrected for the number of figures compared (Holm).
    """
    from .study import simulate as sim
    rules_a, rules_b = load(variant_a), load(variant_b)    # a missing file before a missing option
    count, single = _units(games, rounds)
    _check_report_path(report)
    comparison = _run_simulation(
        lambda progress: sim.compare(rules_a, rules_b, count, single_rounds=single, seed=seed, players=players,
                                     target=target, workers=workers, backend=backend, address=address,
                                     progress=progress, search_budget=search_budget), count)
    data = sim.comparison_data(comparison, _pace(seconds_per_play))
    if not as_json:
        _say_warnings(data)
    if as_json:
        emit_json(data)
    else:
        sim.render_comparison(data, _output_console(), lang, _figure_words(rules_a, lang),
                              _figure_words(rules_b, lang)["title"])
    if report:
        from .study.analyse import REPORT_SAMPLES, analysable, analyse, analysis_json
        from .study.report import comparison_report
        analysis = None
        if analysable(rules_a) and analysable(rules_b):     # a trick-taking file has no combinations
            analysis = analysis_json({"a": analyse(rules_a, samples=REPORT_SAMPLES, seed=seed),
                                      "b": analyse(rules_b, samples=REPORT_SAMPLES, seed=seed)})
        _write_report(report, comparison_report(data, analysis))


def _say_warnings(data: dict) -> None:
    """What the reader of the figures must know, on standard error (in the JSON and report too,
    in English); the warnings in the command's language."""
    from .study.figures import warnings_for
    for note in data["run"].get("notes", ()):
        say(t("note", message=note), err=True)
    warnings = data.get("warnings", ())
    if warnings and message_language() != "en":
        warnings = warnings_for(data["run"]["players"], message_language(), data["run"].get("later_rounds", ()))
    for warning in warnings:
        say(t("warning", message=warning), err=True)


def _pace(seconds_per_play: float | None) -> float:
    from .study.figures import DEFAULT_SECONDS_PER_PLAY
    return DEFAULT_SECONDS_PER_PLAY if seconds_per_play is None else seconds_per_play


def _check_report_path(path: str | None) -> None:
    """Refuse a report path that cannot be written before any game is played."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        fail(t("report_folder", path=path, folder=folder))
    if not os.access(folder, os.W_OK):
        fail(t("report_writable", path=path, folder=folder))


def _write_report(path: str, page: str) -> None:
    from pathlib import Path
    Path(path).write_text(page, encoding="utf-8")
    click.echo(t("report_written", path=path), err=True)


def run(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` and return the exit code (``main(argv) -> int``)."""
    for stream in (sys.stdout, sys.stderr):     # a terminal that cannot show a character gets an escape
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass
    args = list(sys.argv[1:] if argv is None else argv)
    _asked["lang"] = _asked_language(args)
    try:
        main.main(args=args, prog_name="chimera", standalone_mode=False)
    except Exit as done:
        return done.code
    except click.exceptions.Abort:
        click.echo(t("aborted"), err=True)
        return 130
    except click.ClickException as error:
        if "--json" in args:            # asked for JSON: the usage error too
            emit_json({"error": error.format_message(), "problems": []})
        else:                           # one style for every error: ours, not click's "Error:"
            say(t("error", message=error.format_message()), err=True)
            context = getattr(error, "ctx", None)
            if context is not None:
                usage = context.get_usage().replace(_translated("Usage:") + " ", "", 1).strip()
                say(t("usage", usage=usage, command=context.command_path), err=True)
        return EXIT_INPUT
    except click.exceptions.Exit as done:
        return done.exit_code
    except BrokenPipeError:             # the reader went away (| head): stop quietly
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_YES
    except Exception as error:  # a bug: say so plainly; CHIMERA_DEBUG=1 shows the traceback
        if os.environ.get("CHIMERA_DEBUG"):
            raise
        say(t("internal", error=f"{type(error).__name__}: {error}"), err=True)
        return EXIT_INTERNAL
    return EXIT_YES


def entry_point() -> None:
    """Console script entry: exit with the command's code."""
    sys.exit(run())
