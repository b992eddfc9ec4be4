"""chimera_dsl: a rules engine for climbing and trick-taking card games, driven by declarative variant files.

>>> import chimera_dsl
>>> rules = chimera_dsl.load_variant("variants/chimera.yaml")
>>> rules.beats("5 5 5 12", "7 7 7 5")   # may the second be played on the first?
True
"""
from .errors import CardError, ChimeraError, PatternError, Problem, RecordError, VariantError
from .matcher import Play
from .rules import Rules

__version__ = "0.1.0"


def load_variant(path):
    """Load, check and compile a variant file; raises :class:`VariantError` listing every problem."""
    from .variant import load_variant as _load
    return _load(path)


__all__ = ["load_variant", "Rules", "Play", "ChimeraError", "VariantError", "PatternError",
           "CardError", "RecordError", "Problem", "__version__"]
