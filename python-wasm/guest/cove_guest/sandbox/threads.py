"""Threads and pools that run their work to completion, one task at a time.

The guest has one thread and cannot start another. Model code uses threads and pools for
throughput, not for their interleaving, so each runs its work at once instead:

- `threading.Thread.start()` runs `run()` to completion before it returns (`join()` then returns
  at once, `is_alive()` is False); an exception goes to `threading.excepthook`, as in a thread.
- `concurrent.futures.ThreadPoolExecutor` and `ProcessPoolExecutor` run each task in `submit()`
  (so `map`, `as_completed` and `wait` see finished futures).
- `multiprocessing.Pool` (and `multiprocessing.pool.ThreadPool`) run each task when it is
  given; `multiprocessing.Process.start()` runs the target like a thread; `cpu_count()` is 1.

Code that needs two threads to run at the same time (a producer and a consumer blocking on each
other) cannot work here and blocks until the call's time limit.
"""

import concurrent.futures
import concurrent.futures.thread
import sys
import threading
import types

from cove_guest.deadline import TimeLimitExceeded


def _start(self):
    if not self._initialized:
        raise RuntimeError("thread.__init__() not called")
    if self._started.is_set():
        raise RuntimeError("threads can only be started once")
    self._started.set()
    try:
        self.run()
    except SystemExit:
        pass
    except TimeLimitExceeded:
        raise  # the call's time limit, not the thread's failure: it stops the caller too
    except BaseException:
        self._invoke_excepthook(self)
    finally:
        # As a finished thread: join() returns at once and is_alive() is False.
        self._is_stopped = True
        self._tstate_lock = None


class SerialExecutor(concurrent.futures.Executor):
    """An executor that runs each task to completion in `submit()`."""

    def __init__(self, max_workers=None, *args, initializer=None, initargs=(), **kwargs):
        if max_workers is not None and max_workers <= 0:
            raise ValueError("max_workers must be greater than 0")
        self._shutdown = False
        self._initializer = initializer
        self._initargs = initargs

    def submit(self, fn, /, *args, **kwargs):
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        if self._initializer is not None:
            initializer, self._initializer = self._initializer, None
            initializer(*self._initargs)
        future: concurrent.futures.Future[object] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()
        try:
            result = fn(*args, **kwargs)
        except TimeLimitExceeded:
            raise  # the call's time limit: no further task runs
        except BaseException as exc:
            future.set_exception(exc)
        else:
            future.set_result(result)
        return future

    def shutdown(self, wait=True, *, cancel_futures=False):
        self._shutdown = True


class ThreadPoolExecutor(SerialExecutor):
    __doc__ = SerialExecutor.__doc__


class ProcessPoolExecutor(SerialExecutor):
    __doc__ = SerialExecutor.__doc__


class AsyncResult:
    """A finished task of a `Pool` (multiprocessing's AsyncResult, already ready)."""

    def __init__(self, func, callback=None, error_callback=None):
        self._error = None
        try:
            self._value = func()
        except Exception as exc:
            self._value, self._error = None, exc
            if error_callback is not None:
                error_callback(exc)
        else:
            if callback is not None:
                callback(self._value)

    def ready(self):
        return True

    def successful(self):
        return self._error is None

    def wait(self, timeout=None):
        return None

    def get(self, timeout=None):
        if self._error is not None:
            raise self._error
        return self._value


class Pool:
    """multiprocessing's Pool, running each task when it is given, one after another."""

    def __init__(self, processes=None, initializer=None, initargs=(), *args, **kwargs):
        if processes is not None and processes < 1:
            raise ValueError("Number of processes must be at least 1")
        if initializer is not None:
            initializer(*initargs)
        self._closed = False

    def _check(self):
        if self._closed:
            raise ValueError("Pool not running")

    def apply(self, func, args=(), kwds=None):
        self._check()
        return func(*args, **(kwds or {}))

    def apply_async(self, func, args=(), kwds=None, callback=None, error_callback=None):
        self._check()
        return AsyncResult(lambda: func(*args, **(kwds or {})), callback, error_callback)

    def map(self, func, iterable, chunksize=None):
        self._check()
        return [func(item) for item in iterable]

    def map_async(self, func, iterable, chunksize=None, callback=None, error_callback=None):
        return AsyncResult(lambda: self.map(func, iterable), callback, error_callback)

    def starmap(self, func, iterable, chunksize=None):
        self._check()
        return [func(*item) for item in iterable]

    def starmap_async(self, func, iterable, chunksize=None, callback=None, error_callback=None):
        return AsyncResult(lambda: self.starmap(func, iterable), callback, error_callback)

    def imap(self, func, iterable, chunksize=1):
        self._check()
        return (func(item) for item in list(iterable))

    imap_unordered = imap

    def close(self):
        self._closed = True

    def terminate(self):
        self._closed = True

    def join(self):
        if not self._closed:
            raise ValueError("Pool is still running")

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, *exc):
        self.terminate()


def _process_start(self):
    # multiprocessing.Process: the target runs here, like a thread; exitcode as a process's.
    self._started_serially = True
    try:
        self.run()
    except SystemExit as exc:
        code = exc.code
        self._serial_exitcode = code if isinstance(code, int) else (0 if code is None else 1)
    except TimeLimitExceeded:
        raise
    except BaseException:
        import traceback

        traceback.print_exc()
        self._serial_exitcode = 1
    else:
        self._serial_exitcode = 0


def install():
    # Deliberate monkeypatching of the stdlib, and attributes set on a module built here: the
    # ignores below are for that.
    threading.Thread.start = _start  # type: ignore[method-assign]
    concurrent.futures.ThreadPoolExecutor = ThreadPoolExecutor  # type: ignore[misc,assignment]
    concurrent.futures.ProcessPoolExecutor = ProcessPoolExecutor  # type: ignore[misc,assignment]
    concurrent.futures.thread.ThreadPoolExecutor = ThreadPoolExecutor  # type: ignore[misc,assignment]
    process = types.ModuleType("concurrent.futures.process")
    process.ProcessPoolExecutor = ProcessPoolExecutor  # type: ignore[attr-defined]
    process.BrokenProcessPool = type("BrokenProcessPool", (RuntimeError,), {})  # type: ignore[attr-defined]
    sys.modules["concurrent.futures.process"] = process
    _install_multiprocessing()


def _install_multiprocessing():
    import multiprocessing
    import multiprocessing.process

    # As in install(): a module built here, and deliberate monkeypatching of multiprocessing.
    pool = types.ModuleType("multiprocessing.pool")
    pool.__doc__ = "multiprocessing.pool in the sandbox: pools that run tasks one by one."
    pool.Pool = pool.ThreadPool = Pool  # type: ignore[attr-defined]
    pool.AsyncResult = pool.ApplyResult = pool.MapResult = AsyncResult  # type: ignore[attr-defined]
    sys.modules["multiprocessing.pool"] = pool
    multiprocessing.pool = pool

    def make_pool(processes=None, initializer=None, initargs=(), maxtasksperchild=None):
        return Pool(processes, initializer, initargs)

    multiprocessing.Pool = make_pool
    multiprocessing.cpu_count = lambda: 1
    base = multiprocessing.process.BaseProcess
    base.start = _process_start  # type: ignore[method-assign]
    base.join = lambda self, timeout=None: None  # type: ignore[method-assign]
    base.is_alive = lambda self: False  # type: ignore[method-assign]
    base.exitcode = property(lambda self: getattr(self, "_serial_exitcode", None))  # type: ignore[method-assign,assignment]
