"""A variant's rulebook, written as Markdown from the variant itself.

Everything printed comes from the compiled rules: the deck, the deal, the bidding knobs, the
combinations (each described from its pattern, with an example drawn by the matcher from
the full deck), what beats what, scoring and the end.  For a file that ``extends`` another,
a last section lists exactly what differs from the base, so the printed rules stay true
when the file changes.
"""
from __future__ import annotations

import json
import re
from typing import Any
from pathlib import Path

import yaml


from .articles import gender_of, group_word, rank_word, role_forms, set_off, singular, word
from .patterns import Card, Cards, Chain, Pattern, RankSet
from .round import compile_round, path_of, played_before
from .rulebook_house import changed_sentences
from .rulebook_words import CARD_WORDS, RULE_WORDS, UNIT_WORDS
from .rulebook_scoring import scoring_lines
from .seats import NAMES as SEAT_NAMES, RELATIVE

LANGUAGES = ("en", "fr", "de")

# Phrases by language.  Placeholders are filled with str.format.
T: dict[str, dict[str, Any]] = {
    "en": {
        "players": "{n} players.", "semi": "; ", "cards": "Cards", "deck": "{n} cards: {detail}.",
        "order": "Single order, lowest first: {order}.", "colours": "Colours: {c}; they never matter in combinations.",
        "copies": "{rank}: {n}", "groups": "{name}: {ranks}", "treasures": "Treasures: {list} ({total} points in all).",
        "treasure": "each {rank} is worth {points}",
        "deal": "Dealing", "dealer_random": "The first dealer is drawn at random; {passes}.",
        "dealer_seat": "Seat {s} deals first; {passes}.",
        "passes_cw": "the deal passes clockwise", "passes_ccw": "the deal passes counter-clockwise",
        "passes_none": "the same player deals every round", "passes_seat": "then {who} deals the next round",
        "direction_cw": "Play goes clockwise (to the left).", "direction_ccw": "Play goes counter-clockwise (to the right).",
        "direction_reverse": "Play goes {first} in the first round and changes direction every round.",
        "w_cw": "clockwise", "w_ccw": "counter-clockwise",
        "phases": "A round has these phases, in order: {list}.", "ph_deal": "the deal", "ph_bidding": "the bidding",
        "ph_nest": "the nest", "ph_exchange": "the exchange", "ph_play": "the play", "ph_scoring": "the scoring",
        "cut": "The dealer cuts so that the upper part holds {lo} to {hi} cards.",
        "cut_any": "The dealer cuts the deck anywhere, leaving cards in both parts.",
        "face_up": "The top card of the lower part is turned face up on the upper part: everyone sees it and who receives it.",
        "recut": "If the face-up card would land in the nest, the dealer cuts again.",
        "nest_hand": "{nest} cards go face down to the nest, then {hand} to each player, one at a time {order}.",
        "hand_only": "{hand} cards go to each player, one at a time {order}.",
        "order_cw": "clockwise from the dealer's left", "order_ccw": "counter-clockwise from the dealer's right",
        "order_play": "in the direction of play from the player after the dealer",
        "keep": "If the face-up card lands in the nest, it stays there, seen by everyone, and nobody holds it.",
        "roles": "The highest bidder becomes the {bidder}; the other players are the {others}.",
        "bidding": "Bidding", "opener_face_up_holder": "The player who received the face-up card opens the bidding.",
        "opener_dealer_left": "The player on the dealer's left opens the bidding.",
        "levels": "Bids: {levels}. The first bid may be any of them; each bid must exceed the one before.",
        "top_closes": "A bid of {top} ends the bidding at once.",
        "passes_close": "After a bid, the bidding ends when {n} players in a row pass.",
        "reenter": "A player who passed may bid again on a later turn.", "no_reenter": "A player who passed may not bid again.",
        "all_pass_redeal": "If everyone passes, the same dealer deals again ({times}); if everyone passes on the next deal too, {who} must bid {bid}.",
        "all_pass_forced": "If everyone passes, {who} must bid {bid}.",
        "all_pass_void": "If everyone passes, the round is void: nobody scores, it counts as a round played, and the next round is dealt.",
        "all_pass_redeals_void": "If everyone passes, the same dealer deals again, up to {times}; if everyone passes each time, the round is void: nobody scores, and it counts as a round played.",
        "all_pass_redeals": "If everyone passes, the same dealer deals again, up to {times}; if everyone passes each time, {who} must bid {bid}.",
        "forced_closes": " That player becomes the {bidder} at once.", "forced_open": " The others may overbid or pass as usual.",
        "who_face_up_holder": "the player holding the face-up card", "who_dealer": "the dealer",
        "who_first_passer": "the first player who passed", "who_dealer_left": "the player on the dealer's left", "opener_seat": "The bidding is opened by {who}.",
        "who_previous_round.first_out": "the player who went out first in the previous round",
        "who_previous_round.most_cards_left": "the player who held the most cards when the previous round ended",
        "who_role": "the {role}", "to_role": "the {role}", "who_seat": "seat {n}", "who_holder": "the player holding {card}",
        "who_next_of": "the player after {of} in the direction of play", "who_previous_of": "the player before {of} in the direction of play",
        "who_left_of": "the player on the left of {of}", "who_right_of": "the player on the right of {of}", "who_or": " or else ",
        "exchange": "Nest and exchange", "nest_only": "Nest", "nest_to": "The {bidder} takes the nest ({n} cards) and does not discard; the nest is not shown.",
        "nest_to_seat": "{who} takes the nest ({n} cards) and does not discard; the nest is not shown.",
        "exchange_count": "The {others} then exchange {cards} each, {manner}.", "no_transfer": "No cards change hands before play.",
        "m_secret_sim": "secretly and simultaneously", "m_secret_turn": "secretly, one after the other (a player may pass on cards just received)",
        "m_shown_sim": "face up and simultaneously", "m_shown_turn": "face up, one after the other (a player may pass on cards just received)",
        "transfer": "{when}{givers} gives {cards} to {to}; {choice}; {seen}.", "when": "When `{when}`: ", "when_words": "{when}: ",
        "r_first": "in the first round", "r_only": "in round {n}", "r_from": "from round {n} on", "r_upto": "up to round {n}",
        "exchange_only": "Cards handed over",
        "givers_role": "each of the {role}", "to_next": "the next of them in the direction of play",
        "ch_player": "the giver chooses them", "ch_highest": "they are the giver's highest cards",
        "t_shown": "everyone sees them", "t_secret": "only the receiver sees them",
        "ch_player_1": "the giver chooses it", "ch_highest_1": "it is the giver's highest card",
        "t_shown_1": "everyone sees it", "t_secret_1": "only the receiver sees it",
        "exchange_counts": "The {others} then exchange cards, {manner}: {list}.",
        "exchange_item": "{cards} for a bid of {bid}", "n_cards": ("{n} card", "{n} cards"), "n_times": ("once", "{n} times"),
        "play": "Play", "first_leader": "The {bidder} leads the first trick; the winner of a trick leads the next.",
        "first_leader_seat": "{who} leads the first trick; the winner of a trick leads the next.",
        "leader_may_pass": "The leader may pass and hand the lead to the next player, unless every other player has already passed the lead in this trick.",
        "round_end_nobody": "The round ends the moment a player has no cards left; nobody takes the cards of the current trick.",
        "leader_no_pass": "The leader plays any combination and may not pass.",
        "answer": "Each later player plays a higher combination of the same kind and the same number of cards, or a play of a higher tier, or passes; a player who passed may play again when the turn comes back.",
        "trick_close": "The trick ends when {n} players in a row pass after a play; the last player to have played takes it and leads.",
        "out_of_turn": "These may be played out of turn: {list}. Right after any play, each player other than the one who made it and the one whose turn is next, in turn, may play one of them if it beats that play; play then goes on from that player.", "in_turn": "No play may be made out of turn.",
        "round_end": "The round ends the moment a player has no cards left; that player takes the cards of the current trick.",
        "round_end_pile": "The round ends the moment a player has no cards left. Played cards are never picked up: they stay face up on one pile.",
        "trick_close_won": "The trick ends when {n} players in a row pass after a play; the last player to have played wins it and leads.",
        "combinations": "Combinations", "col_name": "Combination", "col_what": "What", "col_example": "Example",
        "col_tier": "Tier",
        "beats": "What beats what",
        "beats_same": "A play beats another of the same combination with the same number of cards and a higher rank.",
        "beats_tier": "Tier {tier} ({names}) beats every play of a lower tier; within a tier, only a higher play of the same combination beats.",
        "scoring": "Scoring", "bidder_out": "If the {bidder} goes out first: the {bidder} {outcome}; the {others} score {others_pts}.",
        "gain": "scores {k} times the bid", "gain_1": "scores the bid", "loss": "loses {k} times the bid", "loss_1": "loses the bid", "nothing": "scores nothing",
        "bonus_combo": "{points} points to {to} for each {name} played this round", "bonus_idle": "{points} points to {to} once if a {other} played no card all round",
        "bonus_count": "{points} points to {to}, times `{count}`", "to_bidder": "the {bidder}", "to_others": "each of the {others}", "to_each": "every player",
        "outcome_expr": "scores `{expr}`",
        "bonuses": "Bonuses: {list}.", "no_bonus": "No bonuses.",
        "other_out": "If one of the {others} goes out first: the {bidder} {outcome}; each of the {others} scores {others_pts}.",
        "treasure_rule": "Each player adds the treasures in the tricks it won; cards left in hands score nothing.",
        "end": "End of the game", "target": "After a round, if anyone has reached {target} points, the game ends.", "winner_highest": "The highest total wins.",
        "ties_play_on": "If the highest total is shared, play more rounds until one player alone is highest.",
        "ties_shared": "If the highest total is shared, those players share the win.",
        "ties_one_more_round": "If the best total is shared, one more round decides (a tie after it is shared).",
        "nest_shown": "The nest is shown to everyone.", "nest_nobody": "The nest stays face down; nobody takes it.",
        "formulas": "Points are computed from these expressions (see the variant file):",
        "ends_when": "The game ends after a round when {when}.", "ends_rounds": "The game lasts {n} rounds.",
        "winner_lowest": "The lowest total wins.",
        "house": "House rules", "house_intro": "This variant extends `{base}` and differs from it here:",
        "changed": "`{path}`: {old} → {new}", "added": "`{path}`: added, {new}", "removed": "`{path}`: removed (was {old})",
        "no_diff": "No differences.",
        "p_single": "one card", "p_group": "{n} cards of one rank", "p_from": "from {set}",
        "p_chain": "{lo} or more consecutive ranks, {cards} of each", "p_chain_range": "{lo} to {hi} consecutive ranks, {cards} of each",
        "p_chain_exact": "{lo} consecutive ranks, {cards} of each",
        "p_each": " for each unit of the chain", "p_plus": ", with ", "p_card": "the card {r}",
        "p_distinct": "attached cards all of different ranks", "p_not_both": "never {a} and {b} together",
        "p_wild": "{w} may stand in for a missing card", "p_ranked_highest": "ranked by its highest card",
        "p_any": "any rank", "p_or": " or ", "p_other_rank": "attached cards are never of a rank of the first part",
    },
    "fr": {
        "players": "{n} joueurs.", "semi": " ; ", "cards": "Cartes", "deck": "{n} cartes : {detail}.",
        "order": "Ordre des cartes seules, de la plus faible : {order}.", "colours": "Couleurs : {c} ; elles ne comptent jamais dans les combinaisons.",
        "copies": "{rank} : {n}", "groups": "{name} : {ranks}", "treasures": "Trésors : {list} ({total} points en tout).",
        "treasure": "chaque {rank} vaut {points}",
        "deal": "Distribution", "dealer_random": "Le premier donneur est tiré au sort ; {passes}.",
        "dealer_seat": "La place {s} distribue en premier ; {passes}.",
        "passes_cw": "la donne tourne dans le sens des aiguilles d'une montre", "passes_ccw": "la donne tourne dans le sens inverse des aiguilles d'une montre",
        "passes_none": "le même joueur distribue à chaque manche", "passes_seat": "ensuite, {who} distribue la manche suivante",
        "direction_cw": "Le jeu tourne dans le sens des aiguilles d'une montre (vers la gauche).", "direction_ccw": "Le jeu tourne dans le sens inverse des aiguilles d'une montre (vers la droite).",
        "direction_reverse": "Le jeu tourne {first} à la première manche et change de sens à chaque manche.",
        "w_cw": "dans le sens des aiguilles d'une montre", "w_ccw": "dans le sens inverse des aiguilles d'une montre",
        "phases": "Une manche comprend ces phases, dans l'ordre : {list}.", "ph_deal": "la distribution", "ph_bidding": "les enchères",
        "ph_nest": "le terrier", "ph_exchange": "l'échange", "ph_play": "le jeu de la carte", "ph_scoring": "le comptage",
        "cut": "Le donneur coupe de sorte que la pile supérieure compte de {lo} à {hi} cartes.",
        "cut_any": "Le donneur coupe le paquet n'importe où, en laissant des cartes dans les deux piles.",
        "face_up": "La première carte de la pile inférieure est placée face visible sur la pile supérieure : tous la voient, ainsi que qui la reçoit.",
        "recut": "Si la carte visible devait aller au terrier, le donneur coupe à nouveau.",
        "nest_hand": "{nest} cartes vont face cachée au terrier, puis {hand} à chaque joueur, une à une, {order}.",
        "hand_only": "{hand} cartes vont à chaque joueur, une à une, {order}.",
        "order_cw": "en commençant à gauche du donneur", "order_ccw": "en commençant à droite du donneur",
        "order_play": "dans le sens du jeu, en commençant après le donneur",
        "keep": "Si la carte visible arrive au terrier, elle y reste, vue de tous, et personne ne la tient.",
        "roles": "Le plus offrant devient {bidder_the} ; les autres joueurs sont les {others}.",
        "bidding": "Enchères", "opener_face_up_holder": "Le joueur qui a reçu la carte visible ouvre les enchères.",
        "opener_dealer_left": "Le joueur à gauche du donneur ouvre les enchères.",
        "levels": "Enchères : {levels}. La première peut être n'importe laquelle ; chaque enchère doit dépasser la précédente.",
        "top_closes": "Une enchère de {top} termine aussitôt les enchères.",
        "passes_close": "Après une enchère, les enchères prennent fin quand {n} joueurs de suite passent.",
        "reenter": "Un joueur qui a passé peut enchérir à nouveau plus tard.", "no_reenter": "Un joueur qui a passé ne peut plus enchérir.",
        "all_pass_redeal": "Si tous passent, le même donneur redistribue ({times}) ; si tous passent encore, {who} doit miser {bid}.",
        "all_pass_forced": "Si tous passent, {who} doit miser {bid}.",
        "all_pass_void": "Si tous passent, la manche est nulle : personne ne marque, elle compte comme une manche jouée, et la manche suivante est distribuée.",
        "all_pass_redeals_void": "Si tous passent, le même donneur redistribue, jusqu'à {times} ; si tous passent à chaque fois, la manche est nulle : personne ne marque, et elle compte comme une manche jouée.",
        "all_pass_redeals": "Si tous passent, le même donneur redistribue, jusqu'à {times} ; si tous passent à chaque fois, {who} doit miser {bid}.",
        "forced_closes": " Ce joueur devient aussitôt {bidder_the}.", "forced_open": " Les autres peuvent surenchérir ou passer normalement.",
        "who_face_up_holder": "le joueur ayant reçu la carte visible", "who_dealer": "le donneur",
        "who_first_passer": "le premier joueur à avoir passé", "who_dealer_left": "le joueur à gauche du donneur", "opener_seat": "Les enchères sont ouvertes par {who}.",
        "who_previous_round.first_out": "le joueur sorti le premier à la manche précédente",
        "who_previous_round.most_cards_left": "le joueur qui avait le plus de cartes à la fin de la manche précédente",
        "who_role": "{role_the}", "to_role": "{role_to}", "who_seat": "la place {n}", "who_holder": "le joueur qui tient {card}",
        "who_next_of": "le joueur après {of} dans le sens du jeu", "who_previous_of": "le joueur avant {of} dans le sens du jeu",
        "who_left_of": "le joueur à gauche de {of}", "who_right_of": "le joueur à droite de {of}", "who_or": " (à défaut, ", "who_or_close": ")",
        "exchange": "Terrier et échange", "nest_only": "Terrier", "nest_to": "{Bidder_the} prend le terrier ({n} cartes) sans défausser ; il n'est pas montré.",
        "nest_to_seat": "{who} prend le terrier ({n} cartes) sans défausser ; il n'est pas montré.",
        "exchange_count": "Les {others} échangent ensuite {cards} chacun, {manner}.", "no_transfer": "Aucune carte ne change de main avant le jeu.",
        "m_secret_sim": "secrètement et simultanément", "m_secret_turn": "secrètement, l'un après l'autre (on peut donner une carte qu'on vient de recevoir)",
        "m_shown_sim": "face visible et simultanément", "m_shown_turn": "face visible, l'un après l'autre (on peut donner une carte qu'on vient de recevoir)",
        "transfer": "{when}{givers} donne {cards} ; destinataire : {to} ; {choice} ; {seen}.", "when": "Quand `{when}` : ", "when_words": "{when} : ",
        "r_first": "à la première manche", "r_only": "à la manche {n}", "r_from": "à partir de la manche {n}",
        "r_upto": "jusqu'à la manche {n}", "exchange_only": "Cartes données",
        "givers_role": "chacun des {role}", "to_next": "le suivant d'entre eux dans le sens du jeu",
        "ch_player": "le donneur les choisit", "ch_highest": "ce sont ses cartes les plus hautes",
        "t_shown": "tous les voient", "t_secret": "seul celui qui les reçoit les voit",
        "ch_player_1": "le donneur la choisit", "ch_highest_1": "c'est sa carte la plus haute",
        "t_shown_1": "tous la voient", "t_secret_1": "seul celui qui la reçoit la voit",
        "exchange_counts": "Les {others} échangent ensuite, {manner} : {list}.",
        "exchange_item": "{cards} pour une enchère de {bid}", "n_cards": ("{n} carte", "{n} cartes"), "zero_is_singular": True, "n_times": ("une fois", "{n} fois"),
        "play": "Le jeu de la carte", "first_leader": "{Bidder_the} entame le premier pli ; le gagnant d'un pli entame le suivant.",
        "first_leader_seat": "{who} entame le premier pli ; le gagnant d'un pli entame le suivant.",
        "leader_may_pass": "Celui qui entame peut passer et laisser l'entame au joueur suivant, sauf si tous les autres l'ont déjà fait dans ce pli.",
        "round_end_nobody": "La manche se termine dès qu'un joueur n'a plus de cartes ; personne ne récupère les cartes du pli en cours.",
        "leader_no_pass": "Celui qui entame joue n'importe quelle combinaison et ne peut pas passer.",
        "answer": "Chaque joueur suivant joue la même combinaison, avec autant de cartes, à un rang supérieur, ou une combinaison d'un niveau supérieur, ou passe ; on peut rejouer après avoir passé.",
        "trick_close": "Le pli se termine quand {n} joueurs de suite passent après une combinaison ; le dernier à avoir joué le remporte et entame.",
        "out_of_turn": "Peuvent être jouées hors de son tour : {list}. Juste après toute combinaison, chaque joueur autre que celui qui l'a jouée et celui dont c'est le tour, à son tour, peut en jouer une si elle la bat ; le jeu reprend ensuite après lui.", "in_turn": "Rien ne peut être joué hors de son tour.",
        "round_end": "La manche se termine dès qu'un joueur n'a plus de cartes ; il récupère les cartes du pli en cours.",
        "round_end_pile": "La manche se termine dès qu'un joueur n'a plus de cartes. Les cartes jouées ne se ramassent jamais : elles restent face visible en un seul tas.",
        "trick_close_won": "Le pli se termine quand {n} joueurs de suite passent après une combinaison ; le dernier à avoir joué le remporte et entame.",
        "combinations": "Combinaisons", "col_name": "Combinaison", "col_what": "Description", "col_example": "Exemple",
        "col_tier": "Niveau",
        "beats": "Qui bat quoi",
        "beats_same": "Une combinaison en bat une autre de même type, avec autant de cartes, et de rang supérieur.",
        "beats_tier": "Le niveau {tier} ({names}) bat toute combinaison d'un niveau inférieur ; à niveau égal, seule une combinaison supérieure du même type bat.",
        "scoring": "Comptage", "bidder_out": "Si {bidder_the} est {bidder_first} à poser toutes ses cartes : {bidder_pron} {outcome} ; les {others} marquent {others_pts}.",
        "bonus_combo": "{points} points {to} pour chaque combinaison « {name} » jouée dans la manche", "bonus_idle": "{points} points {to}, une fois, si un {other} n'a posé aucune carte",
        "bonus_count": "{points} points {to}, multipliés par `{count}`", "to_bidder": "{bidder_to}", "to_others": "à chacun des {others}", "to_each": "à chaque joueur",
        "outcome_expr": "marque `{expr}`",
        "bonuses": "Bonus : {list}.", "no_bonus": "Aucun bonus.",
        "gain": "gagne {k} fois son enchère", "gain_1": "gagne son enchère", "loss": "perd {k} fois son enchère", "loss_1": "perd son enchère", "nothing": "ne marque rien",
        "other_out": "Si un des {others} est le premier à poser toutes ses cartes : {bidder_the} {outcome} ; chaque {other} marque {others_pts}.",
        "treasure_rule": "Chaque joueur marque les trésors des plis qu'il a remportés ; les cartes restées en main ne valent rien.",
        "end": "Fin de la partie", "target": "Après une manche, si un joueur a atteint {target} points, la partie s'arrête.", "winner_highest": "Le plus grand total l'emporte.",
        "ties_play_on": "En cas d'égalité en tête, on joue d'autres manches jusqu'à ce qu'un seul joueur soit en tête.",
        "ties_shared": "En cas d'égalité en tête, ces joueurs partagent la victoire.",
        "ties_one_more_round": "En cas d'égalité, une manche de plus décide (une égalité après elle est partagée).",
        "nest_shown": "Le terrier est montré à tous.", "nest_nobody": "Le terrier reste face cachée ; personne ne le prend.",
        "formulas": "Les points se calculent par ces expressions (voir le fichier de la variante) :",
        "ends_when": "La partie s'arrête après une manche quand {when}.", "ends_rounds": "La partie dure {n} manches.",
        "winner_lowest": "Le plus petit total l'emporte.",
        "house": "Règles maison", "house_intro": "Cette variante étend `{base}` et en diffère ainsi :",
        "changed": "`{path}` : {old} → {new}", "added": "`{path}` : ajouté, {new}", "removed": "`{path}` : retiré (était {old})",
        "no_diff": "Aucune différence.",
        "p_single": "une carte", "p_group": "{n} cartes de même valeur", "p_from": "parmi {set}",
        "p_chain": "{lo} valeurs consécutives ou plus, {cards} de chacune", "p_chain_range": "de {lo} à {hi} valeurs consécutives, {cards} de chacune",
        "p_chain_exact": "{lo} valeurs consécutives, {cards} de chacune",
        "p_each": " pour chaque élément de la suite", "p_plus": ", avec ", "p_card": "la carte {r}",
        "p_distinct": "cartes attachées toutes de valeurs différentes", "p_not_both": "jamais {a} et {b} ensemble",
        "p_wild": "{w} peut remplacer une carte manquante", "p_ranked_highest": "classée par sa plus haute carte",
        "p_any": "toutes les valeurs", "p_or": " ou ", "p_other_rank": "les cartes attachées ne sont jamais d'une valeur de la première partie",
    },
    "de": {
        "players": "{n} Spieler.", "semi": "; ", "cards": "Karten", "deck": "{n} Karten: {detail}.",
        "order": "Reihenfolge der Einzelkarten, niedrigste zuerst: {order}.", "colours": "Farben: {c}; sie spielen für Kombinationen keine Rolle.",
        "copies": "{rank}: {n}", "groups": "{name}: {ranks}", "treasures": "Schätze: {list} (insgesamt {total} Punkte).",
        "treasure": "jede {rank} zählt {points}",
        "deal": "Austeilen", "dealer_random": "Der erste Kartengeber wird ausgelost; {passes}.",
        "dealer_seat": "Platz {s} gibt zuerst; {passes}.",
        "passes_cw": "danach wechselt der Geber im Uhrzeigersinn", "passes_ccw": "danach wechselt der Geber gegen den Uhrzeigersinn",
        "passes_none": "derselbe Spieler gibt in jeder Runde", "passes_seat": "danach gibt {who} die nächste Runde",
        "direction_cw": "Gespielt wird im Uhrzeigersinn (nach links).", "direction_ccw": "Gespielt wird gegen den Uhrzeigersinn (nach rechts).",
        "direction_reverse": "Gespielt wird in der ersten Runde {first}; die Richtung wechselt jede Runde.",
        "w_cw": "im Uhrzeigersinn", "w_ccw": "gegen den Uhrzeigersinn",
        "phases": "Eine Runde hat diese Phasen, in dieser Reihenfolge: {list}.", "ph_deal": "das Austeilen", "ph_bidding": "das Bieten",
        "ph_nest": "das Versteck", "ph_exchange": "der Tausch", "ph_play": "der Spielverlauf", "ph_scoring": "die Wertung",
        "cut": "Der Geber hebt so ab, dass die obere Hälfte {lo} bis {hi} Karten hat.",
        "cut_any": "Der Geber hebt beliebig ab; beide Hälften behalten Karten.",
        "face_up": "Die oberste Karte der unteren Hälfte wird aufgedeckt auf die obere gelegt: alle sehen sie und wer sie erhält.",
        "recut": "Würde die aufgedeckte Karte ins Versteck gelangen, wird neu abgehoben.",
        "nest_hand": "{nest} Karten kommen verdeckt ins Versteck, dann {hand} an jeden Spieler, einzeln {order}.",
        "hand_only": "{hand} Karten gehen an jeden Spieler, einzeln {order}.",
        "order_cw": "im Uhrzeigersinn links vom Geber beginnend", "order_ccw": "gegen den Uhrzeigersinn rechts vom Geber beginnend",
        "order_play": "in Spielrichtung beim Spieler nach dem Geber beginnend",
        "keep": "Gelangt die aufgedeckte Karte ins Versteck, bleibt sie dort, für alle sichtbar, und niemand hält sie.",
        "roles": "Wer am höchsten bietet, wird {bidder_the}; die anderen Spieler sind die {others}.",
        "bidding": "Bieten", "opener_face_up_holder": "Wer die aufgedeckte Karte erhalten hat, beginnt das Bieten.",
        "opener_dealer_left": "Der Spieler links vom Geber beginnt das Bieten.",
        "levels": "Gebote: {levels}. Das erste Gebot darf jedes davon sein; jedes Gebot muss höher als das vorige sein.",
        "top_closes": "Ein Gebot von {top} beendet das Bieten sofort.",
        "passes_close": "Nach einem Gebot endet das Bieten, wenn {n} Spieler nacheinander passen.",
        "reenter": "Wer gepasst hat, darf später erneut bieten.", "no_reenter": "Wer gepasst hat, darf nicht mehr bieten.",
        "all_pass_redeal": "Passen alle, gibt derselbe Geber neu ({times}); passen wieder alle, muss {who} {bid} bieten.",
        "all_pass_forced": "Passen alle, muss {who} {bid} bieten.",
        "all_pass_void": "Passen alle, ist die Runde ungültig: niemand erhält Punkte, sie zählt als gespielte Runde, und die nächste Runde wird gegeben.",
        "all_pass_redeals_void": "Passen alle, gibt derselbe Geber neu, bis zu {times}; passen jedes Mal alle, ist die Runde ungültig: niemand erhält Punkte, und sie zählt als gespielte Runde.",
        "all_pass_redeals": "Passen alle, gibt derselbe Geber neu, bis zu {times}; passen jedes Mal alle, muss {who} {bid} bieten.",
        "forced_closes": " Dieser Spieler ist sofort {bidder_the}.", "forced_open": " Die anderen dürfen wie gewohnt bieten oder passen.",
        "who_face_up_holder": "der Spieler mit der aufgedeckten Karte", "who_dealer": "der Geber",
        "who_first_passer": "wer zuerst gepasst hat", "who_dealer_left": "der Spieler links vom Geber", "opener_seat": "Das Bieten eröffnet {who}.",
        "who_previous_round.first_out": "wer in der vorigen Runde zuerst alle Karten ausgespielt hat",
        "who_previous_round.most_cards_left": "wer am Ende der vorigen Runde die meisten Karten hielt",
        "who_role": "{role_the}", "to_role": "{role_acc}", "who_seat": "Platz {n}", "who_holder": "wer {card} hält",
        "who_next_of": "der Spieler nach {of} in Spielrichtung", "who_previous_of": "der Spieler vor {of} in Spielrichtung",
        "who_left_of": "der Spieler links von {of}", "who_right_of": "der Spieler rechts von {of}", "who_or": ", sonst ",
        "exchange": "Versteck und Tausch", "nest_only": "Versteck", "nest_to": "{Bidder_the} nimmt das Versteck ({n} Karten) auf und legt nichts ab; es wird nicht gezeigt.",
        "nest_to_seat": "{who} nimmt das Versteck ({n} Karten) auf und legt nichts ab; es wird nicht gezeigt.",
        "exchange_count": "Die {others} tauschen dann je {cards}, {manner}.", "no_transfer": "Vor dem Spiel wechseln keine Karten den Besitzer.",
        "m_secret_sim": "gleichzeitig und verdeckt", "m_secret_turn": "nacheinander und verdeckt (erhaltene Karten dürfen weitergegeben werden)",
        "m_shown_sim": "gleichzeitig und offen", "m_shown_turn": "nacheinander und offen (erhaltene Karten dürfen weitergegeben werden)",
        "transfer": "{when}{givers} gibt {cards} ab (Empfänger: {to}); {choice}; {seen}.", "when": "Wenn `{when}`: ", "when_words": "{when}: ",
        "r_first": "in der ersten Runde", "r_only": "in Runde {n}", "r_from": "ab Runde {n}", "r_upto": "bis Runde {n}",
        "exchange_only": "Kartenweitergabe",
        "givers_role": "jeder der {role}", "to_next": "der nächste von ihnen in Spielrichtung",
        "ch_player": "der Gebende wählt sie", "ch_highest": "es sind seine höchsten Karten",
        "t_shown": "alle sehen sie", "t_secret": "nur der Empfänger sieht sie",
        "ch_player_1": "der Gebende wählt sie", "ch_highest_1": "es ist seine höchste Karte",
        "t_shown_1": "alle sehen sie", "t_secret_1": "nur der Empfänger sieht sie",
        "exchange_counts": "Die {others} tauschen dann {manner}: {list}.",
        "exchange_item": "{cards} bei einem Gebot von {bid}", "n_cards": ("{n} Karte", "{n} Karten"), "n_times": ("einmal", "{n}-mal"),
        "play": "Spielverlauf", "first_leader": "{Bidder_the} eröffnet den ersten Stich; wer einen Stich gewinnt, eröffnet den nächsten.",
        "first_leader_seat": "{who} eröffnet den ersten Stich; wer einen Stich gewinnt, eröffnet den nächsten.",
        "leader_may_pass": "Wer eröffnet, darf passen und die Eröffnung weitergeben, außer wenn alle anderen das in diesem Stich schon getan haben.",
        "round_end_nobody": "Die Runde endet, sobald ein Spieler keine Karten mehr hat; niemand nimmt die Karten des laufenden Stichs.",
        "leader_no_pass": "Wer eröffnet, spielt eine beliebige Kombination und darf nicht passen.",
        "answer": "Jeder folgende Spieler spielt dieselbe Kombination mit gleich vielen Karten und höherem Wert, oder eine Kombination einer höheren Stufe, oder passt; wer gepasst hat, darf später wieder spielen.",
        "trick_close": "Der Stich endet, wenn nach einer Kombination {n} Spieler nacheinander passen; wer zuletzt gespielt hat, nimmt ihn und eröffnet.",
        "out_of_turn": "Außerhalb der Reihe dürfen gespielt werden: {list}. Direkt nach jeder Kombination darf jeder Spieler außer dem, der sie gespielt hat, und dem, der an der Reihe ist, der Reihe nach eine davon spielen, wenn sie sticht; danach geht es nach ihm weiter.", "in_turn": "Es darf nur spielen, wer an der Reihe ist.",
        "round_end": "Die Runde endet, sobald ein Spieler keine Karten mehr hat; er nimmt die Karten des laufenden Stichs.",
        "round_end_pile": "Die Runde endet, sobald ein Spieler keine Karten mehr hat. Gespielte Karten werden nie aufgenommen: Sie bleiben offen auf einem Stapel.",
        "trick_close_won": "Der Stich endet, wenn nach einer Kombination {n} Spieler nacheinander passen; wer zuletzt gespielt hat, gewinnt ihn und eröffnet.",
        "combinations": "Kombinationen", "col_name": "Kombination", "col_what": "Beschreibung", "col_example": "Beispiel",
        "col_tier": "Stufe",
        "beats": "Was schlägt was",
        "beats_same": "Eine Kombination schlägt eine gleiche mit gleich vielen Karten und niedrigerem Wert.",
        "beats_tier": "Stufe {tier} ({names}) schlägt jede Kombination einer niedrigeren Stufe; innerhalb einer Stufe schlägt nur eine höhere gleiche Kombination.",
        "scoring": "Wertung", "bidder_out": "Hat {bidder_the} zuerst alle Karten ausgespielt: {bidder_pron} {outcome}; die {others} erhalten {others_pts}.",
        "bonus_combo": "{points} Punkte für {to} für jede in der Runde gespielte Kombination „{name}“", "bonus_idle": "{points} Punkte für {to}, einmal, wenn ein {other} keine Karte gespielt hat",
        "bonus_count": "{points} Punkte für {to}, mal `{count}`", "to_bidder": "{bidder_acc}", "to_others": "jeden der {others}", "to_each": "jeden Spieler",
        "outcome_expr": "erhält `{expr}`",
        "bonuses": "Boni: {list}.", "no_bonus": "Keine Boni.",
        "gain": "erhält das {k}-fache {bidder_poss_gen} Gebots", "gain_1": "erhält {bidder_poss} Gebot", "loss": "verliert das {k}-fache {bidder_poss_gen} Gebots", "loss_1": "verliert {bidder_poss} Gebot", "nothing": "erhält nichts",
        "other_out": "Hat einer der {others} zuerst alle Karten ausgespielt: {bidder_the} {outcome}; jeder {other} erhält {others_pts}.",
        "treasure_rule": "Alle Spieler werten die Schätze in ihren eigenen Stichen; Handkarten zählen nicht.",
        "end": "Spielende", "target": "Hat nach einer Runde jemand {target} Punkte erreicht, endet das Spiel.", "winner_highest": "Die höchste Summe gewinnt.",
        "ties_play_on": "Bei Gleichstand an der Spitze wird weitergespielt, bis einer allein führt.",
        "ties_shared": "Bei Gleichstand an der Spitze teilen sich diese Spieler den Sieg.",
        "ties_one_more_round": "Bei Gleichstand entscheidet eine weitere Runde (danach wird geteilt).",
        "nest_shown": "Das Versteck wird allen gezeigt.", "nest_nobody": "Das Versteck bleibt verdeckt; niemand nimmt es.",
        "formulas": "Die Punkte ergeben sich aus diesen Ausdrücken (siehe die Variantendatei):",
        "ends_when": "Das Spiel endet nach einer Runde, wenn {when}.", "ends_rounds": "Das Spiel dauert {n} Runden.",
        "winner_lowest": "Die niedrigste Summe gewinnt.",
        "house": "Hausregeln", "house_intro": "Diese Variante erweitert `{base}` und weicht so davon ab:",
        "changed": "`{path}`: {old} → {new}", "added": "`{path}`: neu, {new}", "removed": "`{path}`: entfernt (war {old})",
        "no_diff": "Keine Abweichungen.",
        "p_single": "eine Karte", "p_group": "{n} gleiche Karten", "p_from": "aus {set}",
        "p_chain": "{lo} oder mehr aufeinanderfolgende Werte, je {cards}", "p_chain_range": "{lo} bis {hi} aufeinanderfolgende Werte, je {cards}",
        "p_chain_exact": "{lo} aufeinanderfolgende Werte, je {cards}",
        "p_each": " je Glied der Folge", "p_plus": " + ", "p_card": "die Karte {r}",
        "p_distinct": "angehängte Karten alle mit verschiedenen Werten", "p_not_both": "nie {a} und {b} zusammen",
        "p_wild": "{w} kann eine fehlende Karte ersetzen", "p_ranked_highest": "bewertet nach der höchsten Karte",
        "p_any": "beliebigem Wert", "p_or": " oder ", "p_other_rank": "angehängte Karten haben nie den Wert des ersten Teils",
    },
}


