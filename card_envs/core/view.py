"""What a seat is shown: the one view base every game's ``view.py`` builds on.

A game declares once, in its ``view.py``, everything a person (or a language model) reads about
its play, as it declares its observation once in ``observation.py``:

- :meth:`View.render`: the whole table as text (debugging: every hand and deck order);
- :meth:`View.render_view`: seat ``p``'s text view, a human player's screen (only what ``p`` may
  know: never another seat's hidden cards, a deck order or a face-down card);
- :meth:`View.table_view`: the ``rgb_array`` picture's content, a
  :class:`~card_envs.core.table.Table` (:mod:`card_envs.core.picture` draws it);
- :meth:`View.describe_action`: the detail after an action's name (``"pick 3: Obr"``);
- :meth:`View.action_seen_by`: an action as seat ``p`` sees it (a card played face down stays
  unnamed);
- :meth:`View.effects_seen_by`: what one move changed, as seat ``p`` sees it (a battle's damage,
  a spin's segment, the cards drawn), so a player who was not deciding can follow the game.

The game object builds its view once, on first use (:attr:`card_envs.core.game.GameBase.view`),
from its ``view_class``, and its public methods (``render``, ``render_view``, ``table_view``,
``describe_action``, ``action_seen_by``, ``effects_seen_by``) hand over to it, so every caller
keeps calling the game. The rules (``rules.py``) hold no text, picture or action-description
code; a view reads the state and the game's public methods and attributes only (a view never
changes a state).

The defaults here work for any game: a text view built from the seat's observation piece by
piece (never a leak: the observation holds only what the seat knows), ``render`` for a game of
:attr:`~card_envs.core.game.GameBase.perfect_information`, a picture drawing that text, no
effects.
"""

from __future__ import annotations

from typing import Any

from card_envs.core.table import Table, text_table


class View:
    """Base of a game's view (module docstring). A game subclasses it in its ``view.py`` and
    sets ``view_class`` on its Game class; every method takes the state it shows and never
    changes it.

    Attributes:
        game: the game object the view serves (read through its public methods and attributes).
    """

    def __init__(self, game: Any):
        self.game = game

    # -- text -----------------------------------------------------------------------------------
    def render(self, state: Any) -> str:
        """The whole state as text (debugging: every hand, every deck order).

        Raises:
            NotImplementedError: the game's view does not write it.
        """
        raise NotImplementedError(f"{self.game.name}: the view ({type(self).__name__}) does "
                                  "not write render(state)")

    def view_header(self, state: Any, player: int) -> str:
        """The first line of a view: game, the viewing seat, phase, the seat to act (or the
        result once over); public facts every game has."""
        game = self.game
        if game.is_terminal(state):
            ret = ", ".join(f"seat {p}: {r:+g}" for p, r in enumerate(game.returns(state)))
            tail = f"game over (returns {ret})"
        else:
            cp = game.current_player(state)
            tail = f"phase {game.phase_name(state)}, to act: seat {cp}" + \
                (" (you)" if cp == player else "")
        return f"{game.name}: you are seat {player}; {tail}"

    def render_view(self, state: Any, player: int) -> str:
        """Seat ``player``'s view of ``state`` as text (what a human in that seat sees): only
        what that seat may know: never another seat's hidden cards, a deck order or a face-down
        card. Default, from public facts: :meth:`view_header`, then ``game.render`` when the
        game has :attr:`perfect_information`, else the seat's observation piece by piece (its
        non-zero entries, ``index=value``: the observation holds only what the seat knows, by
        the contract)."""
        game = self.game
        lines = [game.view_header(state, player)]
        if game.perfect_information:
            lines.append(game.render(state))
            return "\n".join(lines)
        obs = game.observe(state, player)
        for piece in game.observation_layout.pieces:
            values = obs[piece.slice]
            if piece.size == 1:
                lines.append(f"  {piece.name}: {float(values[0]):.3g}")
                continue
            shown = [f"{i}={float(v):.3g}" for i, v in enumerate(values) if v]
            lines.append(f"  {piece.name}: {' '.join(shown) if shown else '-'}")
        return "\n".join(lines)

    # -- the picture ----------------------------------------------------------------------------
    def table_view(self, state: Any, player: int | None) -> Table:
        """What the ``rgb_array`` picture of ``state`` shows to seat ``player`` (``None``: the
        whole table, every card, as ``render``), as a :class:`~card_envs.core.table.Table`.
        Only what ``player`` may know: a hidden zone is a face-down card naming its size.
        Default: the text of ``render_view`` (``render`` for ``None``) on a fixed 1280×720
        picture, so it hides exactly what ``render_view`` hides."""
        game = self.game
        if player is None:
            if game.is_terminal(state):
                status = "game over"
            else:
                status = (f"phase {game.phase_name(state)}, to act: seat "
                          f"{game.current_player(state)}")
            return text_table(game.name, f"the whole table; {status}", game.render(state))
        header, text = game.view_header(state, player), game.render_view(state, player)
        first, _, rest = text.partition("\n")
        return text_table(game.name, header, rest if first == header else text)

    # -- moves ----------------------------------------------------------------------------------
    def describe_action(self, state: Any, piece: str, index: int) -> str | None:
        """Optional detail of action ``index`` of layout piece ``piece`` in ``state`` (the card
        or fighter it names), shown after the action's name; ``None``: the name alone says it."""
        return None

    def action_seen_by(self, state: Any, action: int, player: int) -> str:
        """Action ``action``, about to be taken in ``state`` by its current player, as seat
        ``player`` sees it, once it is made (the move log, the OpenSpiel information state, the
        picture's last move; no seat is shown another seat's moves before). It may name only
        what the move then shows ``player``: a card played face up is public from then on, so
        it may be named even where the observation encodes it by its features alone;
        :func:`card_envs.testing.check_game` holds every game to that (a name that differs
        after ``sample_hidden`` for ``player`` must come with a difference in all ``player`` is
        shown after the move). Default: ``game.action_to_string`` (a decision is public at the
        table)."""
        return self.game.action_to_string(state, action)

    def effects_seen_by(self, before: Any, action: int, after: Any, player: int) -> list[str]:
        """What the move ``action`` did, taken in ``before`` and leading to ``after`` (the
        engine's own steps up to the next decision included), as seat ``player`` sees it: one
        short line per visible change (a battle's damage, a spin's result, cards drawn, a new
        round). Only what ``player`` may know. Default: nothing (``[]``)."""
        return []
