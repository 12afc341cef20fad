"""The interpreter artifact: locating it, verifying it against its manifest, compiling it once.

The artifact is a directory holding `python.wasm` (the pre-initialised reactor), `root/` (the
guest's read-only file tree, preopened as its `/`: the stdlib archive `usr/lib/python311.zip`,
the fonts under `usr/share/fonts`, their licences under `usr/share/doc`) and `manifest.json`
(sha256 of each file). The one shipped with Cove is committed compressed (each file as
`NAME.xz`): the first start unpacks it once into a directory of its own under the cache
directory (or the system's temporary directory), named by its hash, and logs that it does.
Nothing is loaded before its hash matches the manifest — an unpacked copy is checked every
time, and replaced if it differs. Compiling the module takes seconds, so the compiled code is
cached on disk too, keyed by wasmtime's version, the artifact's hash and the engine
configuration: a warm start deserialises it in milliseconds."""

from __future__ import annotations

import hashlib
import importlib.metadata
import logging
import lzma
import os
import pathlib
import shutil
import tempfile

import msgspec
import wasmtime

from ._errors import ArtifactError
from ._linux import malloc_trim

__all__ = ["Artifact", "declared_memory_bytes"]

_log = logging.getLogger("cove")

_PACKAGED = pathlib.Path(__file__).resolve().parent / "_interpreter"
_REQUIRED = ("python.wasm", "root/usr/lib/python311.zip")


class _Manifest(msgspec.Struct, frozen=True):
    artifacts: dict[str, str]
    driver_sha256: str
    preopens: list[str]


