"""The state codec's records (card_envs.core.state): frozen dataclass fields of a declared state,
saved as objects of named fields, strictly validated on load, shared by clone."""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import dataclass, replace
from typing import Annotated, Literal, NamedTuple

import pytest
from pydantic import Field

from card_envs.core.errors import StateError
from card_envs.core.state import GameState, codec_of, is_record


@dataclass(frozen=True, slots=True)
class Stored:
    effect: Literal["shield", "combo"]
    value: Annotated[int, Field(ge=0, le=9)]


@dataclass(frozen=True, slots=True)
class Slot:
    status: Annotated[int, Field(ge=0, le=3)]
    stored: Stored | None


@dataclass(frozen=True, slots=True)
class Hit:
    value: int
    target: Literal["hero", "weapon"] | None
    slot: Annotated[int, Field(ge=-1, le=4)]


class Spin(NamedTuple):
    seat: Annotated[int, Field(ge=0, le=1)]
    segment: int


@dataclass(slots=True, eq=False)
class DuelState(GameState):
    rng: random.Random
    slots: list[list[Slot]]
    attack: Hit | None
    spins: list[Spin]
    queue: list[int]


def _state() -> DuelState:
    return DuelState(rng=random.Random(3), phase=0, player=0,
                     slots=[[Slot(1, None), Slot(3, Stored("shield", 2))], [Slot(0, None)]],
                     attack=Hit(4, None, -1), spins=[Spin(1, 7)], queue=[1])


def _saved(state) -> dict:
    return json.loads(json.dumps(codec_of(DuelState).to_dict(state)))


def test_records_are_saved_as_objects_of_named_fields_and_load_back():
    s = _state()
    d = _saved(s)
    assert d["slots"][0][1] == {"status": 3, "stored": {"effect": "shield", "value": 2}}
    assert d["attack"] == {"value": 4, "target": None, "slot": -1}
    assert d["spins"] == [{"seat": 1, "segment": 7}]  # a NamedTuple record: an object too
    t = codec_of(DuelState).from_dict(d)
    assert t.slots == s.slots and t.attack == s.attack and type(t.slots[0][1].stored) is Stored
    assert type(t.spins[0]) is Spin and t.spins == s.spins
    assert _saved(t) == d
    s.attack = None
    assert codec_of(DuelState).from_dict(_saved(s)).attack is None


def test_clone_shares_records_and_copies_the_lists():
    s = _state()
    c = codec_of(DuelState).clone(s)
    assert c.slots == s.slots and c.slots[0] is not s.slots[0] and c.slots[0][1] is s.slots[0][1]
    c.slots[0][0] = replace(c.slots[0][0], status=2)
    c.attack = replace(c.attack, target="hero")
    assert s.slots[0][0] == Slot(1, None) and s.attack.target is None
    assert pickle.loads(pickle.dumps(s)).slots == s.slots


@pytest.mark.parametrize("path, value, pattern", [
    (("attack", "value"), "4", r"^attack\.value: '4'"),
    (("attack", "target"), "armour", r"^attack\.target: 'armour'"),
    (("attack", "slot"), 5, r"^attack\.slot: 5"),
    (("slots", 0, 1, "stored", "value"), 10, r"^slots\[0\]\[1\]\.stored\.value: 10"),
    (("slots", 0, 1, "stored"), [1, 2], r"^slots\[0\]\[1\]\.stored: \[1, 2\]"),
    (("slots", 1, 0), 7, r"^slots\[1\]\[0\]: 7"),
    (("attack",), {"value": 1, "target": None, "slot": -1, "extra": 0}, r"^attack\.extra"),
    (("spins", 0, "seat"), 2, r"^spins\[0\]\.seat: 2"),
    (("spins", 0), [1, 7], r"^spins\[0\]: \[1, 7\]"),
])
def test_a_broken_record_is_refused_naming_its_path(path, value, pattern):
    d = _saved(_state())
    box = d
    for part in path[:-1]:
        box = box[part]
    box[path[-1]] = value
    with pytest.raises(StateError, match=pattern):
        codec_of(DuelState).from_dict(d)


def test_a_missing_record_field_is_named():
    d = _saved(_state())
    del d["attack"]["target"]
    with pytest.raises(StateError, match=r"^attack\.target: field is missing"):
        codec_of(DuelState).from_dict(d)


def test_a_renamed_field_names_both_the_missing_and_the_unknown_field():
    # a state saved before a field was renamed (Garda3's `actor` became `player`)
    d = _saved(_state())
    d["attack"]["aim"] = d["attack"].pop("target")
    with pytest.raises(StateError, match=r"^attack\.target: field is missing, and the saved field "
                       r"'attack\.aim' is not one of this state's \(saved by another version of "
                       r"the game\? save it again with this one\)$"):
        codec_of(DuelState).from_dict(d)


def test_an_old_garda3_state_with_actor_is_refused_naming_actor():
    from card_envs.garda3_v1 import env

    e = env()
    e.reset(seed=1)
    saved = e.save_state()
    saved["state"]["actor"] = saved["state"].pop("player")
    with pytest.raises(StateError, match=r"state\.player: field is missing, and the saved field "
                                         r"'actor' is not one of this state's"):
        e.reset(options={"state": saved})


@dataclass(slots=True)
class Mutable:
    x: int


@dataclass(frozen=True, slots=True)
class WithList:
    xs: list[int]


@dataclass(slots=True, eq=False)
class MutableState(GameState):
    m: Mutable


@dataclass(slots=True, eq=False)
class ListState(GameState):
    w: WithList


def test_only_frozen_dataclasses_without_lists_are_records():
    assert is_record(Hit) and is_record(Spin) and not is_record(Mutable)
    assert not is_record(Hit(1, None, -1)) and not is_record(tuple)
    with pytest.raises(TypeError, match="not supported"):
        codec_of(MutableState)
    with pytest.raises(TypeError, match="may not be a list"):
        codec_of(ListState)