def _seat_words(value, t: dict, roles: dict | None = None, forms: dict | None = None) -> str:
    """A seat expression in words: the language's phrase for what it names, else as written.

    ``roles`` maps the file's role ids to their names in the language (``bidder`` -> declarer);
    ``forms``, to the forms of those names with their articles (:func:`articles.role_forms`).
    """
    roles = roles or {}
    forms = forms or {}
    if isinstance(value, int) and not isinstance(value, bool):
        return t["who_seat"].format(n=value)
    if isinstance(value, str):
        if value in SEAT_NAMES and "who_" + value in t:
            return t["who_" + value]
        if value in roles:
            return t["who_role"].format(role=roles[value], **forms.get(value, {}))
    if isinstance(value, list) and value:
        first, *rest = (_seat_words(v, t, roles, forms) for v in value)
        return first + "".join(t["who_or"] + v + t.get("who_or_close", "") for v in rest)
    if isinstance(value, dict) and len(value) == 1:
        (key, inner), = value.items()
        if key == "holder":
            return t["who_holder"].format(card=f"`{inner}`")
        if key in RELATIVE:
            return t["who_" + str(key)].format(of=_seat_words(inner, t, roles, forms))
    if isinstance(value, (dict, list)):
        return "`" + json.dumps(value, ensure_ascii=False) + "`"
    return f"`{value}`"


