"""How a training run reports its progress: :class:`TrainProgress` says nothing (the
library default), :class:`RichProgress` draws rich progress bars (the ``negotiation-env
train`` command): one per runner run, one per training stage, one per RL experiment.

The library functions take a progress object and never draw on the terminal
themselves; anything they want a reader to know (games that ended in an error) goes
through :meth:`TrainProgress.note`.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["TrainProgress", "RichProgress"]


def _nothing() -> None:
    return None


class TrainProgress:
    """The silent progress of a training run: every hook does nothing. Subclass it to
    draw or log (see :class:`RichProgress`). A context manager (start, stop)."""

    def __enter__(self) -> "TrainProgress":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def note(self, text: str) -> None:
        """A line for the reader (rich markup allowed), e.g. games that ended in an error."""

    def task(self, name: str, total: int) -> Callable[[], None]:
        """A bar of ``total`` steps; returns the function that advances it by one."""
        return _nothing

    def observer(self, name: str) -> Any:
        """A :class:`negotiation_env.runner.RunObserver` for one runner run, or None."""
        return None

    def trainer_callback(self, total: int, name: str = "train") -> Any:
        """A ``transformers.TrainerCallback`` for one training stage of ``total`` steps, or None."""
        return None

    def epoch(self, name: str, done: int, total: int) -> None:
        """An RL experiment ``name`` finished epoch ``done`` of ``total``."""


class RichProgress(TrainProgress):
    """Rich progress bars on ``console`` (default: a new stdout console)."""

    def __init__(self, console: Any = None):
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        kw = {"console": console} if console is not None else {}
        self.progress = Progress(TextColumn("{task.description:<16}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[info]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                                 transient=False, **kw)
        self._epochs: dict[str, Any] = {}

    def __enter__(self) -> "RichProgress":
        self.progress.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.stop()

    def note(self, text: str) -> None:
        self.progress.console.print(text, highlight=False)

    def task(self, name: str, total: int) -> Callable[[], None]:
        prog = self.progress
        tid = prog.add_task(name, total=total, info="")
        return lambda: prog.update(tid, advance=1)

    def observer(self, name: str) -> Any:
        from negotiation_env.runner import RunObserver

        prog = self.progress

        class Obs(RunObserver):
            task = None
            invalid = 0
            steps = 0

            def on_start(self, plan, summary, todo):
                self.task = prog.add_task(name, total=todo, info="")

            def on_game(self, game, summary):
                self.invalid += game["invalid"]
                self.steps += game["steps"]
                if self.task is not None:
                    prog.update(self.task, advance=1, info=f"{self.steps} steps, {self.invalid} refused")

        return Obs()

    def trainer_callback(self, total: int, name: str = "train") -> Any:
        from transformers import TrainerCallback

        prog = self.progress

        class Bar(TrainerCallback):
            task = None

            def on_train_begin(self, args, state, control, **kw):
                self.task = prog.add_task(name, total=total, info="")

            def on_step_end(self, args, state, control, **kw):
                if self.task is not None:
                    prog.update(self.task, completed=state.global_step)

            def on_log(self, args, state, control, logs=None, **kw):
                if self.task is not None and logs and "loss" in logs:
                    prog.update(self.task, info=f"loss {logs['loss']:.3f}")

        return Bar()

    def epoch(self, name: str, done: int, total: int) -> None:
        if name not in self._epochs:
            self._epochs[name] = self.progress.add_task(name, total=total, info="epochs")
        self.progress.update(self._epochs[name], completed=done)
