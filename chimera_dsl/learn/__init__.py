"""Learning to play: the fixed action space of a variant (:mod:`~chimera_dsl.learn.actions`),
what a seat sees as vectors (:mod:`~chimera_dsl.learn.observe`, numpy), any variant as an
OpenSpiel game (:mod:`~chimera_dsl.learn.spiel`, extra ``peers``) and as a PettingZoo
environment (:mod:`~chimera_dsl.learn.rl`, extra ``rl``).  Nothing else in the package imports
it; see docs/learning.md.
"""
