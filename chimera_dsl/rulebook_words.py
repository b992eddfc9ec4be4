"""Phrases of the climbing rulebook that read the very cards, by language: the rules on colours,
compared and ordered combinations, the first lead and the last card; the clauses of a pattern
that read cards one by one, cap a rank or refuse a longer chain.  :mod:`chimera_dsl.rulebook`
writes them.
"""
from __future__ import annotations

from typing import Any


# The sentences of the rules that read the very cards (colours that rank, ordered combinations,
# a card in the first lead, the last card).
RULE_WORDS: dict[str, dict[str, Any]] = {
    "en": {"colours_rank": "Colours, lowest first: {c}; where plays compare card by card, a later colour beats an earlier one at the same value.",
           "compare_cards": "These compare card by card: the rank, then the values from the highest card, then the colours: {names}.",
           "compare_parts": "{names}: the first part is compared this way first; the attached cards decide only when it is equal.",
           "order": "Plays of as many cards among these beat one another in this order: {names}.",
           "order_equal": "{names} share one place in this order: between them, the stronger play beats, as within one combination.",
           "and": " and ",
           "rank_parts": "A play with attached cards ranks by its first part alone: {names}.",
           "rank_chain": "A chain ranks by its highest rank: {names}.",
           "first_lead": "The round's first lead must hold {card}{when}.",
           "first_lead_when": "{When}, the round's first lead must hold {card}.",
           "last_card_must": "When the next player holds {cards} or fewer, the player before must play its strongest card on a single when it beats it (no pass), and a single it leads is its strongest card.",
           "last_card_may_pass": "When the next player holds {cards} or fewer, a single played by the player before is its strongest card (it may still pass)."},
    "fr": {"colours_rank": "Couleurs, de la plus faible : {c} ; là où les combinaisons se comparent carte à carte, une couleur plus loin bat une couleur plus tôt à valeur égale.",
           "compare_cards": "Ces combinaisons se comparent carte à carte : le rang, puis les valeurs depuis la plus forte carte, puis les couleurs : {names}.",
           "compare_parts": "{names} : la première partie se compare d'abord ainsi ; les cartes attachées ne départagent qu'à égalité.",
           "order": "À nombre de cartes égal, celles-ci se battent dans cet ordre : {names}.",
           "order_equal": "{names} ont la même place dans cet ordre : entre elles, la combinaison la plus forte l'emporte, comme au sein d'une même combinaison.",
           "and": " et ",
           "rank_parts": "Une combinaison avec des cartes attachées se classe par sa première partie seule : {names}.",
           "rank_chain": "Une suite se classe par sa plus haute valeur : {names}.",
           "first_lead": "La première entame de la manche doit contenir {card}{when}.",
           "first_lead_when": "{When}, la première entame de la manche doit contenir {card}.",
           "last_card_must": "Quand le joueur suivant n'a plus que {cards}, le joueur qui le précède doit jouer sa carte la plus forte sur un single quand elle le bat (sans passer), et un single qu'il entame est sa carte la plus forte.",
           "last_card_may_pass": "Quand le joueur suivant n'a plus que {cards}, un single joué par le joueur qui le précède est sa carte la plus forte (il peut passer)."},
    "de": {"colours_rank": "Farben, niedrigste zuerst: {c}; wo Kombinationen Karte für Karte verglichen werden, schlägt eine spätere Farbe eine frühere bei gleichem Wert.",
           "compare_cards": "Diese werden Karte für Karte verglichen: Rang, dann die Werte ab der höchsten Karte, dann die Farben: {names}.",
           "compare_parts": "{names}: Zuerst wird der erste Teil so verglichen; die angehängten Karten entscheiden nur bei Gleichheit.",
           "order": "Bei gleich vielen Karten schlagen sich diese in dieser Reihenfolge: {names}.",
           "order_equal": "{names} haben in dieser Reihenfolge denselben Platz: zwischen ihnen schlägt die stärkere Kombination, wie innerhalb einer Kombination.",
           "and": " und ",
           "rank_parts": "Eine Kombination mit angehängten Karten zählt nur nach ihrem ersten Teil: {names}.",
           "rank_chain": "Eine Folge zählt nach ihrem höchsten Wert: {names}.",
           "first_lead": "Das erste Ausspiel der Runde muss {card} enthalten{when}.",
           "first_lead_when": "{When} muss das erste Ausspiel der Runde {card} enthalten.",
           "last_card_must": "Hat der nächste Spieler nur noch {cards}, muss der Spieler davor auf eine Einzelkarte seine höchste Karte spielen, wenn sie sticht (kein Passen), und eine Einzelkarte, die er ausspielt, ist seine höchste.",
           "last_card_may_pass": "Hat der nächste Spieler nur noch {cards}, ist eine Einzelkarte des Spielers davor seine höchste Karte (er darf passen)."},
}


# The words of the parts and clauses that read cards one by one (any N cards, one colour).
CARD_WORDS: dict[str, dict[str, Any]] = {
    "en": {"p_cards": "any {n} cards", "p_same_colour": "all of one colour (a card of a wild colour takes it)",
           "p_singles": "{k} single cards", "p_groups": "{k} groups of {n} cards of one rank",
           "p_at_most": "at most {n} attached cards of any one rank",
           "p_not_extending": "the attached cards never hold {unit} of a rank just below or above the chain (that is a longer chain)"},
    "fr": {"p_cards": "{n} cartes quelconques", "p_same_colour": "toutes d'une couleur (une carte multicolore la prend)",
           "p_singles": "{k} cartes seules", "p_groups": "{k} groupes de {n} cartes de même valeur",
           "p_at_most": "au plus {n} cartes attachées d'une même valeur",
           "p_not_extending": "les cartes attachées ne contiennent jamais {unit} d'une valeur juste au-dessous ou au-dessus de la suite (ce serait une suite plus longue)"},
    "de": {"p_cards": "{n} beliebige Karten", "p_same_colour": "alle von einer Farbe (eine Joker-Farbe nimmt sie an)",
           "p_singles": "{k} Einzelkarten", "p_groups": "{k} Gruppen von je {n} gleichen Karten",
           "p_at_most": "höchstens {n} angehängte Karten eines Werts",
           "p_not_extending": "die angehängten Karten enthalten nie {unit} eines Werts direkt unter oder über der Folge (das wäre eine längere Folge)"},
}

# A chain's unit (its cards of one rank) as the not-extending clause names it, by size.
UNIT_WORDS: dict[str, dict[int, str]] = {
    "en": {1: "a card", 2: "a pair", 3: "a trio", 4: "four cards"},
    "fr": {1: "une carte", 2: "une paire", 3: "un brelan", 4: "quatre cartes"},
    "de": {1: "eine Karte", 2: "ein Paar", 3: "einen Drilling", 4: "vier Karten"},
}
