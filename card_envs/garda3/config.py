"""Garda3 configuration: every DECISION of the rules a named, documented field (G-1.5, G-2,
G-4.2, G-4.6, G-5.2, G-6.2, G-7)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from card_envs.core.config import GameConfig, check_choice, setting
from card_envs.core.errors import ConfigError
from card_envs.garda3.cards import resolve_fighter_set
from card_envs.garda3.constants import VARIANTS


@dataclass(frozen=True)
class Garda3Config(GameConfig):
    """Garda3 configuration; every field is a DECISION of the rules with its default.

    Attributes:
        variant: ``"classic"`` or a ``+``-joined combination of ``royale``, ``resurrection``,
            ``night``, ``free_for_all`` (G-7.1–G-7.4, combinable as G-7.6), e.g.
            ``"royale+night"``. ``free_for_all`` makes it a 3-player game.
        fighter_selection: ``"draft"`` (alternate picks from one shared set, starting player
            first; G-2.1/G-2.3 default), ``"own_sets"`` (each picks 3 from their own set of 9),
            ``"random"`` (blind random 3 each from the shared set).
        fighter_set: the shared set: a shipped set name (``"default"``), a TOML path, or a dict
            (``FighterSet.to_dict``) (G-1.4).
        own_fighter_sets: under ``own_sets``, one set per player (same forms as ``fighter_set``);
            ``None`` gives every player a copy of ``fighter_set``.
        piebald_is_wild: piebald pairs with any colour (G-1.5 DECISION; default False).
        allow_empty_defence: a defender holding cards may play none (G-4.6 DECISION; default
            False).
        split_defence_needs_split_attack: two defence cards of *different* defence directions
            only against a two-direction attack (G-4.6 DECISION, the Czech "Pokud útočník
            použil útok ze dvou směrů..."; default True): against a one-direction attack the
            second defence card must share the first's defence direction. False (the ``garda3_v0``
            rule) allows a two-direction defence against any attack; the card in the unattacked
            direction then adds nothing and the bonus goes to the attacked direction.
        attacker_must_play: an attacker holding cards must play at least one (G-4.2 DECISION;
            default True; False lets the attacker pass the attack with ``done``).
        counter_attack_optional: the surviving defender may decline the counter-attack (G-5.2
            DECISION; default True; False makes it compulsory whenever they hold a card).
        max_rounds: rounds before the game ends as a draw, reported as a truncation (G-6.2,
            default 200).
    """

    variant: str = "classic"
    fighter_selection: str = setting("draft", one_of=("draft", "own_sets", "random"))
    fighter_set: Any = "default"
    own_fighter_sets: Any = None
    piebald_is_wild: bool = False
    allow_empty_defence: bool = False
    split_defence_needs_split_attack: bool = True
    attacker_must_play: bool = True
    counter_attack_optional: bool = True
    max_rounds: int = setting(200, at_least=1)
    flags: frozenset = field(default=frozenset(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()  # every field's declared values (GameConfig)
        if not isinstance(self.variant, str):
            raise ConfigError(f"config field 'variant': expected a string, got {self.variant!r}")
        parts = [p.strip() for p in self.variant.split("+")]
        for p in parts:
            check_choice("variant", p, VARIANTS)
        if len(set(parts)) != len(parts):
            raise ConfigError(f"config field 'variant': {self.variant!r} repeats a variant")
        if "classic" in parts and len(parts) > 1:
            raise ConfigError(f"config field 'variant': 'classic' cannot be combined ({self.variant!r})")
        object.__setattr__(self, "variant", "+".join(parts))  # normalised spelling
        object.__setattr__(self, "flags", frozenset(p for p in parts if p != "classic"))
        if self.own_fighter_sets is not None:
            if self.fighter_selection != "own_sets":
                raise ConfigError("config field 'own_fighter_sets' is only used with "
                                  "fighter_selection='own_sets'")
            if not isinstance(self.own_fighter_sets, (list, tuple)) or len(
                    self.own_fighter_sets) != self.num_players:
                raise ConfigError(f"config field 'own_fighter_sets': expected a list of "
                                  f"{self.num_players} sets, got {self.own_fighter_sets!r}")

    @property
    def num_players(self) -> int:
        return 3 if "free_for_all" in self.flags else 2

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (fighter sets inlined) that ``make_game(**d)`` accepts."""
        d = asdict(self)
        d.pop("flags")
        d["fighter_set"] = resolve_fighter_set(self.fighter_set).to_dict()
        if self.own_fighter_sets is not None:
            d["own_fighter_sets"] = [resolve_fighter_set(s).to_dict() for s in self.own_fighter_sets]
        return d
