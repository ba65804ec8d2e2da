"""The learning-curve PNG of the trainers (card_envs.training.summary.plot_curve)."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

import matplotlib.pyplot as plt  # noqa: E402

from card_envs.training.summary import plot_curve  # noqa: E402


def _point(timesteps: int, seconds: float, rate: float) -> dict:
    return {"timesteps": timesteps, "train_seconds": seconds,
            "eval/win_rate_vs_heuristic": rate, "eval/wilson95_vs_heuristic": [rate - 0.1,
                                                                              rate + 0.1]}


def _drawn(monkeypatch, tmp_path, curve, **kw):
    """The figure plot_curve drew (kept open), and the PNG it wrote."""
    figures = []
    monkeypatch.setattr(plt, "close", figures.append)
    path = tmp_path / "learning_curve.png"
    plot_curve(curve, path, "MaskablePPO league self-play on garda3", **kw)
    assert path.stat().st_size > 0 and len(figures) == 1
    fig = figures[0]
    texts = [ax.get_title() for ax in fig.axes if ax.get_title()]
    labels = [ln.get_label() for ax in fig.axes[:1] for ln in ax.get_lines()]
    return fig, texts, labels


def test_a_run_without_a_ppo_step_says_so_and_labels_the_cloned_policy(monkeypatch, tmp_path):
    # a loaded machine: cloning took the whole --minutes, one point at timestep 0 (774 s)
    fig, texts, labels = _drawn(monkeypatch, tmp_path, [_point(0, 774.0, 0.42)])
    note = ("no PPO step ran: the warm start used the whole budget\n"
            "the point is the cloned policy (warm start)'s evaluation")
    assert texts == [note, note]  # on both panels
    assert "the cloned policy (warm start), evaluated vs heuristic (duplicate deals, 95 % Wilson band)" in labels
    assert fig.axes[0].get_xlim() == (-1, 1)  # not matplotlib's -0.04..0.04 around one dot
    plt.close(fig)


def test_a_curve_with_ppo_steps_has_no_note(monkeypatch, tmp_path):
    fig, texts, labels = _drawn(monkeypatch, tmp_path, [_point(0, 60.0, 0.4),
                                                        _point(4096, 120.0, 0.5)])
    assert texts == []
    assert "policy alone vs heuristic (duplicate deals, 95 % Wilson band)" in labels
    assert fig.axes[0].get_xlim() == (0, 4096 * 1.02)
    plt.close(fig)
