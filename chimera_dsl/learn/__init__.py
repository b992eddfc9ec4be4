"""Learning to play: a variant as a PettingZoo environment (:mod:`~chimera_dsl.learn.rl`,
extra ``rl``).  Nothing else in the package imports it.
"""
