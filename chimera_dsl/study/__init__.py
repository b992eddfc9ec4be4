"""Studying variants: many games played and summed up (:mod:`~chimera_dsl.study.simulate`,
:mod:`~chimera_dsl.study.summary`, :mod:`~chimera_dsl.study.figures`,
:mod:`~chimera_dsl.study.stats`), the analysis of deals before anyone plays
(:mod:`~chimera_dsl.study.analyse`) and the HTML report (:mod:`~chimera_dsl.study.report`).
"""
