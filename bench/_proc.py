"""CPU time of a process tree, from /proc: what a server costs, its subprocesses included."""

from __future__ import annotations

import os
import pathlib

_TICK_NS = 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def _tasks(pid: int) -> list[pathlib.Path]:
    """The /proc/PID/task entries of a process (none if it is gone)."""
    try:
        return list(pathlib.Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return []


def tree_pids(pid: int) -> list[int]:
    """`pid` and all its descendants (through every thread's children)."""
    pids, stack = [], [pid]
    while stack:
        p = stack.pop()
        pids.append(p)
        for task in _tasks(p):
            try:
                stack.extend(int(c) for c in (task / "children").read_text().split())
            except OSError:
                continue
    return pids


def tree_cpu_ns(pid: int) -> int:
    """CPU time (user + system) used so far by the process tree under `pid`: every process's
    `utime + stime` (its exited threads included) and its waited-for children's, from
    /proc/PID/stat, so in clock ticks (10 ms): measure over a second of CPU or more."""
    total = 0
    for p in tree_pids(pid):
        try:
            fields = pathlib.Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the command: state is [0]; utime [11], stime [12], cutime [13], cstime [14].
        total += sum(int(f) for f in fields[11:15]) * _TICK_NS
    return total


def tree_thread_ns(pid: int) -> dict[tuple[int, int], int]:
    """Each live thread's run time in the tree under `pid` (nanoseconds, from schedstat), by
    (process, thread): for small amounts such as an idle server's."""
    out: dict[tuple[int, int], int] = {}
    for p in tree_pids(pid):
        for task in _tasks(p):
            try:
                out[(p, int(task.name))] = int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError):
                continue
    return out


def thread_ns_between(before: dict[tuple[int, int], int], after: dict[tuple[int, int], int]) -> int:
    """Run time between two `tree_thread_ns` readings: threads alive at the end (what a thread
    that ended in between used after the first reading is missed)."""
    return sum(ns - before.get(key, 0) for key, ns in after.items())
