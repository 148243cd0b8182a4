"""The local backend's guard against the standard library's race when a worker dies: the
pool's manager thread may fail while it fails the pending batches, and its traceback must
not follow the command's one-line error (tests/test_cli_robust.py kills a real worker; the
race itself is rare, so here the manager's failure is staged)."""

from __future__ import annotations

import threading
from concurrent.futures import ProcessPoolExecutor

import pytest

from clangames.cli.simulate import _broken_pool_threads_quiet


def fail() -> None:
    raise RuntimeError("dictionary changed size during iteration")


def staged_manager(pool: ProcessPoolExecutor, broken: bool) -> threading.Thread:
    manager = threading.Thread(target=fail)
    pool._executor_manager_thread = manager  # type: ignore[attr-defined]
    if broken:
        pool._broken = "a child process terminated abruptly"  # type: ignore[attr-defined]
    return manager


@pytest.fixture
def reported(monkeypatch: pytest.MonkeyPatch) -> list[threading.Thread | None]:
    """The threads whose failures reach the hook in place before the guard (the one that
    would print them)."""
    seen: list[threading.Thread | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.thread))
    return seen


def test_a_broken_pools_manager_failing_is_not_reported(
    reported: list[threading.Thread | None],
) -> None:
    pool = ProcessPoolExecutor(max_workers=1)
    manager = staged_manager(pool, broken=True)
    with _broken_pool_threads_quiet(pool):
        manager.start()
        manager.join()
    assert reported == []


def test_other_thread_failures_are_still_reported(
    reported: list[threading.Thread | None],
) -> None:
    pool = ProcessPoolExecutor(max_workers=1)
    manager = staged_manager(pool, broken=False)  # a pool that is not broken
    other = threading.Thread(target=fail)
    with _broken_pool_threads_quiet(pool):
        for thread in (manager, other):
            thread.start()
            thread.join()
    assert reported == [manager, other]


def test_the_previous_hook_comes_back() -> None:
    before = threading.excepthook
    with _broken_pool_threads_quiet(ProcessPoolExecutor(max_workers=1)):
        assert threading.excepthook is not before
    assert threading.excepthook is before
