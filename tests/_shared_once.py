"""A session value computed once for the whole test run, also when the tests run in several worker
processes (pytest-xdist): the first worker that needs it computes it and leaves it in the run's common
temporary directory; the others wait for that file and read it, for as long as the computing worker is
alive (no limit of time: on a busy machine it may take long)."""
from __future__ import annotations

import os
import pickle
import time
from pathlib import Path
from typing import Callable

def shared_once(key: str, compute: Callable[[], object], tmp_path_factory) -> object:
    """``compute()``, evaluated by one process of the run; ``key`` names the value."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return compute()
    root = Path(tmp_path_factory.getbasetemp()).parent   # common to the workers of this run
    data, lock = root / f"{key}.pickle", root / f"{key}.lock"
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return _wait_for(data, lock)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    try:
        value, failure = compute(), None
    except BaseException as exc:   # the waiting workers get the failure rather than a hang
        value, failure = None, f"{type(exc).__name__}: {exc}"
        _write(data, (None, failure))
        raise
    _write(data, (value, failure))
    return value


def _write(path: Path, payload) -> None:
    tmp = path.with_suffix(".partial")
    with open(tmp, "wb") as fh:
        pickle.dump(payload, fh)
    os.replace(tmp, path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _wait_for(path: Path, lock: Path):
    while not path.exists():
        text = lock.read_text() if lock.exists() else ""
        if text.isdigit() and not _alive(int(text)):
            if path.exists():
                break
            raise RuntimeError(f"the worker (pid {text}) that was computing {path.stem} ended without a result")
        time.sleep(0.5)
    with open(path, "rb") as fh:
        value, failure = pickle.load(fh)
    if failure is not None:
        raise RuntimeError(f"the worker that computed {path.stem} failed: {failure}")
    return value
