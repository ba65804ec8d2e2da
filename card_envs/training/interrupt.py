"""Ctrl-C in a training run: stop at a safe point and keep the work.

:class:`Interrupt` owns SIGINT while a run trains. Inside :meth:`Interrupt.softly` (around
``model.learn``) the first Ctrl-C only sets :attr:`Interrupt.requested`: the trainer's callback
then ends ``learn`` after the current environment step, between two PPO updates, and the trainer
saves a checkpoint. Elsewhere (the warm start, evaluations, saving), and at a second Ctrl-C, it
raises ``KeyboardInterrupt`` at once, as Python does; the trainer catches it and saves what is
consistent. :class:`TrainingInterrupted` is what the trainer raises after saving: the command
line prints it as one line and exits 130.

Only the standard library is used.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from pathlib import Path


class TrainingInterrupted(KeyboardInterrupt):
    """A training run stopped by Ctrl-C after saving a resumable checkpoint.

    Attributes:
        timesteps: learner timesteps done (saved in the checkpoint).
        checkpoint: the checkpoint ``.zip`` written (``None``: nothing could be saved).
        run_dir: the run folder (``--resume`` it to continue).
        during: what was running (``"PPO"``, ``"behaviour cloning"``, ...).
    """

    def __init__(self, timesteps: int, checkpoint: Path | None, run_dir: Path, during: str):
        self.timesteps, self.checkpoint, self.run_dir, self.during = (timesteps, checkpoint,
                                                                      run_dir, during)
        super().__init__(self.line("training"))

    def line(self, prog: str) -> str:
        """The one line the command prints: where the work is and how to continue it."""
        if self.checkpoint is None:
            return (f"interrupted during {self.during} at {self.timesteps} timesteps: nothing "
                    f"saved in {self.run_dir}")
        return (f"interrupted during {self.during} at {self.timesteps} timesteps: checkpoint "
                f"{self.checkpoint} saved; continue with: {prog} --resume {self.run_dir}")


class Interrupt:
    """SIGINT handling of one training run (a context manager; see the module docstring).

    Outside the main thread (where Python delivers signals) it installs nothing and Ctrl-C
    behaves as usual.
    """

    def __init__(self) -> None:
        self.requested = False
        self._soft = False
        self._previous = None
        self._installed = False

    def __enter__(self) -> Interrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False

    def _handle(self, signum, frame) -> None:
        if self._soft and not self.requested:
            self.requested = True  # stop after this environment step (the callback asks)
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def softly(self) -> Iterator[None]:
        """Within the block the first Ctrl-C sets :attr:`requested` instead of raising."""
        self._soft = True
        try:
            yield
        finally:
            self._soft = False
