"""Effects of plays on the file's values (``play.effects``: ``{add: {NAME: NUMBER}}`` and
``{set: {NAME: NUMBER}}``), one mechanism for every kind of play.

An entry says *at* which moment its condition is read (``play``: after a play; ``trick_end``:
as a trick ends), *when* it applies (an expression) and what it does to a value of ``values``.
Each kind of play gives the names its conditions read (its scope: the play and the table as
that kind knows them, see ``docs/variant-format.md``) and, as it goes, the environment they
are read in; compiling the entries, reading the values into that environment and changing
them are the same for all, here.  A value kept per seat is the player's (at ``trick_end``,
the trick's winner's); one kept per team changes for every seat of the team; one for the
table is the table's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import ExpressionError, Problem, VariantError
from ..scoring import kept_value

VALUE_EFFECTS = ("add", "set")
"""The effects of ``play.effects`` that change a value of the file (``values``)."""
VALUE_TIMES = ("play", "trick_end")
"""When a value may change: after a play, or as a trick ends."""


@dataclass(frozen=True)
class Effect:
    """One entry of ``play.effects``: at ``at`` (``play``, ``trick_end`` or ``round_end``), when
    ``when`` holds over the play (at a trick's end, the play that took it), do ``name`` (with
    ``arg``)."""

    at: str
    when: Any
    name: str
    arg: Any = None          # add/set: (value, amount); lead_to/trick_to: its word; wish: rank indices


def _bad(path: tuple, message: str, hint: str | None = None):
    name = ".".join(str(p) for p in path)
    raise VariantError([Problem(f"{name} {message}", tuple(path), hint=hint)])


def expression(path: tuple, text, scope: dict, expect: str = "bool") -> Any:
    """A condition of the play (``expect``: ``number`` for a number), compiled against ``scope``
    (the keyword arguments of a :class:`~chimera_dsl.language.expressions.Scope`); its errors
    are located at ``path``."""
    from ...language.expressions import Scope, compile_expression
    written = "true" if text is True else "false" if text is False else str(text)
    try:
        return compile_expression(written, Scope(**scope), expect=expect)
    except ExpressionError as error:
        raise VariantError([Problem(p.message, path, p.offset, p.hint) for p in error.problems]) from None


def is_value_effect(do) -> bool:
    """Is ``do`` (an entry's ``do``) ``{add: ...}`` or ``{set: ...}``?"""
    return isinstance(do, dict) and len(do) == 1 and next(iter(do)) in VALUE_EFFECTS


def refuse_shadowed_values(rules, scope: dict) -> None:
    """A value of ``values`` named as a name of the play that the effects read (``play_size``,
    ``trick``...) would hide it: refused at ``values.NAME``."""
    taken = set(scope.get("numbers", ())) | set(scope.get("bools", ()))
    problems = [Problem(f"values.{name}: '{name}' is already a name the effects of the play read",
                        ("values", name), hint="give the value another name")
                for name in map(str, rules.spec.get("values") or {}) if name in taken]
    if problems:
        raise VariantError(problems)


def with_values(rules, scope: dict) -> dict:
    """``scope`` with the file's values as numbers (a seat's value: the player's, at a trick's
    end the winner's)."""
    values = tuple(str(v) for v in rules.spec.get("values") or {})
    return {**scope, "numbers": tuple(scope.get("numbers", ())) + values}


def compile_value_effect(where: tuple, entry: dict, rules, scope: dict) -> Effect:
    """``{add: {NAME: EXPR}}`` or ``{set: {NAME: EXPR}}`` at ``play`` or ``trick_end``: a value of
    ``values`` changed as the play goes.  ``EXPR`` and ``when`` are read over ``scope`` (what
    the play's conditions read, without the values: they are added here)."""
    do = entry["do"]
    name = next(iter(do))
    arg = do[name]
    declared = {str(k): v for k, v in (rules.spec.get("values") or {}).items()}
    example = f"{{{name}: {{{next(iter(declared), 'bombs')}: 1}}}}"
    if not isinstance(arg, dict) or len(arg) != 1:
        _bad(where + ("do", name), f"names one value and the number to {name}", f"e.g. {example}")
    value, text = next(iter(arg.items()))
    value = str(value)
    if value not in declared:
        _bad(where + ("do", name, value), f"{name}s to '{value}', which values: does not declare",
             ("declared values: " + ", ".join(declared)) if declared else
             f"declare it, e.g. values: {{{value}: {{per: round, range: [0, 100]}}}}")
    at = str(entry.get("at", "play"))
    if at not in VALUE_TIMES:
        _bad(where + ("at",), f"is '{at}': a value changes after a play (play) or as a trick ends (trick_end)",
             "at: play or at: trick_end")
    scope = with_values(rules, scope)
    when = expression(where + ("when",), entry.get("when", "true"), scope)
    amount = expression(where + ("do", name, value), text, scope, expect="number")
    return Effect(at, when, name, (value, amount))


# -- as the play goes ----------------------------------------------------------------------------

def read_values(state, seat: int, env: dict) -> dict:
    """``env`` with the file's values as ``seat`` has them (one for the table: the table's)."""
    for name, held in state.values.items():
        env[name] = held[seat] if isinstance(held, list) else held
    return env


def change_value(state, effect: Effect, seat: int, env: dict) -> None:
    """An effect ``add`` or ``set``: the value it names changed, the table's, or ``seat``'s (and
    its team's seats', for a value kept per team), kept whole and within its range; ``env``
    then reads the new value."""
    name, amount = effect.arg
    scoring = state._round.scoring
    value = next(v for v in scoring.values if v.name == name)
    number = amount.evaluate(env)
    new = kept_value(value, env[name] + number if effect.name == "add" else number)
    env[name] = new
    held = state.values[name]
    if value.each is None:
        state.values[name] = new
    elif value.each == "team":
        team = scoring.team_of[seat]
        for other, first in enumerate(scoring.team_of):
            if first == team:
                held[other] = new
    else:
        held[seat] = new


def change_values(state, effects, at: str, seat: int, env: dict) -> None:
    """The effects ``add`` and ``set`` at ``at`` whose condition holds over ``env``, in order,
    each reading the values as those before it left them (``seat``: whose values they are)."""
    for effect in effects:
        if effect.at == at and effect.name in VALUE_EFFECTS and effect.when.evaluate(env):
            change_value(state, effect, seat, env)
