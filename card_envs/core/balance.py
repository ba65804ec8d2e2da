"""The card-balance report's protocol (:mod:`card_envs.evaluation.balance`, ``docs/balance.md``)
as a mixin a game opts into: ``class MyGame(BalanceMixin, GameBase[MyState])``.

A game that inherits it declares ``provides_balance`` in its
:attr:`~card_envs.core.game.GameBase.facts`; the report refuses any other game with a
:class:`~card_envs.core.errors.ConfigError` naming it. The first three hooks are abstract (a
game opting in writes them); the last three have defaults.
"""

from __future__ import annotations

import abc
from typing import Any


class BalanceMixin(abc.ABC):
    """The balance report's hooks (random legal card sets per seat, the config seating them,
    the card ids of a set, the card an action plays, the pool's names, the starting player)."""

    @abc.abstractmethod
    def balance_deal(self, seed: int) -> list:
        """One random legal card set per seat (JSON-able: a deck's card ids, a loadout), drawn
        from ``seed`` (an int >= 0) alone; equal seeds deal equal sets."""

    @abc.abstractmethod
    def balance_config(self, sets: list) -> dict[str, Any]:
        """The config overrides that seat ``sets[i]`` (from :meth:`balance_deal`, in any seat
        order) at seat ``i``: merged over the game's config, ``make_game(name, **merged)``."""

    @abc.abstractmethod
    def cards_in_set(self, card_set) -> tuple[str, ...]:
        """The card ids of one set of :meth:`balance_deal` (a card held twice may appear
        twice)."""

    def starting_player(self, state) -> int | None:
        """The rules' starting player of the game ``state`` (called on the final state: a game
        may settle it after some decisions, e.g. by initiative), ``None`` if it has none.
        Default: ``None`` (the report then counts the first seat to decide)."""
        return None

    def card_played(self, state, action: int) -> str | None:
        """The id of the card legal ``action`` puts into play in ``state`` (called before the
        action is applied; the acting seat is ``current_player(state)``), ``None`` for an action
        that plays no card. Default: ``None`` (plays are not counted)."""
        return None

    def balance_card_names(self) -> dict[str, str]:
        """Every card id of the pool the sets are dealt from, with its printed name (the report
        lists cards never dealt too). Default: ``{}`` (only the dealt ids, named by id)."""
        return {}