def _cap(text: str) -> str:
    """A sentence's first letter in capitals."""
    return text[:1].upper() + text[1:]


def _plural(t: dict, key: str, n) -> str:
    one, many = t[key]
    singular = n == 1 or (n == 0 and t.get("zero_is_singular", False))
    return (one if singular else many).format(n=n)


def _outcome(t: dict, times, bf: dict | None = None) -> str:
    """What the bidder scores: ``times`` times its bid (negative: a loss); ``bf``: the bidder's
    forms (its possessive: "ihr Gebot", "sein Gebot")."""
    if not times:
        return t["nothing"]
    kind = "gain" if times > 0 else "loss"
    k = abs(times)
    return (t[kind + "_1"] if k == 1 else t[kind]).format(k=k, **(bf or {}))


def _set_text(ranks: RankSet, t: dict, lang: str, groups: dict | None = None) -> str:
    groups = groups or {}
    return t["p_or"].join(t["p_any"] if i.kind == "any" else "..".join(groups.get(n) or word(n, lang) for n in i.names)
                          for i in ranks.items)


def describe_pattern(pattern: Pattern, lang: str = "en", groups: dict | None = None) -> str:
    """A sentence saying what a pattern allows, in ``lang``; ``groups`` names the deck's groups
    of ranks in that language (:func:`group_word`)."""
    t = {**T[lang], **CARD_WORDS.get(lang, CARD_WORDS["en"])}
    pieces = []
    for n, part in enumerate(pattern.parts):
        if isinstance(part, Card):
            text = t["p_card"].format(r=part.rank)
        elif isinstance(part, Cards):
            text = t["p_cards"].format(n=part.count) + " " + t["p_from"].format(set=_set_text(part.ranks, t, lang, groups))
        elif isinstance(part, Chain):
            key = ("p_chain" if part.max_length is None else
                   "p_chain_exact" if part.max_length == part.min_length else "p_chain_range")
            text = t[key].format(lo=part.min_length, hi=part.max_length, cards=_plural(t, "n_cards", part.size))
            text += " " + t["p_from"].format(set=_set_text(part.ranks, t, lang, groups))
        else:
            if part.count > 1:           # "2 single cards", "2 groups of 2 cards of one rank"
                text = t["p_singles" if part.size == 1 else "p_groups"].format(k=part.count, n=part.size)
            else:
                text = t["p_single"] if part.size == 1 else t["p_group"].format(n=part.size)
            text += " " + t["p_from"].format(set=_set_text(part.ranks, t, lang, groups))
            if part.each:
                text += t["p_each"]
        pieces.append(text)
    sentence = pieces[0] + "".join(t["p_plus"] + p for p in pieces[1:])
    clauses = []
    if len(pattern.parts) > 1 and not all(isinstance(p, Card) for p in pattern.parts):
        clauses.append(t["p_other_rank"])
    if pattern.distinct:
        clauses.append(t["p_distinct"])
    for a, b, _ in pattern.not_both:
        clauses.append(t["p_not_both"].format(a=a, b=b))
    if pattern.at_most:
        clauses.append(t["p_at_most"].format(n=pattern.at_most))
    if pattern.not_extending and isinstance(pattern.parts[0], Chain):
        size = pattern.parts[0].size
        unit = UNIT_WORDS.get(lang, UNIT_WORDS["en"]).get(size) or t["n_cards"][1].format(n=size)
        clauses.append(t["p_not_extending"].format(unit=unit))
    if pattern.wild:
        clauses.append(t["p_wild"].format(w=_set_text(pattern.wild, t, lang, groups)))
    if pattern.ranked_by == "highest":
        clauses.append(t["p_ranked_highest"])
    if pattern.same_colour:
        clauses.append(t["p_same_colour"])
    return sentence + (t["semi"] + t["semi"].join(clauses) if clauses else "")


