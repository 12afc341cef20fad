"""The committed interpreter artifact: verified before loading, built from the tree's driver."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import pathlib
import shutil
import subprocess
import sys

import pytest

import cove
from tests.support.recipes import RECIPES, recipe_tools, versions

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACT = ROOT / "runtime" / "cove" / "_interpreter"


def _manifest_tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "cove_manifest", ROOT / "python-wasm" / "manifest.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_artifact_was_built_from_the_driver_sources_in_the_tree() -> None:
    manifest = json.loads((ARTIFACT / "manifest.json").read_text())
    assert manifest["driver_sha256"] == _manifest_tool().driver_sha256(), (
        "python-wasm/guest/ changed since the artifact was built: run python-wasm/build.sh"
    )


def test_artifact_was_trained_on_the_profile_inputs_in_the_tree() -> None:
    """CPython is compiled with the profile of python-wasm/pgo/'s training run (build.sh steps
    profrt and pgo): the manifest names each of those files by hash, and the profile."""
    manifest = json.loads((ARTIFACT / "manifest.json").read_text())
    assert manifest["pgo"]["training"] == _manifest_tool().pgo_inputs(), (
        "python-wasm/pgo/ changed since the artifact was built: run python-wasm/build.sh"
    )
    assert set(manifest["pgo"]["training"]) >= {"pgo/train.py", "pgo/run.py"}
    assert len(manifest["pgo"]["profile_sha256"]) == 64
    assert "compiler-rt-profile-other-bitmap.patch" in manifest["patches"]


def test_manifest_records_sources_toolchain_and_hashes() -> None:
    manifest = json.loads((ARTIFACT / "manifest.json").read_text())
    assert set(manifest["source_packages"]) >= {
        "python3.11",
        "zlib",
        "bzip2",
        "xz-utils",
        "sqlite3",
    }
    assert all(len(h) == 64 for h in manifest["source_sha256"].values())
    assert {"clang-19", "lld-19", "wasi-libc", "binaryen", "snapshot"} <= set(manifest["toolchain"])
    assert cove.Artifact().sha256 == manifest["artifacts"]["python.wasm"]


@pytest.mark.parametrize(
    "name",
    [
        "python.wasm.xz",
        "root/usr/lib/python311.zip.xz",
        "root/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf.xz",
    ],
)
def test_a_tampered_artifact_is_refused(tmp_path: pathlib.Path, name: str) -> None:
    copy = tmp_path / "artifact"
    shutil.copytree(ARTIFACT, copy)
    target = copy / name
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0xFF
    target.write_bytes(bytes(data))
    with pytest.raises(cove.ArtifactError, match="refusing to load"):
        cove.Artifact(copy, unpack_dir=tmp_path / "unpacked")


def test_the_artifact_is_unpacked_once_and_a_damaged_copy_replaced(
    tmp_path: pathlib.Path, caplog: pytest.LogCaptureFixture
) -> None:
    unpacked = tmp_path / "unpacked"
    with caplog.at_level(logging.INFO, logger="cove"):
        first = cove.Artifact(unpack_dir=unpacked)
    assert "unpacking the interpreter" in caplog.text
    assert first.wasm_path.is_relative_to(unpacked) and first.wasm_path.is_file()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="cove"):
        cove.Artifact(unpack_dir=unpacked)
    assert "unpacking" not in caplog.text
    # Someone with access to the directory changes the unpacked zip: it is not loaded as is.
    zip_path = first.root_dir / "usr" / "lib" / "python311.zip"
    zip_path.write_bytes(zip_path.read_bytes()[:-1] + b"\0")
    again = cove.Artifact(unpack_dir=unpacked)
    assert _sha256(zip_path) == again.manifest.artifacts["root/usr/lib/python311.zip"]
    # The guest's root: every file of the manifest, and the mount points of its own preopens.
    files = {
        f"root/{p.relative_to(again.root_dir).as_posix()}"
        for p in again.root_dir.rglob("*")
        if p.is_file()
    }
    assert files == set(again.manifest.artifacts) - {"python.wasm"}
    assert sorted(p.name for p in again.root_dir.iterdir()) == ["tmp", "usr", "workspace"]
    assert not any((again.root_dir / "workspace").iterdir())


@pytest.mark.parametrize("name", ["root/../../x", "lib/python311.zip", "root//x", "/etc/x"])
def test_a_manifest_naming_a_file_outside_the_artifact_is_refused(
    tmp_path: pathlib.Path, name: str
) -> None:
    copy = tmp_path / "artifact"
    shutil.copytree(ARTIFACT, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["artifacts"][name] = "0" * 64
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(cove.ArtifactError, match="outside the artifact"):
        cove.Artifact(copy, unpack_dir=tmp_path / "unpacked")


def _sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_missing_artifact_is_a_clear_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(cove.ArtifactError, match="manifest"):
        cove.Artifact(tmp_path)


def test_manifest_records_the_built_packages_and_every_pinned_input_of_their_build() -> None:
    # The committed artifact was built from the recipes in the tree, with their pins.
    manifest = json.loads((ARTIFACT / "manifest.json").read_text())
    built = manifest["built_packages"]
    assert {n: (p["version"], p["sdist_sha256"], p["license"]) for n, p in built.items()} == {
        r.name: (r.version, r.sdist_sha256, r.license) for r in RECIPES.values() if not r.library
    }
    libraries = manifest["built_libraries"]
    assert libraries == {
        r.name: (
            {
                "version": r.version,
                "debian_source": r.debian,
                "dsc_sha256": r.sdist_sha256,
                "license": r.license,
            }
            if r.debian
            else {
                "version": r.version,
                "pypi_sdist": r.sdist,
                "sdist_sha256": r.sdist_sha256,
                "tree": r.tree,
                "license": r.license,
            }
        )
        for r in RECIPES.values()
        if r.library
    }
    inputs = manifest["built_packages_inputs"]
    for recipe in RECIPES.values():
        assert inputs[recipe.sdist] == recipe.sdist_sha256
    pins = versions()
    assert pins["build-tools"].items() <= inputs.items()
    own = recipe_tools()  # a recipe's own build tools ([recipe-build-tools.<name>])
    for tools in own.values():
        assert tools.items() <= inputs.items()
    assert set(inputs) == {
        *pins["build-tools"],
        *(wheel for tools in own.values() for wheel in tools),
        *(r.sdist for r in RECIPES.values()),
    }
    assert sorted(p for p in manifest["patches"] if p.startswith("recipes/")) == sorted(
        f"recipes/{r.name}/patches/{p.name}" for r in RECIPES.values() for p in r.patches
    )


@pytest.mark.slow
def test_a_first_compile_leaves_only_what_runs_in_memory(tmp_path: pathlib.Path) -> None:
    # Compiling the interpreter takes some 600 MiB of heap; a process that kept it (glibc
    # does, untrimmed) or kept the compiled code in its heap would carry it for its life.
    code = (
        "import sys, wasmtime, cove\n"
        "artifact = cove.Artifact(unpack_dir=sys.argv[1])\n"
        "module = artifact.compile(wasmtime.Engine(), 'test', sys.argv[1])\n"
        "pss = [l for l in open('/proc/self/smaps_rollup') if l.startswith('Pss:')][0]\n"
        "print(int(pss.split()[1]) // 1024)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert list(tmp_path.glob("python-*.cwasm")), done.stderr
    assert int(done.stdout) < 200, f"{done.stdout.strip()} MiB after compiling"
