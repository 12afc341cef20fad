"""The interpreter artifact: locating it, verifying it against its manifest, compiling it once.

The artifact is a directory holding `python.wasm` (the pre-initialised reactor), `lib/` (the
stdlib archive the guest sees as /usr/lib) and `manifest.json` (sha256 of each). Nothing is
loaded before its hash matches. Compiling the 10 MB module takes seconds, so the compiled code is
cached on disk, keyed by wasmtime's version, the artifact's hash and the engine configuration: a
warm start deserialises it in milliseconds.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pathlib
import tempfile

import msgspec
import wasmtime

from ._errors import ArtifactError

__all__ = ["Artifact"]

_PACKAGED = pathlib.Path(__file__).resolve().parent / "_interpreter"
_FILES = ("python.wasm", "lib/python311.zip")


class _Manifest(msgspec.Struct, frozen=True):
    artifacts: dict[str, str]
    driver_sha256: str
    preopens: list[str]


def _sha256(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class Artifact:
    """A verified interpreter artifact on disk."""

    PREOPENS = ("/usr/lib", "/workspace", "/tmp")
    """The guest directories the snapshot was made with, in preopen (fd) order."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        """Verify the artifact in `directory` (default: the one shipped with Cove).

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
        for name in _FILES:
            path = self.directory / name
            expected = self.manifest.artifacts.get(name)
            if expected is None:
                raise ArtifactError(f"{manifest_path} lists no hash for {name}")
            try:
                actual = _sha256(path)
            except OSError as exc:
                raise ArtifactError(f"cannot read interpreter file {path}: {exc}") from exc
            if actual != expected:
                raise ArtifactError(
                    f"{path} has sha256 {actual}, but the manifest says {expected}: the artifact "
                    "is corrupt or was replaced; refusing to load it"
                )
        self.wasm_path: pathlib.Path = self.directory / "python.wasm"
        self.stdlib_dir: pathlib.Path = self.directory / "lib"
        self.sha256: str = self.manifest.artifacts["python.wasm"]

    def compile(
        self, engine: wasmtime.Engine, engine_key: str, cache_dir: str | None
    ) -> wasmtime.Module:
        """The compiled module, from the disk cache when it holds a matching entry.

        Blocking (compiles for seconds on a cold cache); call it from a worker thread.
        """
        if cache_dir is None:
            return wasmtime.Module(engine, self.wasm_path.read_bytes())
        version = importlib.metadata.version("wasmtime")
        key = hashlib.sha256(f"{version}\0{self.sha256}\0{engine_key}".encode()).hexdigest()[:32]
        cache = pathlib.Path(cache_dir)
        entry = cache / f"python-{key}.cwasm"
        if entry.is_file():
            try:
                return wasmtime.Module.deserialize_file(engine, str(entry))
            except wasmtime.WasmtimeError:
                entry.unlink(missing_ok=True)  # stale or damaged: compile afresh below
        module = wasmtime.Module(engine, self.wasm_path.read_bytes())
        cache.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache, prefix=".tmp-", suffix=".cwasm")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(module.serialize())
            os.replace(tmp, entry)
        except OSError:
            pathlib.Path(tmp).unlink(missing_ok=True)
        return module
