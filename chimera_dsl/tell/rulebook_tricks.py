"""The generated rulebook of a trick-taking variant (``play.kind: tricks``), in en, fr and de.

:func:`chimera_dsl.tell.rulebook.write_rulebook` hands a trick-taking variant to
:func:`trick_rulebook` and adds the end of the game; every sentence is read from the file (the
deck, who chooses the trump, the rules of following, card points, announcements, scoring).
"""
from __future__ import annotations

import json
import re
from typing import Any

from .rulebook_words import T, round_words
from .say import Speaker, humanise

S: dict[str, dict[str, Any]] = {
    "en": {
        "players": "{n} players", "teams": ", in teams: {teams}.", "alone": ", each playing alone.",
        "team": "seats {seats}", "team_sep": "; ", "cards": "Cards", "deck": "{n} cards: {ranks}, in each colour ({colours}).",
        "plain": "Outside trumps, strongest first: {order}.", "trump_order": "In the trump colour, strongest first: {order}.",
        "points": "Card points: {list}.", "trump_points": "Cards of the trump colour: {list}.",
        "last": "The last trick is worth {n} more.", "all": "A side that takes every trick scores {n} more.",
        "total": "{n} points in all.",
        "factor": "When the trump is {trump}, every point of the round counts {times}: the cards, the last trick, the bonus for every trick and the announcements.",
        "factor_none": "In a round without trump, every point counts {times}: the cards, the last trick, the bonus for every trick and the announcements.",
        "times": {2: "double", 3: "triple"}, "times_n": "{n} times",
        "deal": "Dealing", "dealer_random": "The first dealer is drawn at random.", "dealer_seat": "Seat {s} deals first.",
        "next_dealer": "The next round is dealt by {who}.", "next_dealer_role": "The next round is dealt by {who} of this round.",
        "hand": "Each player receives {n} cards.",
        "direction": "Play turns {d}.", "clockwise": "clockwise", "counterclockwise": "counter-clockwise",
        "trump": "Trump", "chooser": "{who} chooses the trump: {choices}.", "colour_choice": "a colour",
        "rank_choice": "a rank", "none_choice": "no trump", "or": " or ",
        "pass_partner": "That player may instead pass the choice, once, to the partner, who must choose.",
        "role": "The seat first asked is {role_the} of the round.",
        "play": "Play", "leader": "{who} leads the first trick; the taker of a trick leads the next.",
        "one_card": "Each player in turn plays one card.",
        "follow_suit": "A player must play a card of the colour led if possible; otherwise any card.",
        "follow_suit_or_trump": "A player must play a card of the colour led or a trump; with neither, any card.",
        "trump_lead": "A trump lead must be answered with a trump if possible.",
        "exempt": "Exception: {ranks} of the trump colour never has to be played to answer a trump lead.",
        "undertrump_forbidden": "After a trump on a lead of another colour, a lower trump may not be played unless nothing else can be.",
        "undertrump_unless_only_trumps": "After a trump on a lead of another colour, a lower trump may not be played unless the hand holds only trumps.",
        "winner": "The highest trump takes the trick; without trumps, the highest card of the colour led; between equal cards, the first played.",
        "melds": "Announcements", "melds_intro": "With the first card, each player announces what the hand holds:",
        "seq": "{n} cards in a row of one colour ({order} order): {p}", "seq_longer": "longer runs score as the longest listed",
        "set": "all the {rank}: {p}", "pair": "{ranks} of the trump colour, announced when the second is played: {p}",
        "pair_always": "it scores whoever has the best announcement",
        "pair_with": "compared with the other announcements like one of them",
        "melds_best": "Only the side with the best announcement scores, all of its own: more points win, then more cards, then the higher top card, then a run in trumps.",
        "melds_tie_first": "Still equal: the side that announced first.", "melds_tie_nobody": "Still equal: neither side scores.",
        "melds_at_once": "Announcements score at once (after the first trick; the trump pair as its second card is played): a side they bring to the end of the game wins there, without finishing the round.",
        "none_trump": "no trump",
        "among_laid": "Only a colour or a value of the cards that player laid face up may be chosen.",
        "layer": "This is trump layer {n} (1 is the strongest): cards of a stronger layer beat it; a card of two layers beats both.",
        "auction": "Auction", "auction_turn": "{who} begins; in turn, each player lays cards of the hand face up (they stay in the hand, seen by all) or passes, and may lay again after passing.",
        "auction_limit": "A player's cards laid may exceed the most laid so far by at most {n}.",
        "auction_per_turn": "At most {n} cards in one turn.",
        "auction_end": "The auction ends when every player has passed in a row; who laid most is {bidder_the}, and the bid is that number of cards.",
        "dispute_tied": "If several laid most, it is a dispute: each of them scores {gain} per card laid, except the last of them to lay, who loses {loss} per card; the cards are dealt again.",
        "dispute_all": "If several laid most, it is a dispute: every player scores {gain} per card laid, except the last of the tied players to lay, who loses {loss} per card; the cards are dealt again.",
        "second_here": "Who laid most among the others is {role_the} (ties: the highest card laid, then the next; still tied, nobody).",
        "partner": "Partner", "partner_names": "{Bidder_the} names a partner, who may not be {but}. They play together against the others.",
        "when": "Only when `{when}`.", "when_words": "Only {when}.",
        "sides": ", in two sides each round: {bidder_the} and a partner {bidder_the} names, against the others.",
        "layer_first": "This is trump layer 1, the strongest.",
        "none_keeps": "Choosing no trump leaves this layer empty: the other layers' trumps stay.",
        "no_chooser": "When the round has {role_no}, nobody chooses this trump.",
        "rank_trump": "A card made a trump by its value belongs to no colour any more: it never has to be played to follow its colour, and it answers a trump lead.",
        "trump_lead_layers": "A trump lead must be answered with a trump, of any layer, if possible.",
        "trump_ranking": "Among trumps, the card of the strongest layer wins; if both are of that layer, the one also of the next layer, and so on; then, in a trump colour, the stronger rank; cards that are trumps by their value alone are otherwise equal.",
        "trump_ranking_one": "Among trumps, in a trump colour the stronger rank wins; cards that are trumps by their value alone are equal.",
        "contract": "{Bidder_the} makes the contract when {when}: that side then wins the round, otherwise the other side does.",
        "facts_where": "Where:", "facts_sep": ": ", "each": "Each player", "term": "{who} ({label}): {expr}", "term_plain": "{who}: {expr}",
        "fact_trick_points": "the card points of the tricks the player's side took, the last trick's and the all-tricks bonus included",
        "fact_own_trick_points": "the card points of the tricks the player took itself, the last trick's included",
        "fact_tricks_taken": "the tricks the player took", "fact_side_tricks": "the tricks the player's side took",
        "fact_announced": "the announcement points the player's side scores with the round (nothing when they score at once)",
        "fact_all_tricks_taken": "1 when one side took every trick, else 0",
        "fact_bidder_side_points": "the card points of the tricks of {bidder_the}'s side (the last trick's included, not the all-tricks bonus)",
        "fact_bidder_trump_colour": "1 when the strongest trump is a colour, else 0",
        "fact_bidder_trump_rank": "1 when the strongest trump is a value, else 0",
        "fact_bidder_trump_none": "1 when the strongest layer has no trump, else 0",
        "fact_bidder_trump_cards": "how many cards of the deck the strongest trump makes trumps (0 without)",
        "fact_bid": "the bid of {bidder_the}",
    },
    "fr": {
        "players": "{n} joueurs", "teams": ", en équipes : {teams}.", "alone": ", chacun pour soi.",
        "team": "places {seats}", "team_sep": " ; ", "cards": "Cartes", "deck": "{n} cartes : {ranks}, dans chaque couleur ({colours}).",
        "plain": "Hors atout, de la plus forte à la plus faible : {order}.",
        "trump_order": "À l'atout, de la plus forte à la plus faible : {order}.",
        "points": "Valeur des cartes : {list}.", "trump_points": "Cartes de la couleur d'atout : {list}.",
        "last": "Le dernier pli vaut {n} de plus.", "all": "Une équipe qui fait tous les plis marque {n} de plus.",
        "total": "{n} points en tout.",
        "factor": "Quand l'atout est {trump}, chaque point de la manche compte {times} : les cartes, le dernier pli, le bonus de tous les plis et les annonces.",
        "factor_none": "Dans une manche sans atout, chaque point compte {times} : les cartes, le dernier pli, le bonus de tous les plis et les annonces.",
        "times": {2: "double", 3: "triple"}, "times_n": "{n} fois",
        "deal": "Distribution", "dealer_random": "Le premier donneur est tiré au sort.",
        "dealer_seat": "La place {s} donne la première.", "next_dealer": "La manche suivante est donnée par {who}.",
        "next_dealer_role": "La manche suivante est donnée par {who} de cette manche.",
        "hand": "Chaque joueur reçoit {n} cartes.", "direction": "Le jeu tourne {d}.",
        "clockwise": "dans le sens des aiguilles d'une montre", "counterclockwise": "dans le sens inverse des aiguilles d'une montre",
        "trump": "Atout", "chooser": "{who} choisit l'atout : {choices}.", "colour_choice": "une couleur",
        "rank_choice": "une valeur", "none_choice": "sans atout", "or": " ou ",
        "pass_partner": "Ce joueur peut plutôt passer le choix, une fois, à son partenaire, qui doit choisir.",
        "role": "Le premier interrogé est {role_the} de la manche.",
        "play": "Jeu", "leader": "{who} entame le premier pli ; qui remporte un pli entame le suivant.",
        "one_card": "Chacun à son tour joue une carte.",
        "follow_suit": "Il faut fournir la couleur demandée si on le peut ; sinon, n'importe quelle carte.",
        "follow_suit_or_trump": "Il faut fournir la couleur demandée ou jouer atout ; sans l'une ni l'autre, n'importe quelle carte.",
        "trump_lead": "Sur une entame d'atout, il faut jouer atout si on le peut.",
        "exempt": "Exception : {ranks} d'atout n'est jamais obligé de suivre une entame d'atout.",
        "undertrump_forbidden": "Après un atout sur une entame d'une autre couleur, on ne peut sous-couper que si on ne peut rien jouer d'autre.",
        "undertrump_unless_only_trumps": "Après un atout sur une entame d'une autre couleur, on ne peut sous-couper que si on n'a plus que des atouts.",
        "winner": "Le plus fort atout remporte le pli ; sans atout, la plus forte carte de la couleur demandée ; entre cartes égales, la première jouée.",
        "melds": "Annonces", "melds_intro": "Avec sa première carte, chacun annonce ce que contient sa main :",
        "seq": "{n} cartes qui se suivent dans une couleur (ordre {order}) : {p}",
        "seq_longer": "une suite plus longue compte comme la plus longue de la liste",
        "set": "les quatre {rank} : {p}", "pair": "{ranks} d'atout, annoncés en posant la seconde : {p}",
        "pair_always": "ils comptent quelle que soit la meilleure annonce",
        "pair_with": "comparés aux autres annonces comme l'une d'elles",
        "melds_best": "Seule l'équipe de la meilleure annonce marque, toutes les siennes : le plus de points l'emporte, puis le plus de cartes, puis la plus haute carte, puis une suite à l'atout.",
        "melds_tie_first": "Toujours à égalité : l'équipe qui a annoncé la première.",
        "melds_tie_nobody": "Toujours à égalité : aucune équipe ne marque.",
        "melds_at_once": "Les annonces se marquent immédiatement (après le premier pli ; la paire d'atout en posant sa seconde carte) : l'équipe qu'elles amènent à la fin de la partie gagne aussitôt, sans finir la manche.",
        "none_trump": "sans atout",
        "among_laid": "Seules une couleur ou une valeur des cartes que ce joueur a misées peuvent être choisies.",
        "layer": "C'est l'atout de rang {n} (1 est le plus fort) : les cartes d'un atout plus fort le battent ; une carte des deux atouts bat les deux.",
        "auction": "Enchères", "auction_turn": "{who} commence ; à son tour, chacun pose des cartes de sa main face visible (elles restent dans la main, vues de tous) ou passe, et peut miser de nouveau après avoir passé.",
        "auction_limit": "Les cartes misées d'un joueur peuvent dépasser la meilleure mise d'au plus {n}.",
        "auction_per_turn": "Au plus {n} cartes par tour.",
        "auction_end": "Les enchères s'arrêtent quand tous ont passé à la suite ; qui a misé le plus est {bidder_the}, et la mise est ce nombre de cartes.",
        "dispute_tied": "Si plusieurs ont misé le plus, c'est la dispute : chacun d'eux marque {gain} par carte misée, sauf le dernier d'entre eux à avoir misé, qui perd {loss} par carte ; on redistribue.",
        "dispute_all": "Si plusieurs ont misé le plus, c'est la dispute : chaque joueur marque {gain} par carte misée, sauf le dernier à avoir misé parmi les ex aequo, qui perd {loss} par carte ; on redistribue.",
        "second_here": "Qui a misé le plus parmi les autres est {role_the} (égalité : la plus haute carte misée, puis la suivante ; toujours à égalité, personne).",
        "partner": "Partenaire", "partner_names": "{Bidder_the} désigne un partenaire, qui ne peut pas être {but}. Ils jouent ensemble contre les autres.",
        "when": "Seulement quand `{when}`.", "when_words": "Seulement {when}.",
        "sides": ", en deux camps à chaque manche : {bidder_the} et le partenaire qu'{bidder_pron} désigne, contre les autres.",
        "layer_first": "C'est l'atout de rang 1, le plus fort.",
        "none_keeps": "Choisir sans-atout laisse ce rang vide : les atouts des autres rangs restent.",
        "no_chooser": "Quand la manche n'a pas {role_no}, personne ne choisit cet atout.",
        "rank_trump": "Une valeur choisie comme atout perd sa couleur : elle n'a jamais à être fournie sur sa couleur, et elle répond à une entame d'atout.",
        "trump_lead_layers": "Sur une entame d'atout, il faut jouer un atout, de n'importe quel rang, si on le peut.",
        "trump_ranking": "Entre atouts, la carte du rang d'atout le plus fort l'emporte ; si les deux en sont, celle qui est aussi du rang suivant, et ainsi de suite ; puis, dans une couleur d'atout, la plus forte valeur ; les cartes atouts par leur seule valeur sont égales pour le reste.",
        "trump_ranking_one": "Entre atouts, dans une couleur d'atout la plus forte valeur l'emporte ; les cartes atouts par leur seule valeur sont égales.",
        "contract": "{Bidder_the} réussit le contrat si {when} : son camp gagne alors la manche, sinon c'est l'autre camp.",
        "facts_where": "Où :", "facts_sep": " : ", "each": "Chaque joueur", "term": "{who} ({label}) : {expr}", "term_plain": "{who} : {expr}",
        "fact_trick_points": "les points des cartes des plis de l'équipe du joueur, dernier pli et prime de tous les plis compris",
        "fact_own_trick_points": "les points des cartes des plis que le joueur a faits lui-même, dernier pli compris",
        "fact_tricks_taken": "les plis que le joueur a faits", "fact_side_tricks": "les plis de l'équipe du joueur",
        "fact_announced": "les points d'annonces que l'équipe du joueur marque avec la manche (rien quand ils se marquent immédiatement)",
        "fact_all_tricks_taken": "1 quand une équipe a fait tous les plis, sinon 0",
        "fact_bidder_side_points": "les points des cartes des plis que {bidder_the} et son camp ont faits (dernier pli compris, sans la prime de tous les plis)",
        "fact_bidder_trump_colour": "1 quand l'atout le plus fort est une couleur, sinon 0",
        "fact_bidder_trump_rank": "1 quand l'atout le plus fort est une valeur, sinon 0",
        "fact_bidder_trump_none": "1 quand le rang d'atout le plus fort est sans atout, sinon 0",
        "fact_bidder_trump_cards": "le nombre de cartes du jeu dont l'atout le plus fort fait des atouts (0 sans atout)",
        "fact_bid": "ce qu'a misé {bidder_the}",
    },
    "de": {
        "players": "{n} Spieler", "teams": ", in Teams: {teams}.", "alone": ", jeder für sich.",
        "team": "Plätze {seats}", "team_sep": "; ", "cards": "Karten", "deck": "{n} Karten: {ranks}, in jeder Farbe ({colours}).",
        "plain": "Außer Trumpf, die stärkste zuerst: {order}.", "trump_order": "In der Trumpffarbe, die stärkste zuerst: {order}.",
        "points": "Kartenwerte: {list}.", "trump_points": "Karten der Trumpffarbe: {list}.",
        "last": "Der letzte Stich zählt {n} mehr.", "all": "Wer alle Stiche macht, erhält {n} mehr.",
        "total": "{n} Punkte insgesamt.",
        "factor": "Ist {trump} Trumpf, zählt jeder Punkt der Runde {times}: die Karten, der letzte Stich, der Bonus für alle Stiche und die Meldungen.",
        "factor_none": "In einer Runde ohne Trumpf zählt jeder Punkt {times}: die Karten, der letzte Stich, der Bonus für alle Stiche und die Meldungen.",
        "times": {2: "doppelt", 3: "dreifach"}, "times_n": "{n}-fach",
        "deal": "Austeilen", "dealer_random": "Der erste Geber wird ausgelost.", "dealer_seat": "Platz {s} gibt zuerst.",
        "next_dealer": "In der nächsten Runde gibt {who}.", "next_dealer_role": "In der nächsten Runde gibt {who} dieser Runde.",
        "hand": "Jeder erhält {n} Karten.",
        "direction": "Gespielt wird {d}.", "clockwise": "im Uhrzeigersinn", "counterclockwise": "gegen den Uhrzeigersinn",
        "trump": "Trumpf", "chooser": "Den Trumpf bestimmt {who}: {choices}.", "colour_choice": "eine Farbe",
        "rank_choice": "einen Wert", "none_choice": "kein Trumpf", "or": " oder ",
        "pass_partner": "Stattdessen darf er die Wahl einmal dem Partner schieben, der wählen muss.",
        "role": "Der zuerst Gefragte ist {role_the} der Runde.",
        "play": "Spiel", "leader": "{who} spielt zum ersten Stich aus; wer einen Stich macht, spielt zum nächsten aus.",
        "one_card": "Reihum spielt jeder eine Karte.",
        "follow_suit": "Die ausgespielte Farbe muss bedient werden, wenn möglich; sonst eine beliebige Karte.",
        "follow_suit_or_trump": "Die ausgespielte Farbe muss bedient oder gestochen werden; ohne beides eine beliebige Karte.",
        "trump_lead": "Auf Trumpf muss Trumpf gegeben werden, wenn möglich.",
        "exempt": "Ausnahme: {ranks} der Trumpffarbe muss Trumpf nie bedienen.",
        "undertrump_forbidden": "Nach einem Trumpf auf eine andere Farbe darf nur untertrumpft werden, wenn nichts anderes möglich ist.",
        "undertrump_unless_only_trumps": "Nach einem Trumpf auf eine andere Farbe darf nur untertrumpft werden, wer nur noch Trümpfe hat.",
        "winner": "Der höchste Trumpf macht den Stich; ohne Trumpf die höchste Karte der ausgespielten Farbe; bei gleichen Karten die zuerst gespielte.",
        "melds": "Meldungen", "melds_intro": "Mit der ersten Karte meldet jeder, was seine Hand hält:",
        "seq": "{n} Karten in Folge einer Farbe (Reihenfolge {order}): {p}",
        "seq_longer": "längere Folgen zählen wie die längste aufgeführte",
        "set": "alle {rank}: {p}", "pair": "{ranks} der Trumpffarbe, gemeldet mit der zweiten: {p}",
        "pair_always": "zählt unabhängig von der besten Meldung", "pair_with": "wird wie eine der anderen Meldungen mit ihnen verglichen",
        "melds_best": "Nur das Team mit der besten Meldung schreibt, alle eigenen: mehr Punkte gewinnen, dann mehr Karten, dann die höhere Karte, dann eine Trumpffolge.",
        "melds_tie_first": "Weiter gleich: das Team, das zuerst gemeldet hat.", "melds_tie_nobody": "Weiter gleich: keiner schreibt.",
        "melds_at_once": "Meldungen werden sofort geschrieben (nach dem ersten Stich; das Trumpfpaar beim Ausspielen der zweiten Karte): ein Team, das damit das Spielende erreicht, gewinnt sofort, ohne die Runde zu beenden.",
        "none_trump": "kein Trumpf",
        "among_laid": "Gewählt werden darf nur eine Farbe oder ein Wert der Karten, die dieser Spieler offen gelegt hat.",
        "layer": "Dies ist Trumpf Nummer {n} (1 ist der stärkste): Karten eines stärkeren Trumpfs schlagen ihn; eine Karte beider Trümpfe schlägt beide.",
        "auction": "Auktion", "auction_turn": "{who} beginnt; reihum legt jeder Karten der Hand offen aus (sie bleiben in der Hand, für alle sichtbar) oder passt, und darf nach dem Passen wieder bieten.",
        "auction_limit": "Die ausgelegten Karten eines Spielers dürfen das höchste Gebot um höchstens {n} übersteigen.",
        "auction_per_turn": "Höchstens {n} Karten pro Zug.",
        "auction_end": "Die Auktion endet, wenn alle nacheinander gepasst haben; wer am meisten ausgelegt hat, ist {bidder_the}, das Gebot ist diese Zahl Karten.",
        "dispute_tied": "Haben mehrere am meisten ausgelegt, ist es ein Eklat: jeder von ihnen erhält {gain} je ausgelegter Karte, außer dem letzten von ihnen, der {loss} je Karte verliert; es wird neu gegeben.",
        "dispute_all": "Haben mehrere am meisten ausgelegt, ist es ein Eklat: jeder Spieler erhält {gain} je ausgelegter Karte, außer dem letzten der Gleichen, der {loss} je Karte verliert; es wird neu gegeben.",
        "second_here": "Wer unter den anderen am meisten ausgelegt hat, ist {role_the} (Gleichstand: die höchste ausgelegte Karte, dann die nächste; weiter gleich, niemand).",
        "partner": "Partner", "partner_names": "{Bidder_the} wählt einen Partner, der nicht {but} sein darf. Sie spielen zusammen gegen die anderen.",
        "when": "Nur wenn `{when}`.", "when_words": "Nur {when}.",
        "sides": ", jede Runde in zwei Parteien: {bidder_the} und ein Partner, den {bidder_the} wählt, gegen die anderen.",
        "layer_first": "Dies ist Trumpf Nummer 1, der stärkste.",
        "none_keeps": "Wer keinen Trumpf wählt, lässt diese Stufe leer: die Trümpfe der anderen Stufen bleiben.",
        "no_chooser": "Hat die Runde {role_no}, wählt niemand diesen Trumpf.",
        "rank_trump": "Eine Karte, die durch ihren Wert Trumpf ist, gehört zu keiner Farbe mehr: sie muss ihre Farbe nie bedienen und bedient Trumpf.",
        "trump_lead_layers": "Auf Trumpf muss Trumpf gegeben werden, gleich welcher Stufe, wenn möglich.",
        "trump_ranking": "Unter Trümpfen gewinnt die Karte der stärksten Stufe; sind beide dieser Stufe, die auch der nächsten Stufe angehört, und so fort; dann in einer Trumpffarbe der stärkere Wert; Karten, die nur durch ihren Wert Trumpf sind, sind sonst gleich.",
        "trump_ranking_one": "Unter Trümpfen gewinnt in einer Trumpffarbe der stärkere Wert; Karten, die nur durch ihren Wert Trumpf sind, sind gleich.",
        "contract": "{Bidder_the} erfüllt den Vertrag, wenn {when}: Dann gewinnt diese Partei die Runde, sonst die andere Partei.",
        "facts_where": "Dabei:", "facts_sep": ": ", "each": "Jeder Spieler", "term": "{who} ({label}): {expr}", "term_plain": "{who}: {expr}",
        "fact_trick_points": "die Kartenpunkte der Stiche der Partei des Spielers, samt letztem Stich und Prämie für alle Stiche",
        "fact_own_trick_points": "die Kartenpunkte der Stiche, die der Spieler selbst gemacht hat, samt letztem Stich",
        "fact_tricks_taken": "die Stiche des Spielers", "fact_side_tricks": "die Stiche der Partei des Spielers",
        "fact_announced": "die Weispunkte, die die Partei des Spielers mit der Runde schreibt (nichts, wenn sie sofort zählen)",
        "fact_all_tricks_taken": "1, wenn eine Partei alle Stiche gemacht hat, sonst 0",
        "fact_bidder_side_points": "die Kartenpunkte der Stiche der Partei, in der {bidder_the} spielt (samt letztem Stich, ohne Prämie für alle Stiche)",
        "fact_bidder_trump_colour": "1, wenn der stärkste Trumpf eine Farbe ist, sonst 0",
        "fact_bidder_trump_rank": "1, wenn der stärkste Trumpf ein Wert ist, sonst 0",
        "fact_bidder_trump_none": "1, wenn die stärkste Stufe ohne Trumpf ist, sonst 0",
        "fact_bidder_trump_cards": "wie viele Karten des Spiels der stärkste Trumpf zu Trümpfen macht (0 ohne Trumpf)",
        "fact_bid": "was {bidder_the} geboten hat",
    },
}


