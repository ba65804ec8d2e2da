"""Scratch Wars observation encoder: one float32 vector over the :data:`OBS` layout.

Everything in Scratch Wars is public (SW "What an agent observes"), so both seats see the same
facts, from their own point of view (``my_*`` = the observing seat, ``opp_*`` = the other).
Values are raw game numbers (HP, energy, round, values, durabilities), clipped to
``[OBS_LOW, OBS_HIGH]`` (so every entry stays inside the declared ``Box``: the round and day
counters of a game longer than 63 rounds, a hero far below 0 HP, a huge attack or shield
total read 64 / -64); flags and one-hots are 0/1. Static pieces (wheels, hero cards) are
computed once per state and reused.
"""

from __future__ import annotations

import numpy as np

from card_envs.core.layout import Layout

OBS_LOW = -64.0
OBS_HIGH = 64.0
W = 5  # weapon slots
NB = 11  # bonus effect kinds (8 icons + 3 special)

OBS = Layout(
    [
        ("my_hp", 1, "my hero's HP (SW-3.4; may be <= 0 at the end)"),
        ("my_hp_max", 1, "my hero's printed duel HP (SW-1.1)"),
        ("my_energy", 1, "my energy 0..12 (SW-5.1; 0 below level 3)"),
        ("opp_hp", 1, "opponent hero's HP"),
        ("opp_hp_max", 1, "opponent hero's printed duel HP"),
        ("opp_energy", 1, "opponent's energy"),
        ("time_of_day", 4, "one-hot morning/noon/evening/night (SW-4.1; all 0 at level 1)"),
        ("round", 1, "round number, 1-based (SW-4.1), clipped to 64 (the bound; only a "
                     "max_rounds above 63 reaches it)"),
        ("day", 1, "day number, 1-based (4 rounds a day; SW-4.4 sudden death from day 3), "
                   "clipped to 64"),
        ("is_my_turn", 1, "1 if the current turn is mine (the shield decider may differ)"),
        ("is_my_decision", 1, "1 if I decide now"),
        ("i_started", 1, "1 if I am the starting player (SW-2.2), 0 otherwise/before"),
        ("actions_left", 1, "actions left in the current turn (SW-3.1)"),
        ("phase", 9, "one-hot decision phase: init_weapon, init_order, main, result, bonus, "
                     "target, shield, detonate, over"),
        ("last_spin_mine", 1, "1 if the last spin was mine"),
        ("last_spin_opp", 1, "1 if the last spin was the opponent's"),
        ("last_spin_weapon", 5, "one-hot slot of the last spun weapon (of its owner)"),
        ("last_spin_segment", 9, "one-hot segment index 0..8 the last spin landed on"),
        ("last_spin_effect", 8, "one-hot effect icon of the last spun segment"),
        ("last_spin_value", 1, "printed value of the last spun segment"),
        ("last_spin_colour", 3, "one-hot field colour green/orange/red of the last spun segment"),
        ("pending_value", 1, "value of the spun effect awaiting apply/decline (incl. bonus)"),
        ("my_init_value", 1, "my initiative spin value (-1 = none yet)"),
        ("opp_init_value", 1, "opponent's initiative spin value (-1 = none yet)"),
        ("my_weapon_status", 25, "per my slot k (5 each): absent, ready, broken, repairing, "
                                 "holding a stored effect"),
        ("my_stored_effect", 15, "per my slot k (3 each): stored permanent, shield, combo"),
        ("my_stored_value", 5, "per my slot: stored effect value (0 if none)"),
        ("my_stored_durability", 5, "per my slot: stored effect durability (0 if none)"),
        ("opp_weapon_status", 25, "per opponent slot k: absent, ready, broken, repairing, stored"),
        ("opp_stored_effect", 15, "per opponent slot k: stored permanent, shield, combo"),
        ("opp_stored_value", 5, "per opponent slot: stored effect value"),
        ("opp_stored_durability", 5, "per opponent slot: stored effect durability"),
        ("my_bonus_used", 2, "my bonus slots 0/1 used this turn (SW-4.2)"),
        ("opp_bonus_used", 2, "opponent's bonus slots 0/1 used this turn"),
        ("bonus_offered", 2, "bonus slots 0/1 offered in the current bonus decision"),
        ("attack_value", 1, "value of the attack being resolved (target/shield decisions)"),
        ("attack_shielded", 1, "shield total already subtracted from that attack (SW-5.12), "
                               "clipped to 64"),
        ("attack_by_me", 1, "1 if I am the attacker of that attack"),
        ("attack_target", 11, "one-hot target: hero, weapon slot 0..4, stored effect slot 0..4 "
                              "(of the defender)"),
        ("my_weapon_info", 35, "per my slot (7 each): type one-hot bow/axe/sword/wand, energy "
                               "cost, durability, hero trained in its type"),
        ("opp_weapon_info", 35, "per opponent slot: type one-hot, cost, durability, trained"),
        ("my_wheels", 540, "per my slot, per segment (12 each): effect one-hot (8), value, "
                           "colour one-hot (3)"),
        ("opp_wheels", 540, "per opponent slot, per segment: effect one-hot, value, colour"),
        ("my_hero", 104, "my hero card: per time of day (25 each): energy, then 2 bonus slots "
                         "(bonus effect one-hot 11 incl. blessing/combo_bonus/detonator, value); "
                         "then trained types (4)"),
        ("opp_hero", 104, "the opponent's hero card, same encoding"),
    ]
)
STATIC_START = OBS.start("my_weapon_info")
DYNAMIC_SIZE = STATIC_START