def _sha256(path: pathlib.Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


class Artifact:
    """A verified interpreter artifact on disk."""

    PREOPENS = ("/", "/workspace", "/tmp")
    """The guest directories the snapshot was made with, in preopen (fd) order: the read-only
    root (the artifact's `root/`), then the session's two writable directories. wasi-libc
    resolves an absolute path by its longest matching preopen, so /workspace and /tmp are the
    session's, and every other path is in the root."""

    def __init__(
        self,
        directory: str | os.PathLike[str] | None = None,
        *,
        unpack_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        """Verify the artifact in `directory` (default: the one shipped with Cove).

        A compressed artifact (`*.xz` beside `manifest.json`) is unpacked once into
        `unpack_dir` (default: the system's temporary directory), in a subdirectory named by
        its hash. Blocking (seconds, the first time); call it from a worker thread.

        Raises:
            ArtifactError: a file is missing, or a hash does not match the manifest.
        """
        self.directory: pathlib.Path = pathlib.Path(directory) if directory else _PACKAGED
        manifest_path = self.directory / "manifest.json"
        try:
            self.manifest: _Manifest = msgspec.json.decode(
                manifest_path.read_bytes(), type=_Manifest
            )
        except (OSError, msgspec.DecodeError) as exc:
            raise ArtifactError(
                f"cannot read the interpreter manifest {manifest_path}: {exc}"
            ) from exc
        if self.manifest.preopens != list(self.PREOPENS):
            raise ArtifactError(f"unexpected preopens in {manifest_path}: {self.manifest.preopens}")
        for name in _REQUIRED:
            if self.manifest.artifacts.get(name) is None:
                raise ArtifactError(f"{manifest_path} lists no hash for {name}")
        for name in self.manifest.artifacts:
            parts = name.split("/")
            if name != "python.wasm" and (
                parts[0] != "root" or len(parts) < 2 or {"", ".", ".."} & set(parts)
            ):
                raise ArtifactError(f"{manifest_path} lists a file outside the artifact: {name!r}")
        self._files = sorted(self.manifest.artifacts)
        self.sha256: str = self.manifest.artifacts["python.wasm"]
        if all((self.directory / name).exists() for name in self._files):
            root = self.directory
        else:
            base = pathlib.Path(unpack_dir) if unpack_dir else _default_unpack_dir()
            root = base / f"interpreter-{self.sha256[:24]}"
            if not self._matches(root):
                self._unpack(root)
        for name in self._files:
            self._verify(root / name, self.manifest.artifacts[name])
        self.files_dir: pathlib.Path = root
        self.wasm_path: pathlib.Path = root / "python.wasm"
        self.root_dir: pathlib.Path = root / "root"
        """The guest's `/`: preopened read-only (`Artifact.PREOPENS`)."""
        try:
            _mount_points(self.root_dir)
        except OSError as exc:
            raise ArtifactError(f"cannot make the guest's mount points in {root}: {exc}") from exc

    def _verify(self, path: pathlib.Path, expected: str) -> None:
        try:
            actual = _sha256(path)
        except OSError as exc:
            raise ArtifactError(f"cannot read interpreter file {path}: {exc}") from exc
        if actual != expected:
            raise ArtifactError(
                f"{path} has sha256 {actual}, but the manifest says {expected}: the artifact "
                "is corrupt or was replaced; refusing to load it"
            )

    def _matches(self, root: pathlib.Path) -> bool:
        try:
            expected = self.manifest.artifacts
            return all(_sha256(root / name) == expected[name] for name in self._files)
        except OSError:
            return False

    def _unpack(self, root: pathlib.Path) -> None:
        _log.info("unpacking the interpreter (once per artifact) into %s", root)
        root.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        staging = pathlib.Path(tempfile.mkdtemp(dir=root.parent, prefix=".unpack-"))
        try:
            for name in self._files:
                source = self.directory / f"{name}.xz"
                target = staging / name
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    with lzma.open(source) as packed, target.open("wb") as out:
                        shutil.copyfileobj(packed, out, 1 << 20)
                except (OSError, lzma.LZMAError, EOFError) as exc:
                    raise ArtifactError(
                        f"cannot unpack interpreter file {source}: {exc}; the artifact is "
                        "missing or corrupt, refusing to load it"
                    ) from exc
                self._verify(target, self.manifest.artifacts[name])
            shutil.rmtree(root, ignore_errors=True)  # a stale or damaged copy
            os.replace(staging, root)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def compile(
        self, engine: wasmtime.Engine, engine_key: str, cache_dir: str | None
    ) -> wasmtime.Module:
        """The compiled module, from the disk cache when it holds a matching entry.

        Blocking (compiles for minutes on a cold cache); call it from a worker thread.
        """
        if cache_dir is not None:
            entry, loaded = self.compile_entry(engine, engine_key, cache_dir)
            if loaded is not None:
                return loaded
            try:
                return wasmtime.Module.deserialize_file(engine, str(entry))
            except wasmtime.WasmtimeError as exc:
                # Just written, and still refused: compiled here instead, saying why.
                _log.warning("the compiled interpreter %s cannot be loaded: %s", entry, exc)
        module = wasmtime.Module.from_file(engine, str(self.wasm_path))  # pyright: ignore[reportUnknownMemberType]
        trim_heap()
        return module

    def compile_entry(
        self, engine: wasmtime.Engine, engine_key: str, cache_dir: str
    ) -> tuple[pathlib.Path, wasmtime.Module | None]:
        """The cache entry for `engine`, compiled now unless one that `engine` loads is there:
        its path, and the module loaded from it if it was there (None: compiled now). The
        compiled code is serialised into the entry and the heap it took handed back (the
        process then maps the entry's pages, rather than keep ~120 MiB of code in its heap)."""
        version = importlib.metadata.version("wasmtime")
        key = hashlib.sha256(f"{version}\0{self.sha256}\0{engine_key}".encode()).hexdigest()[:32]
        cache = pathlib.Path(cache_dir)
        entry = cache / f"python-{key}.cwasm"
        if entry.is_file():
            try:
                return entry, wasmtime.Module.deserialize_file(engine, str(entry))
            except wasmtime.WasmtimeError as exc:
                # Compiled for another CPU, or damaged: compile afresh below, saying why.
                _log.warning("the compiled interpreter %s cannot be used here: %s", entry, exc)
                entry.unlink(missing_ok=True)
        _log.info(
            "compiling the interpreter (once per artifact and wasmtime version) into %s", entry
        )
        module = wasmtime.Module.from_file(engine, str(self.wasm_path))  # pyright: ignore[reportUnknownMemberType]
        compiled = module.serialize()
        del module
        trim_heap()
        cache.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache, prefix=".tmp-", suffix=".cwasm")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(compiled)
            os.replace(tmp, entry)
        except OSError as exc:
            pathlib.Path(tmp).unlink(missing_ok=True)
            raise ArtifactError(f"cannot write the compiled interpreter to {entry}: {exc}") from exc
        finally:
            del compiled
            trim_heap()
        return entry, None


def _mount_points(root: pathlib.Path) -> None:
    """The directories the session's own preopens stand over (/workspace, /tmp), empty and
    read-only like the rest of the root: what `os.listdir("/")` shows. wasi-libc sends every
    path under them to the session's directories, never here."""
    for guest in Artifact.PREOPENS[1:]:
        (root / guest.lstrip("/")).mkdir(parents=True, exist_ok=True)


def _leb(data: bytes, i: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i


_MEMORY_SECTION = 5


def declared_memory_bytes(directory: str | os.PathLike[str] | None = None) -> int | None:
    """The linear memory the interpreter starts with (its snapshot's), as its module declares
    it: read from the first sections of `python.wasm` (or of `python.wasm.xz`, decompressing
    only them) in `directory` (default: the one shipped with Cove), without verifying,
    unpacking or compiling anything. None if it cannot be read."""
    root = pathlib.Path(directory) if directory else _PACKAGED
    try:
        if (root / "python.wasm").exists():
            with (root / "python.wasm").open("rb") as f:
                head = f.read(1 << 20)
        else:
            with lzma.open(root / "python.wasm.xz") as packed:
                head = packed.read(1 << 20)
        if head[:4] != b"\0asm":
            return None
        i = 8
        while i < len(head):
            section = head[i]
            size, body = _leb(head, i + 1)
            if section == _MEMORY_SECTION:
                count, j = _leb(head, body)
                if count < 1:
                    return None
                minimum, _ = _leb(head, j + 1)  # past the limits' flags
                return minimum * 65536
            if section > _MEMORY_SECTION:
                return None
            i = body + size
    except (OSError, lzma.LZMAError, EOFError, IndexError):
        return None
    return None


def trim_heap() -> None:
    """Hands freed heap memory back to the system: glibc's malloc keeps it (some 600 MiB after
    compiling the interpreter; what suspended sessions' worker threads used) for the life of
    the process otherwise."""
    malloc_trim()


def _default_unpack_dir() -> pathlib.Path:
    return pathlib.Path(tempfile.gettempdir()) / f"cove-{os.getuid()}"
