"""The languages a variant file is written in, read into trees that keep their places: YAML
(:mod:`~chimera_dsl.language.yamlsource`), combination patterns
(:mod:`~chimera_dsl.language.patterns`) and expressions (:mod:`~chimera_dsl.language.expressions`).

This layer reads text; it knows the cards (:mod:`chimera_dsl.cards`) and the errors, nothing
above them (see docs/internals.md, "Layout").
"""
