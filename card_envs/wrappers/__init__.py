"""Views of a game for other libraries (nothing else lives here):

- :mod:`~card_envs.wrappers.single_agent`: the Gymnasium single-agent view of any game against
  opponent policies (``SingleAgentEnv``, with ``action_masks()`` for MaskablePPO and
  ``info["action_mask"]``); its opponents are a policy or an ``OpponentSource`` (``sample()`` /
  ``record(...)``), such as the training league. ``make_single_agent_env`` builds one from names.
- :mod:`~card_envs.wrappers.opponents`: ``with_opponents(env, {"player_1": "heuristic"})``, an
  AEC env in which bots or policies play some seats, for multi-agent learners (TorchRL,
  Tianshou, RLlib).
- :mod:`~card_envs.wrappers.text`: text in, text out for language agents: ``make_text_env``
  (Gymnasium, ``spaces.Text``) and ``text_aec_env`` (PettingZoo AEC); ``docs/language_agents.md``.

Gymnasium ids: importing this package registers one id per game of the registry
(``card_envs.core.registry.GAMES``: the games of other packages found through the
``card_envs.games`` entry point too; a game registered later with ``card_envs.register_game``
gets its id from ``register_gymnasium_ids()``), ``card_envs/<GameName>-v0``
(:data:`GYMNASIUM_IDS`: ``card_envs/Garda3-v0``, ``card_envs/ScratchWars-v0``,
``card_envs/DirtAndGlory-v0``), each a
:func:`~card_envs.wrappers.single_agent.make_single_agent_env` of that game; keywords of
``gymnasium.make`` go to it (``opponent="heuristic"``, env keywords, game config fields). In a
fresh interpreter ``gymnasium.make("card_envs.wrappers:card_envs/Garda3-v0")`` imports this
package first. The id's version is that of the single-agent view: it is bumped when the view or
the game's env version (``garda3_v1``...) changes how an episode plays.

Policies (random, heuristic, lookahead, frozen models) are in :mod:`card_envs.bots`; the trainer's
parts (league, behaviour cloning, SB3 glue) in :mod:`card_envs.training`.
"""

import gymnasium

from card_envs.core.registry import GAMES
from card_envs.wrappers.opponents import OpponentsEnv, with_opponents
from card_envs.wrappers.single_agent import OpponentSource, SingleAgentEnv, make_single_agent_env

#: the version of every Gymnasium id of this package (see the module docstring)
GYMNASIUM_VERSION = 0


def gymnasium_id(game: str) -> str:
    """The Gymnasium id of a registry game: ``"dirt_and_glory"`` -> ``"card_envs/DirtAndGlory-v0"``."""
    return f"card_envs/{''.join(part.capitalize() for part in game.split('_'))}-v{GYMNASIUM_VERSION}"


#: what every id builds (a string, so the specs stay JSON-able and picklable)
ENTRY_POINT = "card_envs.wrappers.single_agent:make_single_agent_env"

#: registry game name -> its Gymnasium id (kept by :func:`register_gymnasium_ids`)
GYMNASIUM_IDS: dict[str, str] = {}


def register_gymnasium_ids() -> dict[str, str]:
    """Register an id for every game of the registry with Gymnasium (idempotent; done on
    import; call it again after :func:`card_envs.register_game`); returns
    :data:`GYMNASIUM_IDS`, updated."""
    GYMNASIUM_IDS.update({name: gymnasium_id(name) for name in GAMES})
    for name, env_id in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=ENTRY_POINT,
                               kwargs={"game": name})
    return GYMNASIUM_IDS


register_gymnasium_ids()

__all__ = ["GYMNASIUM_IDS", "OpponentSource", "OpponentsEnv", "SingleAgentEnv", "gymnasium_id",
           "make_single_agent_env", "register_gymnasium_ids", "with_opponents"]
