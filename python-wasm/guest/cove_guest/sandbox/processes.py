"""`subprocess`, `os.system` and `os.popen`, run through the sandbox's shell.

There are no processes in the sandbox; the shell behind `bash_code_execution` runs command
lines (its utilities, and `python` as a fresh interpreter) inside it. A `Popen` here is a
command that runs to completion in one go:

- without `stdin=PIPE` it runs when it is created; with it, when its input is complete
  (`communicate(input)`, `stdin.close()`, `wait()`, or a first read of its output);
- its output is then complete: `stdout=PIPE` gives a file holding all of it, `None` writes it to
  the caller's `sys.stdout`/`sys.stderr`, `DEVNULL` drops it, a file (or descriptor) receives
  it; `stderr=STDOUT` appends the errors after the output (they are not interleaved);
- `cwd`, `env`, `input`, `text`/`encoding`/`errors`, `check`, `capture_output` behave as
  usual; a string runs as a shell command line with `shell=True`, and as a program name
  without; `timeout` cannot stop a command early: it raises `TimeoutExpired` afterwards, and the
  call's own time limit stops runaway commands;
- reading a command's output while still writing its input (an interactive conversation with a
  long-lived process) cannot work: the command runs with the input written so far, and later
  writes raise BrokenPipeError saying so.

Each command runs in a fresh shell (its own variables; `cd` inside it does not move the
caller), like a child process.
"""

import errno
import io
import itertools
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from _typeshed import StrOrBytesPath

_pids = itertools.count(4242)
_INTERACTIVE = (
    "cannot write to a command's input after reading its output: commands in this sandbox run "
    "to completion in one go (pass all input to communicate())"
)

# run_command(command_line, *, cwd, env, stdin) -> (stdout bytes, stderr bytes, status), and
# known_command(name) -> bool: set by `install`.
RunCommand = Callable[..., tuple[bytes, bytes, int]]
_run_command: RunCommand | None = None
_known_command: Callable[[str], bool] | None = None


def _command_line(args: Any, shell: bool) -> str:
    if isinstance(args, (str, bytes, os.PathLike)):
        text = os.fsdecode(args)
        return text if shell else shlex.quote(text)
    items = [os.fsdecode(a) for a in args]
    if shell:
        return items[0] if items else ""
    return shlex.join(items)


class _PendingInput(io.BytesIO):
    """`Popen.stdin` while a command waits for its input; closing it runs the command."""

    def __init__(self, proc: "Popen") -> None:
        super().__init__()
        self._proc = proc

    def close(self) -> None:
        if not self.closed:
            data = self.getvalue()
            super().close()
            self._proc._run(data)


class _Output:
    """`Popen.stdout`/`stderr` before the command ran: a first read runs it."""

    def __init__(self, proc: "Popen", name: str) -> None:
        self._proc = proc
        self._name = name

    def _stream(self) -> Any:
        self._proc._ensure_ran()
        return getattr(self._proc, self._name)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._stream(), attr)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._stream())


