"""The kinds of phase, one module each: the bidding and the transfers
(:mod:`~chimera_dsl.engine.phases.bidding`), the climbing play
(:mod:`~chimera_dsl.engine.phases.climbing`), the trump and the tricks
(:mod:`~chimera_dsl.engine.phases.tricks`, with the announcements of
:mod:`~chimera_dsl.engine.phases.announce`), the auction and the partner
(:mod:`~chimera_dsl.engine.phases.auction`); :mod:`~chimera_dsl.engine.phases.registry` maps
the kinds that run as modules to them.

A phase module reads the state it is given; it imports neither the state nor the game
(:mod:`chimera_dsl.engine.state` and :mod:`chimera_dsl.engine.game` import it).
"""
