"""Model code's everyday habits — subprocess, os.system, os.popen, tempfile, threads, pools —
run natively (a real CPython 3.11 process in a temporary directory) and in the guest: the
outputs must match. What cannot match (no network, no ctypes) is checked for its message, and
listed in docs/packages.md."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

import cove

pytestmark = pytest.mark.anyio

SNIPPETS: dict[str, str] = {
    "run_capture_list": """
import subprocess
r = subprocess.run(['echo', 'hello', 'world'], capture_output=True, text=True)
print(repr(r.stdout), r.returncode, repr(r.stderr))
""",
    "run_shell_streams_and_status": """
import subprocess
r = subprocess.run('echo out; echo err >&2; exit 3', shell=True, capture_output=True, text=True)
print(repr(r.stdout), repr(r.stderr), r.returncode)
""",
    "run_bytes": """
import subprocess
r = subprocess.run(['printf', 'a\\\\nb'], stdout=subprocess.PIPE)
print(r.stdout, r.stderr)
""",
    "check_true_failure": """
import subprocess
try:
    subprocess.run('exit 4', shell=True, check=True)
except subprocess.CalledProcessError as e:
    print('failed', e.returncode, e.cmd)
""",
    "check_output_listing": """
import subprocess
for name in ('b.txt', 'a.txt'):
    open(name, 'w').write(name)
print(subprocess.check_output(['ls']).decode().split())
print(subprocess.check_output('cat a.txt b.txt', shell=True, text=True))
""",
    "check_call_and_call": """
import subprocess, sys
sys.stdout.flush()
print(subprocess.call('exit 5', shell=True))
try:
    subprocess.check_call(['false'])
except subprocess.CalledProcessError as e:
    print('check_call', e.returncode)
""",
    "env_and_cwd": """
import os, subprocess
os.makedirs('sub/dir', exist_ok=True)
env = {'FOO': 'bar', 'PATH': os.environ.get('PATH', '/usr/bin:/bin')}
r = subprocess.run('basename "$(pwd)"; echo "$FOO"', shell=True, cwd='sub/dir', env=env,
                   capture_output=True, text=True)
print(repr(r.stdout), os.path.basename(os.getcwd()) != 'dir')
""",
    "input_to_a_filter": """
import subprocess
r = subprocess.run(['wc', '-l'], input='a\\nb\\nc\\n', capture_output=True, text=True)
print(r.stdout.strip())
r = subprocess.run(['sort'], input=b'c\\na\\nb\\n', stdout=subprocess.PIPE)
print(r.stdout)
""",
    "stderr_to_stdout": """
import subprocess
r = subprocess.run('echo one; echo two >&2', shell=True, stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT, text=True)
print(sorted(r.stdout.split()))
""",
    "popen_communicate": """
