"""Shipped variant files that need more copies of a rank than the packed rank counts hold.

Mü for four to six players has ten cards of rank 1 and of rank 7; ``cards.MAX_COPIES`` (4-bit
fields) allows seven.  Until the cap is lifted these files are refused with a located
message, and the tests over every shipped file expect that (strictly: once the cap allows
ten, the marks fall away by themselves).
"""
from __future__ import annotations

import pytest

from chimera_dsl import cards

NEEDS_TEN = {"mu.yaml", "mu-4.yaml", "mu-6.yaml"}
CAPPED = getattr(cards, "MAX_COPIES", 10 ** 6) < 10


def shipped(paths) -> list:
    """``paths`` as pytest parameters, the files the cap refuses marked as expected failures."""
    reason = "ten cards of one rank: waits for cards.MAX_COPIES to be lifted"
    return [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=reason))
            if CAPPED and p.name in NEEDS_TEN else p for p in paths]