WORDS: dict[str, dict[str, Any]] = {
    "en": {"first_round": "in the first round, {x}", "holder": "the holder of {x}", "next_of": "the player after {x}",
           "previous_of": "the player before {x}", "else": "; otherwise ", "seat": "seat {x}", "and": " and ",
           "card": "the {rank} of {colour}", "role_as_is": ("the ",)},
    "fr": {"first_round": "à la première manche, {x}", "holder": "le joueur qui a le {x}",
           "next_of": "le joueur après {x}", "previous_of": "le joueur avant {x}", "else": " ; sinon ",
           "seat": "la place {x}", "and": " et ", "card": "{rank} de {colour}",
           "role_as_is": ("le ", "la ", "les ", "l'", "celui ", "celle ", "ceux ")},
    # German seat phrases after "nach", "vor" (next_of, previous_of) are in the dative: "_dat".
    "de": {"first_round": "in der ersten Runde {x}", "holder": "der Spieler mit der {x}", "next_of": "der Spieler nach {x}",
           "previous_of": "der Spieler vor {x}", "else": "; sonst ", "seat": "Platz {x}", "and": " und ",
           "card": "{colour} {rank}", "role_as_is": ("der ", "die ", "das ", "wer "),
           "holder_dat": "dem Spieler mit der {x}", "next_of_dat": "dem Spieler nach {x}",
           "previous_of_dat": "dem Spieler vor {x}", "dative_of": "next_of previous_of"},
}
COLOURS = {"fr": {"diamonds": "carreau", "hearts": "cœur", "spades": "pique", "clubs": "trèfle", "red": "rouge",
                  "blue": "bleu", "green": "vert", "yellow": "jaune", "black": "noir"},
           "de": {"diamonds": "Karo", "hearts": "Herz", "spades": "Pik", "clubs": "Kreuz", "red": "rot",
                  "blue": "blau", "green": "grün", "yellow": "gelb", "black": "schwarz"}}