import subprocess
p = subprocess.Popen(['tr', 'a-z', 'A-Z'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     text=True)
out, err = p.communicate('shout\\n')
print(repr(out), err, p.returncode, p.poll())
with subprocess.Popen(['echo', 'ctx'], stdout=subprocess.PIPE) as q:
    print(q.stdout.read())
print(q.returncode)
""",
    "popen_readlines": """
import subprocess
p = subprocess.Popen('printf "1\\\\n2\\\\n3\\\\n"', shell=True, stdout=subprocess.PIPE, text=True)
print([line.strip() for line in p.stdout])
print(p.wait())
""",
    "missing_program": """
import errno, subprocess
try:
    subprocess.run(['no-such-program-here'])
except FileNotFoundError as e:
    print('FileNotFoundError', e.errno == errno.ENOENT, e.strerror, e.filename)
r = subprocess.run('no-such-program-here', shell=True, capture_output=True, text=True)
print(r.returncode, 'not found' in r.stderr)
""",
    "bad_cwd": """
import subprocess
try:
    subprocess.run(['ls'], cwd='missing-dir')
except FileNotFoundError as e:
    print('FileNotFoundError', e.filename)
""",
    "os_system_status": """
import os, sys
sys.stdout.flush()
status = os.system('echo from-system; exit 2')
print(status, os.waitstatus_to_exitcode(status) if hasattr(os, 'waitstatus_to_exitcode') else status >> 8)
""",
    "os_popen_read_and_write": """
import os, sys
f = os.popen('echo x; echo y')
print(repr(f.read()), f.close())
f = os.popen('exit 3')
f.read()
print(f.close())
sys.stdout.flush()
w = os.popen('cat', 'w')
w.write('written\\n')
print(w.close())
""",
    "python_in_a_subprocess": """
import subprocess
r = subprocess.run(['python3', '-c', 'import sys; print(6 * 7); sys.exit(3)'],
                   capture_output=True, text=True)
print(repr(r.stdout), r.returncode)
""",
    "python_options": """
import subprocess
warn = "import warnings; warnings.warn('careful'); print('after')"
for args in (['-W', 'ignore', '-c', warn], ['-Wignore::UserWarning', '-c', warn],
             ['-W', 'error', '-c', warn], ['-c', warn], ['-R', '-uB', '-c', 'print(7)'],
             ['-X'], ['-W']):
    r = subprocess.run(['python3', *args], capture_output=True, text=True)
    print(args[:2], repr(r.stdout), r.returncode, 'careful' in r.stderr)
import os
os.makedirs('lib', exist_ok=True)
open('lib/helper.py', 'w').write('VALUE = 41 + 1\n')
env = {**os.environ, 'PYTHONPATH': 'lib'}
for args in (['-c', 'import helper; print(helper.VALUE)'], ['-I', '-c', 'import helper']):
    r = subprocess.run(['python3', *args], capture_output=True, text=True, env=env)
    print(repr(r.stdout), r.returncode, 'ModuleNotFoundError' in r.stderr)
""",
    "devnull": """
import contextlib, os, pathlib, subprocess
with open(os.devnull, 'w') as f, contextlib.redirect_stdout(f):
    print('hidden')
print('read', repr(open(os.devnull).read()), pathlib.Path(os.devnull).read_bytes())
with open(os.devnull, 'wb') as f:
    print('wrote', f.write(b'abc'), f.tell())
with open(os.devnull, 'w') as sink:
    r = subprocess.run(['echo', 'quiet'], stdout=sink, stderr=sink)
print('status', r.returncode)
try:
    open(os.devnull, 'x')
except FileExistsError as e:
    print('FileExistsError', e.filename)
from PIL import Image
Image.new('RGB', (4, 4)).save(os.devnull, format='PNG')
print('saved')
""",
    "tempfile_round_trips": """
import os, tempfile
print(tempfile.gettempdir())
with tempfile.NamedTemporaryFile('w+', suffix='.csv') as f:
    f.write('a,b\\n1,2\\n'); f.flush(); f.seek(0)
    print(f.read().splitlines(), f.name.endswith('.csv'), os.path.dirname(f.name) == tempfile.gettempdir())
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, 'x.txt')
    open(path, 'w').write('inside')
    print(open(path).read(), os.listdir(d))
print(os.path.exists(d))
fd, name = tempfile.mkstemp(text=True)
os.write(fd, b'mk'); os.close(fd)
print(open(name).read()); os.unlink(name)
with tempfile.TemporaryFile() as t:
    t.write(b'anon'); t.seek(0); print(t.read())
print(sorted(os.listdir('.')))
""",
    "thread_pool_map": """
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(max_workers=4) as ex:
    print(list(ex.map(lambda x: x * x, range(6))))
""",
    "futures_as_completed": """
import concurrent.futures as cf
def work(n):
    if n == 3:
        raise ValueError('three')
    return n * 10
with cf.ThreadPoolExecutor() as ex:
    futures = {ex.submit(work, n): n for n in range(5)}
    results = {}
    for f in cf.as_completed(futures):
        n = futures[f]
        results[n] = repr(f.exception()) if f.exception() else f.result()
print(sorted(results.items()))
""",
    "thread_and_join": """
import threading
results = []
lock = threading.Lock()
def worker(i):
    with lock:
        results.append(i * 2)
threads = [threading.Thread(target=worker, args=(i,)) for i in range(5)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results), any(t.is_alive() for t in threads))
""",
    "thread_subclass_and_local": """
import threading
class T(threading.Thread):
    def run(self):
        self.value = sum(range(100))
t = T()
t.start(); t.join()
print(t.value)
""",
    "multiprocessing_pool": """
import multiprocessing
def square(x):
    return x * x
if __name__ == '__main__':
    with multiprocessing.Pool(2) as pool:
        print(pool.map(square, range(5)))
        print(pool.starmap(pow, [(2, 3), (3, 2)]))
        print(pool.apply_async(square, (7,)).get())
""",
    "process_pool_executor": """
from concurrent.futures import ProcessPoolExecutor
def cube(x):
    return x ** 3
