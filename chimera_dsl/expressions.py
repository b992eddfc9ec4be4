"""``chimera_dsl.expressions``, the path docs/expressions.md gives programs for the expression
language: the same names as :mod:`chimera_dsl.language.expressions`, where the code lives.
This module only re-exports them, so that ``from chimera_dsl.expressions import Scope,
Function, compile_expression`` keeps working.
"""
from .language.expressions import (BUILTINS, KEYWORDS, LIMIT, MAX_DEPTH, MAX_DIGITS, MAX_EXPONENT, MAX_LENGTH,
                                   MAX_NODES, TYPES, Expression, Function, Scope, compile_expression)

__all__ = ["Scope", "Function", "Expression", "compile_expression", "TYPES", "KEYWORDS", "BUILTINS", "LIMIT",
           "MAX_LENGTH", "MAX_NODES", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT"]
