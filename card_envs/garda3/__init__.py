"""Garda3: rules (:mod:`.rules`), fighter sets (:mod:`.fighters`), observation encoder
(:mod:`.encoder`), heuristic bot (:mod:`.bot`). The env is :mod:`card_envs.garda3_v1`."""
