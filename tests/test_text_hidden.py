"""Hidden information in the text view (card_envs.core.text): a seat's text observation (rules,
view, the moves since its last decision, its legal moves) is the same after
``game.sample_hidden(state, seat, rng)`` for that seat, and never names a card hidden from it,
for every game and variant (``VARIANTS``)."""

from __future__ import annotations

import random
import re

import pytest

from card_envs.core.registry import make_game
from card_envs.core.text import MoveLog, observation_text
from card_envs.garda3.constants import A_CARD, A_DONE, card_name
from card_envs.testing.variants import variant_id
from env_helpers import registered_cases

CASES = registered_cases()


def _garda3_names(game, state, seat, public):
    """Garda3 (36 cards, 36 names): the other hands, the deck and a face-down night attack card
    hidden from ``seat``, less every card ever face up (a refilled deck holds old discards)."""
    public |= {card_name(c) for c in state.discard}
    if not game.hidden_from(state, seat):
        public |= {card_name(c) for c in state.atk_cards}
    public |= {card_name(c) for c in state.def_cards}
    hidden = {card_name(c) for c in state.deck}
    hidden |= {card_name(c) for q, hand in enumerate(state.hands) if q != seat for c in hand}
    if game.hidden_from(state, seat):
        hidden |= {card_name(c) for c in state.atk_cards}
    return hidden - public - {card_name(c) for c in state.hands[seat]}


def _rust_brawl_names(game, state, seat, public):
    """Rust Brawl with closed decklists: the opponent's hand and deck, less every name ever
    shown on a table, as equipment or in a graveyard, and less the seat's own cards' names
    (copies of one card share a name)."""
    names = game.names
    for q in range(2):
        public |= {names[c] for c in state.table[q] if c >= 0}
        public |= {names[c] for c in state.graveyards[q]}
        public |= {names[c] for slot in state.equipment[q] for c in slot}
    q = 1 - seat
    hidden = {names[c] for c in state.hands[q] + state.decks[q]}
    own = {names[c] for c in state.decklists[seat]}
    return hidden - public - own


_DISTINCT = re.compile(r"[(/]")


def _dirt_and_glory_labels(game, state, seat, public):
    """Dirt and Glory: the labels of the other seats' reserves and decks, the drawn cards of
    another seat and the unit deck, less every label ever public (caravans, offer, discarded)
    or ever the seat's own; a label is the card as the views name it (``game.view.card_text``:
    values and ability in words, ``"3 (+1 fuel)"``, ``"2/5"``); only labels with an ability or
    two values: a bare value such as ``3`` is in every view as a number."""
    label = game.view.card_text
    public |= {label(c) for caravan in state.caravans for c in caravan}
    public |= {label(c) for c in state.offer + state.discarded}
    hidden = {label(c) for c in state.unit_deck}
    for q in range(game.num_players):
        if q != seat:
            hidden |= {label(c) for c in state.reserves[q] + state.decks[q]}
    if state.player != seat:
        hidden |= {label(c) for c in state.hand}
    public |= {label(c) for c in state.decks[seat] + state.reserves[seat]}  # known to it
    if state.player == seat:  # its own drawn cards: the one it returns stays known to it
        public |= {label(c) for c in state.hand}
    return {x for x in hidden - public if _DISTINCT.search(x)}


HIDDEN_NAMES = {"garda3": _garda3_names, "rust_brawl": _rust_brawl_names,
                "dirt_and_glory": _dirt_and_glory_labels}


def _named(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w/+=]){re.escape(name)}(?![\w/+=])", text) is not None


def _dirt_and_glory_named(text: str, label: str) -> bool:
    """``label`` stands whole in ``text``: not the start of another card's label (``"1/4"`` is
    not named by ``"1/4 (see your deck's top card)"``, another Dirt and Glory card)."""
    return re.search(rf"(?<![\w/+=]){re.escape(label)}(?![\w/+=]| \()", text) is not None


#: how a hidden name is found in a text (default :func:`_named`)
NAMED = {"dirt_and_glory": _dirt_and_glory_named}


@pytest.mark.parametrize("name,config", CASES, ids=[f"{n}-{variant_id(c)}" for n, c in CASES])
def test_text_observation_is_blind_to_what_the_seat_cannot_see(name, config):
    game = make_game(name, **config)
    hidden_of = HIDDEN_NAMES.get(name)
    if name == "rust_brawl" and config.get("open_decklists", True):
        hidden_of = None  # an open decklist names the opponent's unseen cards by rule (RB-3.3)
    if name == "scratch_wars":
        assert game.perfect_information  # nothing is hidden: only the sampled copy is checked
    compared = names_checked = 0
    for g in range(500):  # 12 games, or more until enough views were compared (short games)
        if compared >= 60 and (names_checked >= 200 or g >= 12):
            break
        seed = 100 + g
        rng = random.Random(seed)
        state = game.new_state(seed)
        log = MoveLog(game)
        public: list[set] = [set() for _ in range(game.num_players)]
        step = 0
        while not game.is_terminal(state):
            for seat in range(game.num_players):
                # every state updates what was ever public; every third one is compared
                hidden = hidden_of(game, state, seat, public[seat]) if hidden_of else set()
                if step % 3:
                    continue
                text = observation_text(game, state, seat, log.since(seat),
                                        rules=not log.decided[seat])
                for k in (1, 2):
                    other = game.sample_hidden(state, seat, random.Random(seed * 10 + k))
                    assert observation_text(game, other, seat, log.since(seat),
                                            rules=not log.decided[seat]) == text, (seat, step)
                compared += 1
                # the rules in brief are the same text in every game (its examples may look
                # like card names): the rest is checked
                shown = observation_text(game, state, seat, log.since(seat))
                named = NAMED.get(name, _named)
                leaked = sorted(n for n in hidden if named(shown, n))
                assert not leaked, (seat, step, leaked, shown)
                names_checked += len(hidden)
            a = rng.choice(game.legal_actions(state))
            played = a - A_CARD if name == "garda3" and A_CARD <= a < A_DONE else None
            log.record(state, a)
            game.apply_action(state, a)
            if played is not None:  # face up, unless a night card still hidden from the seat
                for seat in range(game.num_players):
                    if not (played in state.atk_cards and game.hidden_from(state, seat)):
                        public[seat].add(card_name(played))
            step += 1
    assert compared >= 60
    if hidden_of is not None:
        assert names_checked >= 200  # the check looked at many hidden cards


def test_a_leaking_view_fails_the_checks():
    """The check above catches a text view that names the opponent's hand (as OpenSpiel's first
    card-game observation did, #1604)."""
    game = make_game("garda3")
    state = game.new_state(5)
    rng = random.Random(5)
    while not state.hands[1] or game.current_player(state) != 0:
        game.apply_action(state, rng.choice(game.legal_actions(state)))

    class Leaky(type(game)):
        def render_view(self, s, player):
            return super().render_view(s, player) + "\n  " + " ".join(
                card_name(c) for c in s.hands[1 - player])

    leaky = Leaky.__new__(Leaky)
    leaky.__dict__.update(game.__dict__)
    text = observation_text(leaky, state, 0, [])
    hidden = _garda3_names(game, state, 0, set())
    assert any(_named(text, n) for n in hidden)
    other = game.sample_hidden(state, 0, random.Random(1))
    assert observation_text(leaky, other, 0, []) != text
