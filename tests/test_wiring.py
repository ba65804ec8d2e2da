"""A Game class's wiring by convention (:mod:`card_envs.core.wiring`): the state class from the
generic parameter ``GameBase[<Game>State]``, the rest from the state's game folder; explicit class
attributes win piece by piece; a piece found neither way is an error naming the class and it."""

from __future__ import annotations

import inspect
import random
import re
from dataclasses import dataclass

import pytest

from card_envs.core.game import GameBase
from card_envs.core.state import GameState
from card_envs.core.view import View
from card_envs.core.wiring import CONVENTIONS
from card_envs.testing import check_game
from card_envs.testing.toy_game import (
    ToyNimConfig,
    ToyNimGame,
    ToyNimState,
    constants,
    observation,
    state,
    view,
)

#: every piece the convention fills (the table of card_envs.core.wiring)
PIECES = ("state_class", "state_checks", *CONVENTIONS, "over_phase")


def _rules(base: type) -> dict:
    """Bodies for the abstract methods other than ``state_checks`` (never called here)."""
    return {name: (lambda self, *args: None) for name in base.__abstractmethods__
            if name != "state_checks"}


class NoEntities(observation.ToyNimEncoder):
    """The toy encoder without its entity view."""

    ENTITIES = None


def _checks(game, s):
    state.check_state(game, s)


class ExplicitToyNim(GameBase[ToyNimState]):
    """Toy Nim in the explicit style: every piece of the wiring declared on the class (some
    other than the folder's)."""

    name, version = "toy_nim", 0
    state_class = ToyNimState
    state_checks = _checks
    encoder_class = NoEntities
    view_class = View
    action_layout = constants.ACTIONS
    phases = constants.PHASES
    over_phase = constants.Phase.OVER
    min_utility, max_utility, utility = -1.0, 1.0, "win/loss"
    zero_sum, chance = True, True
    __init__ = ToyNimGame.__init__
    new_state = ToyNimGame.new_state
    _legal_actions = ToyNimGame._legal_actions
    _apply_action = ToyNimGame._apply_action
    is_truncated = ToyNimGame.is_truncated
    returns = ToyNimGame.returns
    _resample_hidden = ToyNimGame._resample_hidden


def test_the_template_game_writes_no_wiring_and_gets_its_folders():
    body = inspect.getsource(ToyNimGame)
    written = [p for p in PIECES if re.search(rf"^\s+{p}\s*=", body, re.MULTILINE)]
    assert not written, f"the template shows the convention, yet writes {written}"
    assert ToyNimGame.state_class is ToyNimState  # GameBase[ToyNimState]
    assert ToyNimGame.state_checks is state.check_state
    assert ToyNimGame.encoder_class is observation.ToyNimEncoder
    assert ToyNimGame.view_class is view.ToyNimView
    assert ToyNimGame.action_layout is constants.ACTIONS
    assert ToyNimGame.phases == constants.PHASES == ("take", "over")
    assert ToyNimGame.over_phase == constants.Phase.OVER == 1  # the last phase
    game = ToyNimGame(ToyNimConfig())
    assert game.num_actions == 3 and game.observation_shape == (6,)
    s = game.new_state(0)
    s.phase = constants.Phase.OVER
    assert game.is_terminal(s) and game.current_player(s) == -1


def test_a_game_declaring_no_state_class_gets_its_generic_parameter():
    class Tiny(GameBase[ToyNimState]):
        locals().update(_rules(GameBase))

    assert Tiny.state_class is ToyNimState
    assert Tiny.state_checks is state.check_state  # the state's module: check_state
    assert Tiny.encoder_class is observation.ToyNimEncoder  # the state's folder


def test_explicit_class_attributes_win_piece_by_piece_and_still_pass_check_game():
    assert ExplicitToyNim.encoder_class is NoEntities and ExplicitToyNim.view_class is View
    assert ExplicitToyNim.state_checks is _checks
    game = ExplicitToyNim(ToyNimConfig())
    assert game.entity_layout is None
    check_game(game, games=3, seed=0, heuristic=None)


def test_a_subclass_keeps_its_parents_wiring():
    class Plain(ToyNimGame):
        pass

    assert (Plain.state_class, Plain.encoder_class, Plain.over_phase) == (
        ToyNimState, observation.ToyNimEncoder, 1)


def test_a_game_without_a_state_parameter_names_each_missing_piece():
    Nameless = type("Nameless", (GameBase,), {**_rules(GameBase), "state_checks": None})
    game = Nameless()
    with pytest.raises(AttributeError, match=r"Nameless has no state_class: declare "
                       r"state_class on the class .* or name it as the generic parameter, "
                       r"class Nameless\(GameBase\[<Game>State\]\)"):
        game.state_class  # noqa: B018
    with pytest.raises(AttributeError, match=r"Nameless has no encoder_class: .* or define "
                       r"<Game>Encoder in the observation.py of the game folder"):
        game.encoder  # noqa: B018
    with pytest.raises(AttributeError, match="Nameless has no action_layout: .* ACTIONS in the "
                       "constants.py of the game folder"):
        game.num_actions  # noqa: B018
    with pytest.raises(AttributeError, match="Nameless has no over_phase: .* PHASES"):
        game.is_terminal(ToyNimState(rng=random.Random(0), phase=0, pile=1, player=0,
                                     decisions=0, bonus_at=-1, bonus_owner=-1, winner=-1,
                                     taken=[0, 0]))
    assert game.view_class is View and game.phases == ()  # the core's defaults


@dataclass(slots=True, eq=False)
class LoneState(GameState):
    """A state declared outside any game folder (this test module): no check_state beside it."""

    pile: int


def test_a_state_outside_a_game_folder_offers_only_itself():
    class LoneGame(GameBase[LoneState]):
        locals().update(_rules(GameBase))

    assert LoneGame.state_class is LoneState
    with pytest.raises(TypeError, match="abstract class LoneGame with abstract method '?state_checks"):
        LoneGame()  # no check_state(game, state) in the state's module, none declared
    with pytest.raises(AttributeError, match="LoneGame has no encoder_class: .*LoneEncoder"):
        LoneGame.encoder_class  # noqa: B018
