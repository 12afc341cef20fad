"""The settings table: environment, flags and overrides resolve to the same settings."""

from __future__ import annotations

import pathlib
import re

import pytest

import cove
from cove_server import ServerSettings
from cove_server._cli import serve_settings
from cove_server._settings import SETTINGS, Setting
from tests.support.servers import start_server


def _resolved(settings: ServerSettings, setting: Setting) -> object:
    target: object = {
        "server": settings,
        "pool": settings.pool,
        "limits": settings.pool.defaults,
        "ceilings": settings.pool.ceilings,
    }[setting.target]
    return getattr(target, setting.field)


def test_every_setting_names_a_real_field_once() -> None:
    assert len({s.env for s in SETTINGS}) == len(SETTINGS)
    assert len({(s.target, s.field) for s in SETTINGS}) == len(SETTINGS)
    defaults = ServerSettings.resolve({})
    for setting in SETTINGS:
        _resolved(defaults, setting)  # AttributeError if the field does not exist


@pytest.mark.parametrize(
    "setting", [s for s in SETTINGS if re.fullmatch(r"`[^`]+`", s.default_doc)], ids=str
)
def test_documented_default_is_the_real_default(setting: Setting) -> None:
    documented = setting.parse(setting.default_doc.strip("`"))
    assert _resolved(ServerSettings.resolve({"HOME": "/home/x"}), setting) == documented


def test_environment_values_reach_their_fields() -> None:
    s = ServerSettings.resolve(
        {"PORT": "9000", "COVE_MEMORY_MB": "4096", "COVE_TIMEOUT_S": "5", "COVE_TOKEN": "t"}
    )
    assert (s.port, s.token) == (9000, "t")
    assert s.pool.defaults.memory_bytes == 4096 * cove.MiB
    assert s.pool.ceilings.memory_bytes >= 4096 * cove.MiB
    assert s.pool.defaults.timeout_s == 5
    assert ServerSettings.resolve({"COVE_MAX_OUTPUT_KB": "2"}).pool.defaults.max_output_bytes == (
        2 * cove.KiB
    )
    assert ServerSettings.resolve({"COVE_PORT": "1", "PORT": "2"}).port == 1


@pytest.mark.parametrize(
    ("environ", "name"),
    [
        ({"COVE_MAX_SESSIONS": "many"}, "COVE_MAX_SESSIONS"),
        ({"COVE_CONSUME_FUEL": "maybe"}, "COVE_CONSUME_FUEL"),
        ({"PORT": "x"}, "PORT"),
    ],
)
def test_a_bad_value_names_its_variable(environ: dict[str, str], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        ServerSettings.resolve(environ)


def test_the_cache_directory_default_is_resolved_in_the_settings(tmp_path: pathlib.Path) -> None:
    xdg = ServerSettings.resolve({"XDG_CACHE_HOME": str(tmp_path)})
    assert xdg.pool.cache_dir == str(tmp_path / "cove")
    home = ServerSettings.resolve({})
    assert home.pool.cache_dir == str(pathlib.Path.home() / ".cache" / "cove")
    assert ServerSettings.resolve({"COVE_CACHE_DIR": "/c"}).pool.cache_dir == "/c"


def test_typed_overrides_win_over_the_environment() -> None:
    s = ServerSettings.resolve({"COVE_PORT": "1", "COVE_TIMEOUT_S": "5"}, {"COVE_PORT": 2})
    assert (s.port, s.pool.defaults.timeout_s) == (2, 5)
    with pytest.raises(ValueError, match="COVE_NOPE"):
        ServerSettings.resolve({}, {"COVE_NOPE": 1})


def test_serve_flags_are_generated_from_the_table_and_override_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    for setting in SETTINGS:
        monkeypatch.delenv(setting.env, raising=False)
    monkeypatch.setenv("COVE_PORT", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    s = serve_settings(["serve", "--port", "9000", "--timeout", "7", "--max-sessions", "3"])
    assert (s.port, s.pool.defaults.timeout_s, s.pool.max_sessions) == (9000, 7.0, 3)
    # The same default as create_app() gets from ServerSettings.resolve().
    assert s.pool.cache_dir == str(tmp_path / "cove")


def test_a_bad_flag_value_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        serve_settings(["serve", "--port", "-1"])
    assert exit_info.value.code == 2
    assert "--port" in capsys.readouterr().err


def test_token_env_must_name_a_set_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_TOKEN", "secret")
    monkeypatch.delenv("MY_MISSING", raising=False)
    assert serve_settings(["serve", "--token-env", "MY_TOKEN"]).token == "secret"
    with pytest.raises(SystemExit):
        serve_settings(["serve", "--token-env", "MY_MISSING"])


def test_a_memory_limit_below_the_interpreters_start_stops_the_server_saying_why(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    with pytest.raises(RuntimeError, match=r"the default memory limit, 16 MiB, is below the"):
        start_server(tmp_path, cache_dir, COVE_MEMORY_MB="16")