if __name__ == '__main__':
    with ProcessPoolExecutor(max_workers=2) as ex:
        print(list(ex.map(cube, range(4))))
""",
}


def _native(code: str, cwd: pathlib.Path) -> tuple[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        check=False,
    )
    return done.stdout, done.returncode


@pytest.mark.parametrize("name", sorted(SNIPPETS))
async def test_habit_behaves_as_natively(
    name: str, session: cove.Session, tmp_path: pathlib.Path
) -> None:
    code = SNIPPETS[name]
    native_dir = tmp_path / "native"  # tmp_path itself holds the pool's workspaces
    native_dir.mkdir()
    expected = _native(code, native_dir)
    result = await session.run_code(code)
    assert (result.stdout, result.return_code) == expected, result.stderr


NO_NETWORK = "network access is not available in this sandbox"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (
            "import socket\ntry:\n    socket.create_connection(('example.com', 80))\n"
            "except OSError as e:\n    print(e.strerror)",
            NO_NETWORK,
        ),
        (
            "import socket\ntry:\n    socket.getaddrinfo('example.com', 443)\n"
            "except OSError as e:\n    print(e.strerror)",
            NO_NETWORK,
        ),
        (
            "import urllib.request\ntry:\n    urllib.request.urlopen('https://example.com')\n"
            "except OSError as e:\n    print(type(e).__name__, e.reason.strerror)",
            f"URLError {NO_NETWORK}",
        ),
        (
            "import urllib.request\ntry:\n    urllib.request.urlopen('http://example.com/x')\n"
            "except OSError as e:\n    print(type(e).__name__, e.reason.strerror)",
            f"URLError {NO_NETWORK}",
        ),
        (
            "import http.client\ntry:\n    c = http.client.HTTPSConnection('example.com')\n"
            "    c.request('GET', '/')\nexcept OSError as e:\n    print(e.strerror)",
            NO_NETWORK,
        ),
        (
            # A conversation with a long-lived process: the command runs with the input written
            # before the first read, and a later write says why it cannot reach it.
            "import subprocess\n"
            "p = subprocess.Popen(['cat'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n"
            "p.stdin.write('first\\n')\np.stdin.flush()\nprint(p.stdout.readline().strip())\n"
            "try:\n    p.stdin.write('second\\n')\nexcept BrokenPipeError as e:\n    print(e)",
            "first\ncannot write to a command's input after reading its output: commands in this "
            "sandbox run to completion in one go (pass all input to communicate())",
        ),
        (
            "try:\n    import ctypes\nexcept ImportError as e:\n    print(e)",
            "ctypes is not available in this sandbox: code runs as WebAssembly, which cannot "
            "load native libraries",
        ),
        (
            # mmap maps by copying (WebAssembly has no memory mapping): a map that would write
            # back to the file says why not.
            "import mmap\nwith open('m.bin', 'wb') as f:\n    f.write(b'x')\n"
            "with open('m.bin', 'r+b') as f:\n    try:\n        mmap.mmap(f.fileno(), 0)\n"
            "    except OSError as e:\n        print(e)",
            "[Errno 58] writable memory maps of a descriptor are not available in this sandbox "
            "(WebAssembly has no memory mapping; maps are copies of the file): map it read-only "
            "or copy-on-write (access=mmap.ACCESS_READ or ACCESS_COPY), use np.memmap, or read "
            "and write the file itself",
        ),
    ],
)
async def test_what_cannot_work_says_why(session: cove.Session, code: str, expected: str) -> None:
    result = await session.run_code(code)
    assert result.stdout == expected + "\n", result.stderr


async def test_tmp_is_private_counted_and_gone_with_the_session(pool: cove.Pool) -> None:
    session = await pool.create_session()
    result = await session.run_code(
        "import os\nopen('/tmp/scratch.bin', 'wb').write(b'x' * 1000)\n"
        "print(os.listdir('/tmp'), os.listdir('/workspace'))"
    )
    assert result.stdout == "['scratch.bin'] []\n"
    assert result.files == ()
    assert await session.list_files() == []
    assert session.workspace.scan().bytes == 1000
    other = await pool.create_session()
    assert (await other.run_code("import os; print(os.listdir('/tmp'))")).stdout == "[]\n"
    tmp = session.workspace.tmp
    await pool.destroy_session(session.session_id)
    await session.aclose()
    assert not tmp.exists()