def _seat(value, lang: str, roles: dict, case: str = "") -> str:
    """A seat expression of the file in words (``case="_dat"``: the German dative, after a preposition)."""
    from .articles import word
    w = WORDS[lang]
    if isinstance(value, bool):
        return f"`{value}`"
    if isinstance(value, int):
        return w["seat"].format(x=value)
    if isinstance(value, str):
        if value in roles:
            return _role_forms(roles[value], lang)["role_dat" if case == "_dat" else "role_the"]
        phrase = T[lang].get("who_" + value)
        return _dative(phrase, lang) if phrase and case else phrase or f"`{value}`"
    if isinstance(value, list):
        return w["else"].join(_seat(v, lang, roles, case) for v in value)
    if isinstance(value, dict) and len(value) == 1:
        (key, inner), = value.items()
        if key == "holder":
            rank, _, colour = str(inner).partition("/")
            card = w["card"].format(rank=rank, colour=COLOURS.get(lang, {}).get(colour, colour)) if colour else rank
            return w.get("holder" + case, w["holder"]).format(x=card)
        if key in w:
            inner_case = "_dat" if key in w.get("dative_of", "").split() else case
            return w.get(key + case, w[key]).format(x=_seat(inner, lang, roles, inner_case))
    return "`" + json.dumps(value, ensure_ascii=False) + "`"


