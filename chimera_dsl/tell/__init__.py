"""Telling games and rules in words and records: the game record
(:mod:`~chimera_dsl.tell.record`: write, read, replay), the printer of a game
(:mod:`~chimera_dsl.tell.printer`), the words of an action (:mod:`~chimera_dsl.tell.wording`,
:mod:`~chimera_dsl.tell.articles`) and the generated rulebook (:mod:`~chimera_dsl.tell.rulebook`
and its parts) in en, fr and de.  It reads the engine; the players and the tools above use it.
"""
