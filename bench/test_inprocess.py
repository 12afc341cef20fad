"""In-process benchmarks through the public async API (pytest-benchmark).

.venv/bin/python -m pytest bench --benchmark-enable -p no:randomly
"""

from __future__ import annotations

import pytest

import cove

from .conftest import Loop


def test_create_session(benchmark: pytest.FixtureRequest, loop: Loop, pool: cove.Pool) -> None:
    sessions: list[cove.Session] = []

    def create() -> None:
        sessions.append(loop.run(lambda: pool.create_session()))

    benchmark.pedantic(create, rounds=300, iterations=1, warmup_rounds=5)  # type: ignore[attr-defined]
    for s in sessions:
        loop.run(lambda s=s: pool.destroy_session(s.session_id))


def test_create_to_first_call(
    benchmark: pytest.FixtureRequest, loop: Loop, pool: cove.Pool
) -> None:
    ids: list[str] = []

    async def create_and_call() -> None:
        session = await pool.create_session()
        ids.append(session.session_id)
        await session.run_code("pass")

    benchmark.pedantic(lambda: loop.run(create_and_call), rounds=300, iterations=1, warmup_rounds=5)  # type: ignore[attr-defined]
    for sid in ids:
        loop.run(lambda sid=sid: pool.destroy_session(sid))


@pytest.fixture(scope="module")
def session(loop: Loop, pool: cove.Pool) -> cove.Session:
    s: cove.Session = loop.run(lambda: pool.create_session())
    loop.run(lambda: s.run_code("pass"))
    return s


def test_trivial_call(benchmark: pytest.FixtureRequest, loop: Loop, session: cove.Session) -> None:
    benchmark.pedantic(
        lambda: loop.run(lambda: session.run_code("pass")),
        rounds=2000,
        iterations=1,
        warmup_rounds=20,
    )  # type: ignore[attr-defined]


def test_print(benchmark: pytest.FixtureRequest, loop: Loop, session: cove.Session) -> None:
    benchmark.pedantic(
        lambda: loop.run(lambda: session.run_code("print('hello world')")),
        rounds=2000,
        iterations=1,
        warmup_rounds=20,
    )  # type: ignore[attr-defined]


def test_text_editor_view(
    benchmark: pytest.FixtureRequest, loop: Loop, session: cove.Session
) -> None:
    loop.run(lambda: session.write_file("notes.txt", b"line\n" * 50))
    call = cove.tools.TextEditor(input=cove.tools.TextEditorInput(command="view", path="notes.txt"))
    benchmark.pedantic(
        lambda: loop.run(lambda: session.execute(call)), rounds=1000, iterations=1, warmup_rounds=10
    )  # type: ignore[attr-defined]


def test_file_put(benchmark: pytest.FixtureRequest, loop: Loop, session: cove.Session) -> None:
    data = b"x" * 4096
    benchmark.pedantic(
        lambda: loop.run(lambda: session.write_file("put.bin", data)),
        rounds=1000,
        iterations=1,
        warmup_rounds=10,
    )  # type: ignore[attr-defined]


def test_file_get(benchmark: pytest.FixtureRequest, loop: Loop, session: cove.Session) -> None:
    loop.run(lambda: session.write_file("get.bin", b"y" * 4096))
    benchmark.pedantic(
        lambda: loop.run(lambda: session.read_file("get.bin")),
        rounds=1000,
        iterations=1,
        warmup_rounds=10,
    )  # type: ignore[attr-defined]