def _role_forms(value, lang: str, prefix: str = "role") -> dict[str, str]:
    """A role of the file (its entry in ``roles``: names per language, and perhaps a gender) in
    every form of :func:`articles.role_forms`, as template fields ``{prefix}_the``,
    ``{Prefix}_the``, ``{prefix}_pron``, ``{prefix}_no`` ...: "the trump maker", "la Cheffe",
    "dem Chef", "keine Vize".  A name that already begins with an article or a pronoun ("celui
    qui fait atout") stands as written where the article would go."""
    from .articles import gender_of, role_forms, word
    name = word(value, lang)
    forms = role_forms(name, gender_of(value, lang), lang, prefix)
    if not name or name.lower().startswith(WORDS[lang]["role_as_is"]):
        for key in ("the", "acc", "dat"):
            forms[f"{prefix}_{key}"] = name
            forms[f"{prefix.capitalize()}_{key}"] = name[:1].upper() + name[1:]
    return forms


def _dative(phrase: str, lang: str) -> str:
    """A German seat phrase in the nominative ("der Geber", "wer zuerst gepasst hat") in the dative."""
    if lang != "de":
        return phrase
    if phrase.startswith("der "):
        return "dem " + phrase[4:]
    if phrase.startswith("wer "):
        return "dem Spieler, der " + phrase[4:]
    return phrase


