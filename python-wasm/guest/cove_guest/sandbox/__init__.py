"""What model code expects of a Python process, in a sandbox with no processes, threads or
network.

Model code reaches for `subprocess`, threads, `tempfile` and `requests` out of habit. A WASI
interpreter has none of them natively, so each habit either works here by other means or fails
at once with one sentence that says why:

- `processes`: `subprocess`, `os.system` and `os.popen` run their command through the session's
  in-guest shell (the one behind `bash_code_execution`), to completion, as a process would.
- `threads`: `Thread.start()` runs the thread's work to completion before returning; thread and
  process pool executors and `multiprocessing.Pool` run each task when it is submitted.
- `network`: sockets, DNS, `urllib`, `http.client` and `requests` fail at once, saying there is
  no network access.
- `memory_map`: `mmap` maps by copying the file into memory (numpy's memmap, which names
  the file to write a writable copy back to, and pandas' memory_map=True use it); a writable
  map of a bare descriptor raises OSError saying why.
- `devnull`: `open(os.devnull, ...)` is a file whose writes go nowhere and whose reads find
  nothing (the guest's file system has no devices).
- `unavailable`: modules that cannot exist here (`ctypes`, `ssl`, ...) fail to import with a
  sentence that says why, instead of a bare "No module named '_ctypes'".

`install` is called once, by the driver, while the snapshot is made: every session starts with
it in place. docs/packages.md lists what differs from a native Python.
"""

from collections.abc import Callable

from cove_guest.sandbox import devnull, memory_map, network, processes, threads, unavailable


def install(run_command: processes.RunCommand, known_command: Callable[[str], bool]) -> None:
    """Put every stand-in in place; `run_command` runs a shell command line and
    `known_command` tells whether a program exists (see `processes.install`)."""
    unavailable.install()
    devnull.install()
    memory_map.install()
    threads.install()
    network.install()
    processes.install(run_command, known_command)