def _static_side(game, state, p: int) -> tuple[list[float], list[float], list[float]]:
    info = [0.0] * 35
    wheels = [0.0] * 540
    hero = [0.0] * 104
    hd = game.hdata[state.heroes[p]]
    for k, name in enumerate(state.wnames[p]):
        t, cost, dur, segs = game.wdata[name]
        b = 7 * k
        info[b + t] = 1.0
        info[b + 4] = float(cost)
        info[b + 5] = float(dur)
        info[b + 6] = 1.0 if t in hd[1] else 0.0
        for j, (eff, val, col, _d) in enumerate(segs):
            o = 108 * k + 12 * j
            wheels[o + eff] = 1.0
            wheels[o + 8] = float(val)
            wheels[o + 9 + col] = 1.0
    for tod in range(4):
        o = 25 * tod
        hero[o] = float(hd[2][tod])
        for j, (b, v) in enumerate(hd[3][tod]):
            hero[o + 1 + 12 * j + b] = 1.0
            hero[o + 1 + 12 * j + NB] = float(v)
    for t in hd[1]:
        hero[100 + t] = 1.0
    return info, wheels, hero


def _static(game, state) -> list[np.ndarray]:
    sides = [_static_side(game, state, p) for p in (0, 1)]
    out = []
    for p in (0, 1):
        mine, opp = sides[p], sides[1 - p]
        vec = mine[0] + opp[0] + mine[1] + opp[1] + mine[2] + opp[2]
        out.append(np.asarray(vec, dtype=np.float32))
    return out


def _clip(x: float) -> float:
    return OBS_LOW if x < OBS_LOW else (OBS_HIGH if x > OBS_HIGH else float(x))


def encode(game, state, player: int) -> np.ndarray:
    """Seat ``player``'s observation: float32 ``(OBS.size,)`` in ``[OBS_LOW, OBS_HIGH]``."""
    s = state
    if s._static is None:
        s._static = _static(game, s)
    me, op = player, 1 - player
    v = [0.0] * DYNAMIC_SIZE
    v[0] = _clip(s.hp[me])
    v[1] = float(game.hdata[s.heroes[me]][0])
    v[2] = float(s.energy[me])
    v[3] = _clip(s.hp[op])
    v[4] = float(game.hdata[s.heroes[op]][0])
    v[5] = float(s.energy[op])
    if game.bonuses_on:
        v[6 + s.round % 4] = 1.0
    v[10] = _clip(s.round + 1)
    v[11] = _clip(s.round // 4 + 1)
    v[12] = 1.0 if s.turn == me else 0.0
    v[13] = 1.0 if s.actor == me and s.phase != 8 else 0.0
    v[14] = 1.0 if s.starter == me else 0.0
    v[15] = float(s.actions)
    v[16 + s.phase] = 1.0
    lp, lk, lseg = s.last_spin
    if lp >= 0:
        v[25 if lp == me else 26] = 1.0
        v[27 + lk] = 1.0
        v[32 + lseg] = 1.0
        eff, val, col, _d = game.wdata[s.wnames[lp][lk]][3][lseg]
        v[41 + eff] = 1.0
        v[49] = float(val)
        v[50 + col] = 1.0
    if s.phase == 3:
        v[53] = _clip(s.pend[1])
    v[54] = float(s.init_vals[me])
    v[55] = float(s.init_vals[op])
    for side, base in ((me, 56), (op, 106)):
        wst, seff, sval, sdur = s.wst[side], s.seff[side], s.sval[side], s.sdur[side]
        for k in range(W):
            v[base + 5 * k + wst[k]] = 1.0
            if wst[k] == 4:
                v[base + 25 + 3 * k + seff[k] - 5] = 1.0
                v[base + 40 + k] = _clip(sval[k])
                v[base + 45 + k] = float(sdur[k])
    for j in range(2):
        if s.bused[me][j]:
            v[156 + j] = 1.0
        if s.bused[op][j]:
            v[158 + j] = 1.0
    if s.phase == 4:
        for j in s.bonus_opts:
            v[160 + j] = 1.0
    if s.phase in (5, 6):
        val, _kind, tgt, _ctx, owner = s.att
        v[162] = _clip(val)
        v[163] = _clip(s.shield_sum)
        v[164] = 1.0 if owner == me else 0.0
        if tgt >= 0:
            v[165 + tgt] = 1.0
    return np.concatenate((np.asarray(v, dtype=np.float32), s._static[player]))


# the hand-unrolled indices in ``encode`` follow the layout; fail loudly if it ever changes
assert (OBS.start("phase"), OBS.start("last_spin_mine"), OBS.start("pending_value")) == (16, 25, 53)
assert (OBS.start("my_weapon_status"), OBS.start("opp_weapon_status")) == (56, 106)
assert (OBS.start("my_bonus_used"), OBS.start("bonus_offered")) == (156, 160)
assert (OBS.start("attack_value"), OBS.start("attack_target"), STATIC_START) == (162, 165, 176)