class Popen:
    """A command run by the sandbox's shell to completion (see the module docstring)."""

    def __init__(
        self,
        args: Any,
        bufsize: int = -1,
        executable: Any = None,
        stdin: Any = None,
        stdout: Any = None,
        stderr: Any = None,
        preexec_fn: Any = None,
        close_fds: bool = True,
        shell: bool = False,
        cwd: Any = None,
        env: Any = None,
        universal_newlines: Any = None,
        startupinfo: Any = None,
        creationflags: int = 0,
        restore_signals: bool = True,
        start_new_session: bool = False,
        pass_fds: Any = (),
        *,
        user: Any = None,
        group: Any = None,
        extra_groups: Any = None,
        encoding: Any = None,
        errors: Any = None,
        text: Any = None,
        umask: int = -1,
        pipesize: int = -1,
        process_group: Any = None,
    ) -> None:
        self.args = args
        self.pid = next(_pids)
        self.returncode: int | None = None
        self._command = _command_line(args, shell)
        if not shell:
            program = shlex.split(self._command)[0] if self._command else ""
            assert _known_command is not None, "install() sets it"
            if not _known_command(program):
                raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
        self._cwd = os.fspath(cwd) if cwd is not None else None
        if self._cwd is not None and not os.path.isdir(self._cwd):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), self._cwd)
        self._env = {os.fsdecode(k): os.fsdecode(v) for k, v in env.items()} if env else None
        if env is not None and not env:
            self._env = {}
        self.text_mode = bool(text or universal_newlines or encoding or errors)
        self._encoding = encoding or "utf-8"
        self._errors = errors or "strict"
        self._stdout_to, self._stderr_to = stdout, stderr
        self._ran = False
        self.stdin: _PendingInput | io.TextIOWrapper | _ClosedInput | None
        self.stdout = self.stderr = None
        if stdout == subprocess.PIPE:
            self.stdout = _Output(self, "stdout")
        if stderr == subprocess.PIPE:
            self.stderr = _Output(self, "stderr")
        if stdin == subprocess.PIPE:
            self.stdin = _PendingInput(self)
            if self.text_mode:
                self.stdin = io.TextIOWrapper(
                    self.stdin, encoding=self._encoding, errors=self._errors, write_through=True
                )
            return
        self.stdin = None
        self._run(_read_input(stdin))

    # -- running ------------------------------------------------------------------------------

    def _ensure_ran(self) -> None:
        if not self._ran:
            if self.stdin is not None and not self.stdin.closed:
                self.stdin.close()  # runs the command with the input so far
                # The command has finished: later writes say why they cannot reach it.
                self.stdin = _ClosedInput()
            else:
                self._run(b"")

    def _run(self, data: bytes) -> None:
        if self._ran:
            return
        self._ran = True
        started = time.monotonic()
        assert _run_command is not None, "install() sets it"
        out, err, status = _run_command(
            self._command,
            cwd=self._cwd if self._cwd is not None else os.getcwd(),
            env=self._env if self._env is not None else dict(os.environ),
            stdin=data,
        )
        self._elapsed = time.monotonic() - started
        self.returncode = status
        if self._stderr_to == subprocess.STDOUT:
            out, err = out + err, b""
        self._out, self._err = out, err
        self.stdout = self._deliver(self._stdout_to, out, sys.stdout)
        self.stderr = self._deliver(self._stderr_to, err, sys.stderr)

    def _deliver(self, target: Any, data: bytes, inherited: Any) -> Any:
        if target == subprocess.PIPE:
            if self.text_mode:
                return io.StringIO(self._decode(data))
            return io.BytesIO(data)
        if target is None:
            inherited.write(data.decode("utf-8", "surrogateescape"))
            inherited.flush()
        elif target in (subprocess.DEVNULL, subprocess.STDOUT):
            pass
        elif isinstance(target, int):
            os.write(target, data)
        else:
            try:
                target.write(data)
            except TypeError:
                target.write(data.decode("utf-8", "surrogateescape"))
            target.flush()
        return None

    def _decode(self, data: bytes) -> str:
        text = data.decode(self._encoding, self._errors)
        return text.replace("\r\n", "\n").replace("\r", "\n")

    # -- the Popen API -------------------------------------------------------------------------

    def communicate(self, input: Any = None, timeout: float | None = None) -> tuple[Any, Any]:
        if input is not None and not self._ran:
            if self.stdin is None:
                raise ValueError("stdin was not PIPE: communicate() cannot send input")
            self.stdin.write(input)
        self._ensure_ran()
        self._check_timeout(timeout)
        out = self._piped(self._stdout_to, self._out)
        err = self._piped(self._stderr_to, self._err)
        return out, err

    def _piped(self, target: Any, data: bytes) -> Any:
        if target != subprocess.PIPE:
            return None
        return self._decode(data) if self.text_mode else data

    def _check_timeout(self, timeout: float | None) -> None:
        if timeout is not None and self._elapsed > timeout:
            raise subprocess.TimeoutExpired(
                self.args,
                timeout,
                output=self._piped(self._stdout_to, self._out),
                stderr=self._piped(self._stderr_to, self._err),
            )

    def wait(self, timeout: float | None = None) -> int | None:
        self._ensure_ran()
        self._check_timeout(timeout)
        return self.returncode

    def poll(self) -> int | None:
        self._ensure_ran()
        return self.returncode

    def send_signal(self, sig: int) -> None:
        pass

    def terminate(self) -> None:
        pass

    def kill(self) -> None:
        pass

    def __enter__(self) -> "Popen":
        return self

    def __exit__(self, *exc: object) -> None:
        for stream in (self.stdout, self.stderr, self.stdin):
            if stream is not None and hasattr(stream, "close"):
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass
        self.wait()

    def __repr__(self) -> str:
        return f"<Popen: returncode: {self.returncode} args: {self.args!r}>"


class _ClosedInput:
    closed = False

    def write(self, _data: object) -> NoReturn:
        raise BrokenPipeError(_INTERACTIVE)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def _read_input(stdin: Any) -> bytes:
    if stdin is None or stdin == subprocess.DEVNULL:
        return b""
    if isinstance(stdin, int):
        chunks = []
        while chunk := os.read(stdin, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    data = stdin.read()
    return data.encode("utf-8") if isinstance(data, str) else data


def system(command: "StrOrBytesPath") -> int:
    """`os.system`: run a command line, its output to the caller's streams; the wait status."""
    proc = Popen(os.fsdecode(command), shell=True)
    assert proc.returncode is not None  # without stdin=PIPE it ran when created
    return (proc.returncode & 0xFF) << 8


def install(run_command: RunCommand, known_command: Callable[[str], bool]) -> None:
    """Route subprocess, os.system and os.popen to `run_command(command_line, *, cwd, env,
    stdin) -> (stdout, stderr, status)`, which runs a shell command line to completion;
    `known_command(name)` says whether a program of that name exists (as a path or a name)."""
    global _run_command, _known_command
    _run_command, _known_command = run_command, known_command
    subprocess.Popen = Popen  # type: ignore[misc,assignment]  # deliberate monkeypatch
    os.system = system
