"""Torch's CPU threads: capping them, and one warning when they outnumber the CPUs.

``torch.set_num_threads`` is process-global: it sets the intra-op threads of every model
in the process, and the last call wins. A pool of worker processes gives each worker its
own torch, which by default starts one thread per CPU of the machine, so N workers on C
CPUs run N x C threads that wait for cores instead of computing. The environment
variables of :data:`THREAD_ENV` set the default of a torch imported after them (a
worker process inherits them from the process that starts it).
"""

from __future__ import annotations

import logging
import os
import sys

__all__ = ["THREAD_ENV", "available_cpus", "check_threads", "set_process_threads", "oversubscription", "configure_threads",
           "warn_oversubscribed"]

#: the variables that set the OpenMP and MKL thread pools of a torch imported after them
THREAD_ENV = ("OMP_NUM_THREADS", "MKL_NUM_THREADS")

log = logging.getLogger("negotiation_env.threads")
_warned = False


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, which a container or
    ``taskset`` narrows), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def check_threads(value: object, name: str = "threads") -> int:
    """``value`` as a thread count (an integer >= 1), else a ``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1 (torch CPU threads per process); got {value!r}")
    return value


def set_process_threads(n: int) -> None:
    """Use ``n`` torch threads in this process and in every process it starts from now
    on: sets :data:`THREAD_ENV` and, when torch is already imported, ``torch.set_num_threads``."""
    n = check_threads(n)
    for var in THREAD_ENV:
        os.environ[var] = str(n)
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "set_num_threads"):
        torch.set_num_threads(n)


def oversubscription(threads: int, workers: int = 1, cpus: int | None = None) -> str | None:
    """The warning for ``workers`` processes of ``threads`` torch threads each on ``cpus``
    CPUs (default: :func:`available_cpus`), or None when they fit."""
    cpus = available_cpus() if cpus is None else cpus
    if threads * workers <= cpus:
        return None
    per = max(1, cpus // max(1, workers))
    who = (f"{workers} worker processes x {threads} torch threads" if workers > 1
           else f"torch uses {threads} threads")
    return (f"{who} on {cpus} available CPUs: threads wait for cores and model calls on the CPU "
            f"slow down several times; cap them with `run --threads {per}` or the hf: option "
            f"threads = {per} (or OMP_NUM_THREADS={per})")


def warn_oversubscribed(threads: int, workers: int = 1, cpus: int | None = None) -> bool:
    """Log :func:`oversubscription`'s warning once per process; True when logged now."""
    global _warned
    msg = oversubscription(threads, workers, cpus)
    if msg is None or _warned:
        return False
    _warned = True
    log.warning(msg)
    return True


def configure_threads(threads: int | None, workers: object = 1, uses_torch: bool = True) -> None:
    """What ``run --threads`` does: with a count, :func:`set_process_threads` (before any
    worker starts, so each worker's torch starts with it); without one, when several
    worker processes will load torch with its default of one thread per CPU (or
    ``OMP_NUM_THREADS``), :func:`warn_oversubscribed`."""
    if threads is not None:
        try:
            set_process_threads(threads)
        except ValueError:
            raise ValueError(f"--threads must be an integer >= 1; got {threads!r}") from None
        return
    if not uses_torch or isinstance(workers, bool) or not isinstance(workers, int) or workers <= 1:
        return
    try:
        per = int(os.environ.get("OMP_NUM_THREADS") or 0) or available_cpus()
    except ValueError:
        per = available_cpus()
    warn_oversubscribed(per, workers)
