"""``python -m card_envs``: the ``card-envs`` command (:func:`card_envs.cli.main`)."""

from card_envs.cli import main

raise SystemExit(main())