def _and(items, lang: str) -> str:
    """Items as a list in words: "0 and 2", "0, 1 and 2"."""
    items = list(items)
    return ", ".join(items[:-1]) + WORDS[lang]["and"] + items[-1] if len(items) > 1 else "".join(items)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _auction(phase, spec: dict, lang: str, roles: dict, t: dict) -> list[str]:
    from .articles import word
    out = [f"## {t['auction']}", "", t["auction_turn"].format(who=_cap(_seat(spec["phases"][phase.name].get("opener", "dealer"),
                                                                              lang, roles)))]
    out.append(t["auction_limit"].format(n=phase.limit))
    if phase.per_turn is not None:
        out.append(t["auction_per_turn"].format(n=phase.per_turn))
    out.append(t["auction_end"].format(**_role_forms(roles.get("bidder", "bidder"), lang, "bidder")))
    out.append(t["dispute_" + phase.gainers].format(gain=phase.gain, loss=phase.loss))
    if phase.second and spec["players"] >= phase.second_from:
        out.append(t["second_here"].format(**_role_forms(roles.get(phase.second, phase.second), lang)))
    return out + [""]


def _partner_plays(phase, players: int) -> bool | None:
    """Whether a partner phase's ``when`` holds with this many players: True or False, or None
    when it reads the round too (then the rulebook says the condition)."""
    if phase.when is None:
        return True
    if "round" in phase.when.names:
        return None
    return bool(phase.when.evaluate({"players": players, "round": 1}))


