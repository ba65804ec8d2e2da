"""Config fields declared once with what they allow (``card_envs.core.config.setting``,
``GameConfig``): the core checks every declaration, for every registered game and the template,
with the messages of ``check_int`` / ``check_choice`` / ``check_bool``."""

from __future__ import annotations

import dataclasses

import pytest

from card_envs.core.config import GameConfig, check_settings, setting
from card_envs.core.errors import ConfigError
from card_envs.core.registry import GAMES, make_game
from card_envs.testing.toy_game import ToyNimConfig

CONFIGS = {name: type(make_game(name).config) for name in sorted(GAMES)} | {
    "toy_nim": ToyNimConfig}


def test_setting_wants_exactly_one_allowance():
    with pytest.raises(ValueError, match=r"setting\(3\): give exactly one of between, at_least, "
                       r"one_of \(got none\)"):
        setting(3)
    with pytest.raises(ValueError, match=r"got \['between', 'at_least'\]"):
        setting(3, between=(1, 5), at_least=1)


@pytest.mark.parametrize(("config", "message"), [
    ({"num_players": 5}, "config field 'num_players': 5 is out of range [2, 4]"),
    ({"pile": 0}, "config field 'pile': 0 is out of range [1, 40]"),
    ({"pile": "3"}, "config field 'pile': expected an int, got '3'"),
    ({"max_rounds": 0}, "config field 'max_rounds': 0 is out of range >= 1"),
    ({"hidden_bonus": 1}, "config field 'hidden_bonus': expected true/false, got 1"),
])
def test_the_templates_declared_values_are_checked(config, message):
    with pytest.raises(ConfigError) as info:
        ToyNimConfig(**config)
    assert str(info.value) == message


def test_a_choice_names_its_values_and_the_declaration_order_decides_which_is_told():
    @dataclasses.dataclass(frozen=True)
    class Small(GameConfig):
        mode: str = setting("a", one_of=("a", "b"))
        size: int = setting(3, between=(1, 9))

    assert Small().to_dict() == {"mode": "a", "size": 3}
    with pytest.raises(ConfigError, match=r"config field 'mode': 'c' is not one of \['a', 'b'\]"):
        Small(mode="c", size=0)  # both wrong: the first declared is named
    check_settings(Small(size=9))


def _bad_values(field: dataclasses.Field) -> list:
    """Values the field's declaration refuses."""
    kind, allowed = field.metadata.get("allowed", (None, None))
    if kind == "int":
        lo, hi = allowed
        return [lo - 1, True, 1.0] + ([hi + 1] if hi is not None else [])
    if kind == "one_of":
        return ["no such value"]
    return [1, "yes"] if field.type == "bool" else []


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_every_games_declared_config_values_are_enforced(game):
    """Each field declared with ``setting`` or annotated ``bool``: a value outside what it allows
    is a ConfigError naming that field."""
    cls = CONFIGS[game]
    if not issubclass(cls, GameConfig):
        pytest.skip(f"{cls.__name__} checks its fields by hand (not a GameConfig)")
    fields = [f for f in dataclasses.fields(cls) if f.init and _bad_values(f)]
    assert fields, f"{game}: no declared field to check"
    for f in fields:
        for bad in _bad_values(f):
            with pytest.raises(ConfigError, match=f"config field '{f.name}': "):
                cls(**{f.name: bad})
        cls(**{f.name: f.default})  # the default passes