def _example(rules, combo) -> str:
    full = rules.deck.full_key
    plays = combo.plays(full, rules._ge(full))
    if not plays:
        return ""
    return "-".join(plays[len(plays) // 3].cards)


def _name(combo, lang: str) -> str:
    return combo.names.get(lang) or combo.names.get("en") or combo.id


def _order_sentences(ordered: list, lang: str, words: dict) -> list[str]:
    """The order of a tier's ordered combinations, lowest first: a higher order beats a lower
    one; combinations of one order share a place (``=``) and compare their plays, as within
    one combination (a name given to several of them is said once)."""
    places: dict[int, list[str]] = {}
    for combo in sorted(ordered, key=lambda c: c.order):
        names = places.setdefault(combo.order, [])
        if _name(combo, lang) not in names:
            names.append(_name(combo, lang))
    if len(places) < 2 and all(len(names) < 2 for names in places.values()):
        return []
    out = [words["order"].format(names=" < ".join(" = ".join(names) for names in places.values()))]
    out += [words["order_equal"].format(names=words["and"].join(names)) for names in places.values() if len(names) > 1]
    return out


def write_rulebook(rules, lang: str = "en", base=None, base_label: str | None = None) -> str:
    """The rulebook of ``rules`` as Markdown; with ``base``, a section of what differs from it."""
    if lang not in T:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if (rules.spec.get("play") or {}).get("kind") == "tricks":
        from .rulebook_tricks import write_trick_rulebook
        return write_trick_rulebook(rules, lang, base, base_label)
    t = T[lang]
    spec = rules.spec
    deck = rules.deck
    roles = spec.get("roles") or {}
    others_given = roles.get("others", "others")
    bidder = word(roles.get("bidder", "bidder"), lang)
    others = word(others_given, lang)
    # one of them: the plural without its s, in the file's own words for the language, else
    # the English word's singular as the glossary says it
    if isinstance(others_given, dict):
        other = singular(others)
    else:
        other = word(singular(str(others_given)), lang)
    role_words = {str(r): word(v, lang) for r, v in roles.items()}
    role_words = {"bidder": bidder, "others": others, **role_words}
    # each role with its article, pronoun and possessive, as its gender in the language says
    # (fields role_the, Role_the... for seat phrases, and bidder_the, Bidder_the... by the role's id)
    forms = {r: {**role_forms(name, gender_of(roles.get(r), lang), lang),
                 **role_forms(name, gender_of(roles.get(r), lang), lang, prefix=r)} for r, name in role_words.items()}
    bf = forms["bidder"]

    def seat(value, line: str) -> str:
        """``line`` (a template with ``{who}``) naming the seat ``value``, with its German commas."""
        who = _seat_words(value, t, role_words, forms)
        return set_off(line.format(who=who), who, lang)
    round_ = compile_round(rules)
    if round_.reverse_each_round:
        first = t["w_cw"] if round_.direction == 1 else t["w_ccw"]
        direction = t["direction_reverse"].format(first=first)
    else:
        direction = t["direction_cw"] if round_.direction == 1 else t["direction_ccw"]
    phases = [t.get("ph_" + p.name) or f"`{p.name}`" for p in round_.phases] + [t["ph_scoring"]]
    out = [f"# {rules.name}", "", t["players"].format(n=spec.get("players", 3)), direction,
           t["phases"].format(list=", ".join(phases)), ""]

    out += [f"## {t['cards']}", ""]
    counts: dict[int, list[str]] = {}
    for i, n in enumerate(deck.copies):
        counts.setdefault(n, []).append(rank_word(deck, deck.ranks[i], lang))
    detail = t["semi"].join(f"{', '.join(ranks)} × {n}" for n, ranks in counts.items())
    out.append(t["deck"].format(n=len(deck.cards), detail=detail))
    out.append(t["order"].format(order=" < ".join(deck.ranks)))
    if deck.colours:
        colours = ", ".join(word(c, lang) for c in deck.colours)
        if rules.reads_colours:
            out.append(RULE_WORDS.get(lang, RULE_WORDS["en"])["colours_rank"].format(c=colours))
        else:
            out.append(t["colours"].format(c=colours))
    for name, ranks in deck.groups.items():
        out.append("- " + t["groups"].format(name=group_word(deck, name, lang), ranks=", ".join(deck.ranks[i] for i in sorted(ranks))))
    scoring = spec.get("scoring") or {}
    treasures = scoring.get("treasures") or {}
    if treasures:
        items = [t["treasure"].format(rank=r, points=p) for r, p in treasures.items()]
        total = sum(int(p) * deck.copies[deck.index[str(r).upper()]] for r, p in treasures.items()
                    if str(r).upper() in deck.index)
        out.append(t["treasures"].format(list=", ".join(items), total=total))
    out.append("")

    deal = spec.get("deal") or {}
    out += [f"## {t['deal']}", ""]
    first = deal.get("first_dealer", "random")
    if "next_dealer" in deal:
        passes = seat(deal["next_dealer"], t["passes_seat"])
    else:
        rotates = {"clockwise": "cw", "counterclockwise": "ccw"}.get(deal.get("dealer_rotates", "clockwise"), "none")
        passes = t["passes_" + rotates]
    out.append(t["dealer_random"].format(passes=passes) if first == "random"
               else t["dealer_seat"].format(s=first, passes=passes))
    if deal.get("cut"):
        out.append(t["cut"].format(lo=deal["cut"].get("from"), hi=deal["cut"].get("to")))
    elif deal.get("face_up"):          # the face-up card is the lower part's: say the cut that makes it
        out.append(t["cut_any"])
    if deal.get("face_up"):
        out.append(t["face_up"])
        if deal.get("face_up_in_nest") == "recut":
            out.append(t["recut"])
        elif round_.deal.nest or round_.deal.face_up_may_miss:
            out.append(t["keep"])
    order = t["order_play"] if round_.reverse_each_round else t["order_cw" if round_.direction == 1 else "order_ccw"]
    if round_.deal.nest:
        out.append(t["nest_hand"].format(nest=round_.deal.nest, hand=round_.deal.hand, order=order))
    else:
        out.append(t["hand_only"].format(hand=round_.deal.hand, order=order))
    out.append("")

    bidding = spec.get("bidding") or {}
    if bidding:
        out += [f"## {t['bidding']}", ""]
        opener = bidding.get("opener")
        out.append(t["roles"].format(bidder=bidder, others=others, **bf))
        out.append(t.get("opener_" + str(opener)) or seat(opener, t["opener_seat"]))
        levels = bidding.get("levels") or []
        out.append(t["levels"].format(levels=", ".join(str(x) for x in levels)))
        if bidding.get("top_bid_closes") and levels:
            out.append(t["top_closes"].format(top=levels[-1]))
        out.append(t["passes_close"].format(n=bidding.get("passes_to_close")))
        out.append(t["reenter"] if bidding.get("reenter_after_pass", True) else t["no_reenter"])
        all_pass = bidding.get("all_pass") or {}
        if all_pass and all_pass.get("then") == "void":
            n = all_pass.get("redeals_before_forced", 0)
            line = (t["all_pass_redeals_void"].format(times=_plural(t, "n_times", n)) if n else t["all_pass_void"])
            out.append(line)
        elif all_pass:
            n = all_pass.get("redeals_before_forced", 0)
            template = t["all_pass_redeal" if n == 1 else "all_pass_redeals"] if n else t["all_pass_forced"]
            template = template.replace("{times}", _plural(t, "n_times", n)).replace("{bid}", str(all_pass.get("forced_bid")))
            line = seat(all_pass.get("forced_bidder"), template)
            line += t["forced_closes"].format(bidder=bidder, **bf) if all_pass.get("forced_bid_closes") else t["forced_open"]
            out.append(line)
        out.append("")

    # a round whose only transfer is the nest taken has no exchange to title
    exchanges = any(tr.source != "nest" for tr in round_.transfers)
    title = (t["exchange"] if exchanges else t["nest_only"]) if round_.deal.nest else t["exchange_only"]
    out += [f"## {title}", ""]
    transfers = [_transfer_text(tr, rules, round_, t, lang, role_words, forms) for tr in round_.transfers]
    if round_.deal.nest and not any(tr.source == "nest" for tr in round_.transfers):
        out.append(t["nest_nobody"])
    out += transfers or ([] if round_.deal.nest else [t["no_transfer"]])
    out.append("")

    play = spec.get("play") or {}
    leader = play.get("first_leader", "bidder")
    out += [f"## {t['play']}", "", t["first_leader"].format(bidder=bidder, **bf) if leader == "bidder" else
            _cap(seat(leader, t["first_leader_seat"]))]
    out.append(t["leader_may_pass"] if round_.play.leader_may_pass else t["leader_no_pass"])
    out.append(t["answer"])
    kept = round_.taken_cards_count          # else nobody is said to take the cards of a trick
    out.append(t["trick_close" if kept else "trick_close_won"].format(n=play.get("passes_to_close_trick", 2)))
    ooo = play.get("out_of_turn") or []
    out.append(t["out_of_turn"].format(list=", ".join(_name(rules.combination[c], lang) for c in ooo
                                                       if c in rules.combination)) if ooo else t["in_turn"])
    out.append(t["round_end_pile"] if not kept else t["round_end"] if round_.play.last_trick_to_out
               else t["round_end_nobody"])
    out.append("")

    group_words = {name: group_word(deck, name, lang) for name in deck.groups}
    out += [f"## {t['combinations']}", "",
            f"| {t['col_name']} | {t['col_what']} | {t['col_example']} | {t['col_tier']} |", "|---|---|---|---|"]
    for combo in rules.combinations:
        out.append(f"| {_name(combo, lang)} | {describe_pattern(combo.pattern, lang, group_words)} | {_example(rules, combo)} | {combo.tier} |")
    out += ["", f"## {t['beats']}", "", t["beats_same"]]
    words = RULE_WORDS.get(lang, RULE_WORDS["en"])
    compared = [_name(c, lang) for c in rules.combinations if c.compare_cards]
    if compared:
        out.append(words["compare_cards"].format(names=", ".join(compared)))
        # the strength of a play with attached cards puts its first part first (cardplays.py)
        parted = [_name(c, lang) for c in rules.combinations if c.compare_cards and c.attachments
                  and not c.cards_count and not c.ranked_by_highest]
        if parted:
            out.append(words["compare_parts"].format(names=", ".join(parted)))
    # which rank a play of several ranks compares by (its first part's; a chain's highest)
    ranked = [c for c in rules.combinations if not c.compare_cards and not c.cards_count]
    parts = [_name(c, lang) for c in ranked if c.attachments and not c.ranked_by_highest
             and not all(isinstance(p, Card) for p in c.pattern.parts)]
    chains = [_name(c, lang) for c in ranked if not c.attachments and isinstance(c.pattern.parts[0], Chain)
              and not c.ranked_by_highest and not c.pattern.wild]
    if parts:
        out.append(words["rank_parts"].format(names=", ".join(parts)))
    if chains:
        out.append(words["rank_chain"].format(names=", ".join(chains)))
    for tier in sorted({c.tier for c in rules.combinations}):
        out += _order_sentences([c for c in rules.combinations if c.tier == tier and c.order is not None],
                                lang, words)
    for tier in sorted({c.tier for c in rules.combinations if c.tier > 0}):
        names = ", ".join(_name(c, lang) for c in rules.combinations if c.tier == tier)
        out.append(t["beats_tier"].format(names=names, tier=tier))
    play = rules.spec.get("play") or {}
    if isinstance(play.get("first_lead"), dict):
        first = play["first_lead"]
        in_words = round_words(first.get("when"), t)
        if in_words is not None:
            out.append(words["first_lead_when"].format(When=_cap(in_words), card=first.get("contains")))
        else:
            when = f" ({first['when']})" if first.get("when") is not None else ""
            out.append(words["first_lead"].format(card=first.get("contains"), when=when))
    if isinstance(play.get("last_card"), dict):
        last = play["last_card"]
        key = "last_card_must" if last.get("must_play", True) else "last_card_may_pass"
        out.append(words[key].format(cards=_plural(t, "n_cards", last.get("holds", 1))))
    out.append("")

    out += [f"## {t['scoring']}", ""]
    win = scoring.get("bidder_out_first") or {}
    lose = scoring.get("other_out_first") or {}
    if win:
        out.append(t["bidder_out"].format(bidder=bidder, others=others, outcome=_outcome_of(t, win.get("bidder", 0), bf),
                                          others_pts=_points(win.get("others", 0)), **bf))
        out.append(_bonuses(win.get("bonuses") or {}, rules, t, lang, role_words, other, forms))
    if lose:
        out.append(t["other_out"].format(bidder=bidder, others=others, other=other, **bf,
                                         outcome=_outcome_of(t, lose.get("bidder", 0), bf), others_pts=_points(lose.get("others", 0))))
        out.append(_bonuses(lose.get("bonuses") or {}, rules, t, lang, role_words, other, forms))
    out += scoring_lines(scoring, rules, lang, role_words, forms, lambda combo: _name(combo, lang))
    if treasures:
        out.append(t["treasure_rule"])
    out.append("")

    out += end_and_differences(spec, t, base, base_label, lang, out)
    return "\n".join(line for line in out if line is not None)


def end_and_differences(spec: dict, t: dict, base=None, base_label: str | None = None, lang: str = "en",
                        before: list[str] | None = None) -> list[str]:
    """The rulebook's last sections: the end of the game, and what a house file changes in its base
    (``before``: the rulebook's lines so far, whose sentences are compared with the base's)."""
    end = spec.get("end") or {}
    out = [f"## {t['end']}", ""]
    if "when" in end:
        out.append(t["ends_when"].format(when=f"`{end['when']}`"))
    elif "rounds" in end:
        out.append(t["ends_rounds"].format(n=end["rounds"]))
    else:
        out.append(t["target"].format(target=end.get("target")))
    out.append(t["winner_lowest" if end.get("winner") == "lowest" else "winner_highest"])
    out += [t["ties_" + str(end.get("ties", "play_on"))], ""]
    if base is not None:
        out += [f"## {t['house']}", "", t["house_intro"].format(base=base_label or base.path), ""]
        if before is not None:
            base_lines = write_rulebook(base, lang).splitlines()
            out += changed_sentences(base_lines, before + out[:-4], lang)
        diffs = diff_specs(base.spec, spec)
        if not diffs:
            out.append(t["no_diff"])
        for kind, path, old, new in diffs:
            out.append("- " + t[kind].format(path=".".join(path), old=_show(old), new=_show(new)))
        out.append("")
    return out


def _bonuses(bonuses: dict, rules, t: dict, lang: str, roles: dict, other: str, forms: dict) -> str:
    items = []
    for entry in bonuses.values():
        if not isinstance(entry, dict):
            continue
        to = str(entry.get("to", "bidder"))
        whom = (t["to_" + to].format(bidder=roles.get("bidder"), others=roles.get("others"), **forms.get("bidder", {}))
                if "to_" + to in t else t["to_role"].format(role=roles.get(to, to), **forms.get(to, {})))
        count = str(entry.get("count", ""))
        if entry.get("combination") in rules.combination:
            items.append(t["bonus_combo"].format(points=entry.get("points"), to=whom,
                                                 name=_name(rules.combination[entry["combination"]], lang)))
        elif "".join(count.split()) == "idle(others)>0":
            items.append(t["bonus_idle"].format(points=entry.get("points"), to=whom, other=other))
        else:
            items.append(t["bonus_count"].format(points=entry.get("points"), to=whom, count=count))
    return t["bonuses"].format(list=t["semi"].join(items)) if items else t["no_bonus"]


def _outcome_of(t: dict, value, bf: dict | None = None) -> str:
    """What the bidder scores in one outcome: ``{times_bid: K}``, a number or an expression."""
    if isinstance(value, dict):
        return _outcome(t, value.get("times_bid", 0), bf)
    if not value:
        return t["nothing"]
    return t["outcome_expr"].format(expr=value)


def _points(value) -> str:
    """Points written in the file: a number as it is, an expression in code quotes."""
    return str(value) if isinstance(value, (int, float)) else f"`{value}`"


def _transfer_text(transfer, rules, round_, t: dict, lang: str, roles: dict, forms: dict) -> str:
    """One transfer of the round in words: the nest taken, an exchange, or cards handed over."""
    section = rules.spec
    for step in path_of(rules.spec, transfer.name):
        section = section.get(step) or {}
    n = round_.deal.nest
    if transfer.source == "nest":
        to = section.get("to", "bidder")
        if to == "bidder":
            text = t["nest_to"].format(bidder=roles["bidder"], n=n, **forms.get("bidder", {}))
        else:
            who = _cap(_seat_words(to, t, roles, forms))
            text = set_off(t["nest_to_seat"].format(who=who, n=n), who, lang)
        if transfer.shown:           # the sentence says it is not shown: say what happens instead
            text = text.rsplit(";", 1)[0].rstrip() + ". " + t["nest_shown"]
        return text
    by_bid = t["semi"].join(t["exchange_item"].format(cards=_plural(t, "n_cards", k), bid=b)
                       for b, k in transfer.count_by_bid.items())
    if transfer.givers == "others" and transfer.to == "next" and transfer.when is None and transfer.choose == "player":
        manner = t["m_" + ("shown" if transfer.shown else "secret") + "_" + ("sim" if transfer.simultaneous else "turn")]
        if transfer.count is None:
            return t["exchange_counts"].format(others=roles["others"], manner=manner, list=by_bid)
        return t["exchange_count"].format(others=roles["others"], manner=manner,
                                          cards=_plural(t, "n_cards", transfer.count))
    givers = section.get("from", section.get("between", "others"))
    to_seat = section.get("to")
    in_words = round_words(section.get("when"), t)
    if played_before(transfer.when, round_.players, round_.bidding):
        # the previous round's seats always exist then: their fallbacks are never read
        givers, to_seat = _without_fallback(givers), _without_fallback(to_seat)
    who = (t["givers_role"].format(role=roles.get(givers, givers)) if isinstance(transfer.givers, str)
           else _seat_words(givers, t, roles, forms))
    to = t["to_next"] if transfer.to == "next" else _seat_words(to_seat, t, roles, forms)
    cards = _plural(t, "n_cards", transfer.count) if transfer.count is not None else by_bid
    when = ("" if transfer.when is None else t["when_words"].format(when=_cap(in_words)) if in_words is not None
            else t["when"].format(when=section["when"]))
    one = "_1" if transfer.count == 1 else ""          # one card: "it", not "them"
    text = _cap(t["transfer"].format(when=when, givers=who, cards=cards, to=to, choice=t["ch_" + transfer.choose + one],
                                     seen=t[("t_shown" if transfer.shown else "t_secret") + one]))
    return set_off(set_off(text, who, lang), to, lang)


_ROUND_TEST = re.compile(r"\s*round\s*(==|>=|<=|>|<)\s*(\d+)\s*")


def _round_bound(when) -> tuple[str, int] | None:
    """A condition on the round's number alone as ``(op, n)`` with op ``==``, ``>=`` or ``<=``
    (``round > 1``: ``(">=", 2)``), or None for any other condition."""
    match = _ROUND_TEST.fullmatch(when) if isinstance(when, str) else None
    if match is None:
        return None
    op, n = match.group(1), int(match.group(2))
    if op == ">":
        return ">=", n + 1
    if op == "<":
        return "<=", n - 1
    return op, n


def round_words(when, t: dict) -> str | None:
    """A condition on the round's number alone in words (``round > 1``: "from round 2 on"), or
    None for any other condition, which the rulebook shows as written."""
    bound = _round_bound(when)
    if bound is None:
        return None
    op, n = bound
    if n < 1 or (op == ">=" and n == 1):
        return None                     # never or always: written as it is
    if n == 1:                          # == 1 or <= 1
        return t["r_first"]
    return t[{"==": "r_only", ">=": "r_from", "<=": "r_upto"}[op]].format(n=n)


def _without_fallback(value):
    """A seat list whose first seat is one of the previous round's, as that seat alone."""
    if isinstance(value, list) and value and isinstance(value[0], str) and value[0].startswith("previous_round."):
        return value[0]
    return value


def _show(value) -> str:
    if isinstance(value, dict) and "pattern" in value:
        return f"`{value['pattern']}`"
    if isinstance(value, str):
        return f"`{value}`"
    # as YAML writes it: true/false/null, flow lists and mappings
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1_000_000).strip()
    if text.endswith("\n..."):
        text = text[:-4].strip()
    return f"`{text}`"


def diff_specs(old, new, path: tuple = ()) -> list[tuple[str, tuple, object, object]]:
    """Every difference between two merged variant documents: (kind, path, old, new)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[tuple[str, tuple, object, object]] = []
        for key in list(old) + [k for k in new if k not in old]:
            if key in ("extends", "name"):
                continue
            if key not in new:
                out.append(("removed", path + (str(key),), old[key], None))
            elif key not in old:
                out.append(("added", path + (str(key),), None, new[key]))
            else:
                out.extend(diff_specs(old[key], new[key], path + (str(key),)))
        return out
    if old != new:
        return [("changed", path, old, new)]
    return []


def base_of(path) -> Path | None:
    """The file that the variant at ``path`` extends (absolute), or None (the loader reads it)."""
    from .variant import base_of as loader_base_of
    return loader_base_of(path)