def _missing_roles(phases, players: int) -> frozenset[str]:
    """The roles an auction gives its runner-up, but only from more players than these."""
    return frozenset(p.second for p in phases if p.kind == "auction" and p.second and players < p.second_from)


def _chosen(phase, missing: frozenset[str]) -> bool:
    """Whether someone may choose this trump: not when its chooser is only roles nobody takes."""
    reads = set(getattr(phase.chooser, "reads", ()) or ())
    return not reads or not reads <= missing


def _facts_read(formulas: list, t: dict, forms: dict, speaker) -> list[str]:
    """What the round's facts that the scoring expressions read mean, in the order they are met."""
    seen: list[str] = []
    for _, text in formulas:
        for name in re.findall(r"[a-z_]+", str(text)):
            if "fact_" + name in t and name not in seen:
                seen.append(name)
    if not seen:
        return []
    return [t["facts_where"]] + ["- " + _cap(speaker.name(name)) + t["facts_sep"] + t["fact_" + name].format(**forms) for name in seen]


def trick_rulebook(rules, lang: str = "en") -> list[str]:
    """The rulebook of a trick-taking variant as Markdown lines, up to the end of the game
    (:func:`chimera_dsl.tell.rulebook.write_rulebook` adds the end, and what a house file changes)."""
    from ..engine import Game
    from .articles import rank_word, word
    t, g = S[lang], T[lang]
    spec = rules.spec
    deck = rules.deck
    round_ = Game(rules).round
    play = round_.play
    raw = spec["play"]
    from .articles import title_of
    out = [f"# {title_of(rules, lang)}", ""]
    teams = raw.get("teams") or []
    roles = spec.get("roles") or {}
    n_players = spec["players"]
    missing = _missing_roles(round_.phases, n_players)
    partners = [p for p in round_.phases if p.kind == "partner" and _partner_plays(p, n_players) is not False]
    trumps = [p for p in round_.phases if p.kind == "trump" and _chosen(p, missing)]
    layers = {p.layer for p in trumps} | ({0} if raw.get("trump") not in (None, "none") else set())
    second_roles = {p.second for p in round_.phases if p.kind == "auction" and p.second}
    head = t["players"].format(n=n_players)
    if teams:
        head += t["teams"].format(teams=t["team_sep"].join(t["team"].format(seats=_and(map(str, team), lang))
                                                          for team in teams))
    elif partners:
        head += t["sides"].format(**_role_forms(roles.get("bidder", "bidder"), lang, "bidder"))
    else:
        head += t["alone"]
    out += [head, ""]

    out += [f"## {t['cards']}", ""]
    per_colour = [deck.ranks[r] for r, c in deck.cards if c == deck.colours[0]]
    out.append(t["deck"].format(n=len(deck.cards), ranks=", ".join(rank_word(deck, r, lang) for r in per_colour),
                                colours=", ".join(COLOURS.get(lang, {}).get(c, word(c, lang)) for c in deck.colours)))
    plain = sorted(range(len(deck.ranks)), key=lambda i: -play.plain_strength[i])
    out.append(t["plain"].format(order=" > ".join(deck.ranks[i] for i in plain)))
    if play.trump_strength != play.plain_strength:
        order = sorted(range(len(deck.ranks)), key=lambda i: -play.trump_strength[i])
        out.append(t["trump_order"].format(order=" > ".join(deck.ranks[i] for i in order)))
    points = [f"{deck.ranks[i]} {p}" for i, p in enumerate(play.points) if p]
    if points:
        out.append(t["points"].format(list=", ".join(points)))
    differs = [f"{deck.ranks[i]} {p}" for i, p in enumerate(play.trump_points) if p != play.points[i]]
    if differs:
        out.append(t["trump_points"].format(list=", ".join(differs)))
    if play.last_trick:
        out.append(t["last"].format(n=play.last_trick))
    if play.all_tricks:
        out.append(t["all"].format(n=play.all_tricks))
    if points:
        total = sum(play.points[r] for r in deck.card_rank) + play.last_trick
        if differs and raw.get("trump") != "none":
            trump_cards = [r for r, c in deck.cards if c == deck.colours[0]]
            total += sum(play.trump_points[r] - play.points[r] for r in trump_cards)
        out.append(t["total"].format(n=total))
    for (kind, index), factor in play.trump_factors:
        times = t["times"].get(factor) or t["times_n"].format(n=factor)
        if kind == "none":
            out.append(t["factor_none"].format(times=times))
            continue
        trump = (COLOURS.get(lang, {}).get(deck.colours[index], word(deck.colours[index], lang)) if kind == "colour"
                 else rank_word(deck, deck.ranks[index], lang))
        out.append(t["factor"].format(trump=trump, times=times))
    out.append("")

    deal = spec.get("deal") or {}
    out += [f"## {t['deal']}", ""]
    first = deal.get("first_dealer", "random")
    out.append(t["dealer_random"] if first == "random" else t["dealer_seat"].format(s=first))
    if "next_dealer" in deal:
        key = "next_dealer_role" if str(deal["next_dealer"]) in roles else "next_dealer"
        out.append(t[key].format(who=_seat(deal["next_dealer"], lang, roles)))
    out.append(t["hand"].format(n=round_.deal.hand))
    out.append(t["direction"].format(d=t["clockwise" if round_.direction == 1 else "counterclockwise"]))
    out.append("")

    for phase in round_.phases:
        if phase.kind == "auction":
            out += _auction(phase, spec, lang, roles, t)
        if phase.kind == "partner" and phase in partners:
            out += [f"## {t['partner']}", "", t["partner_names"].format(
                **_role_forms(roles.get("bidder", "bidder"), lang, "bidder"),
                but=_and([_role_forms(roles.get(r, r), lang)["role_the"] for r in phase.excluded if r not in missing], lang)
                or "-")]
            if _partner_plays(phase, n_players) is None:
                in_words = round_words(phase.when.text, T[lang])
                out.append(t["when"].format(when=phase.when.text) if in_words is None
                           else t["when_words"].format(when=in_words))
            out.append("")
        if phase.kind != "trump" or phase not in trumps:
            continue
        section = (spec.get("phases") or {}).get(phase.name) or {}
        # several trumps: each heading says whose choice it is
        heading = t["trump"] if len(trumps) == 1 else f"{t['trump']} ({_seat(section.get('chooser'), lang, roles)})"
        out += [f"## {heading}", ""]
        choices = t["or"].join(t[{"colours": "colour_choice", "ranks": "rank_choice", "none": "none_choice"}[c]]
                               for c in phase.choices)
        out.append(_cap(t["chooser"].format(who=_seat(section.get("chooser"), lang, roles), choices=choices)))
        if phase.from_laid:
            out.append(t["among_laid"])
        if phase.layer:
            out.append(t["layer"].format(n=phase.layer + 1))
        elif len(layers) > 1:
            out.append(t["layer_first"])
        if "none" in phase.choices and len(layers) > 1:
            out.append(t["none_keeps"])
        absent = set(getattr(phase.chooser, "reads", ()) or ()) & second_roles
        for role in sorted(absent):
            out.append(t["no_chooser"].format(**_role_forms(roles.get(role, role), lang)))
        if phase.pass_to == "partner":
            out.append(t["pass_partner"])
        if phase.role:
            out.append(t["role"].format(**_role_forms(roles.get(phase.role, phase.role), lang)))
        out.append("")

    out += [f"## {t['play']}", ""]
    leader = raw.get("first_leader", "dealer_left")
    who = _seat(leader, lang, roles)
    out.append(t["leader"].format(who=who[:1].upper() + who[1:]))
    out.append(t["one_card"])
    out.append(t["follow_" + play.follow])
    by_rank = any("ranks" in p.choices for p in trumps) or str(raw.get("trump")) in deck.index
    if by_rank:
        out.append(t["rank_trump"])
    out.append(t["trump_lead_layers" if len(layers) > 1 else "trump_lead"])
    if play.exempt:
        out.append(t["exempt"].format(ranks=", ".join(deck.ranks[i] for i in sorted(play.exempt))))
    if play.undertrump != "allowed":
        out.append(t["undertrump_" + play.undertrump])
    out.append(t["winner"])
    if len(layers) > 1:
        out.append(t["trump_ranking"])
    elif by_rank:                           # one layer: nothing to say of layers
        out.append(t["trump_ranking_one"])
    out.append("")

    melds = play.announcements
    if melds is not None:
        out += [f"## {t['melds']}", "", t["melds_intro"]]
        sequence = " < ".join(deck.ranks[i] for i in melds.order)
        for length, points in melds.sequences:
            out.append("- " + t["seq"].format(n=length, order=sequence, p=points))
        if melds.sequences:
            out.append("- " + t["seq_longer"])
        for rank, points in melds.sets:
            out.append("- " + t["set"].format(rank=deck.ranks[rank], p=points))
        if melds.pair:
            out.append("- " + t["pair"].format(ranks=" + ".join(deck.ranks[i] for i in melds.pair), p=melds.pair_points)
                       + " (" + t["pair_always" if melds.pair_always else "pair_with"] + ")")
        out += ["", t["melds_best"], t["melds_tie_first" if melds.ties == "first_in_play" else "melds_tie_nobody"]]
        out += [t["melds_at_once"], ""] if melds.at_once else [""]

    scoring = spec.get("scoring") or {}
    out += [f"## {g['scoring']}", ""]
    formulas = [(k, v) for section in ("facts", "bonuses") for k, v in (scoring.get(section) or {}).items()]
    speaker = Speaker(lang)
    said: list[str] = []
    for name, text in formulas:
        if isinstance(text, list):
            said += speaker.list_table(str(name), text)
        else:
            said += ["- " + _cap(speaker.fact(str(name), text))] + speaker.take_tables()
    for role, value in (scoring.get("points") or {}).items():
        items = value.items() if isinstance(value, dict) else [("", value)]
        formulas += [(f"{role} {label}".strip(), text) for label, text in items]
        who = t["each"] if role == "each" else _role_forms(roles.get(role, role), lang)["Role_the"]
        for label, text in items:
            said += ["- " + (t["term"] if label else t["term_plain"]).format(
                who=who, label=humanise(str(label)), expr=speaker.say(text))] + speaker.take_tables()
    if formulas:
        out.append(g["formulas"])
        out += said
        out += _facts_read(formulas, t, _role_forms(roles.get("bidder", "bidder"), lang, "bidder"), speaker)
    if "bidder_won" in scoring and round_.names_bidder:
        # the condition the file writes, said as the bidder's contract made or failed
        out += ["", t["contract"].format(**_role_forms(roles.get("bidder", "bidder"), lang, "bidder"),
                                         when=speaker.say(scoring["bidder_won"]))]
    out.append("")
    return out
