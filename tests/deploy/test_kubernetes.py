"""The Kubernetes manifests (deploy/kubernetes) and the Dockerfile, checked offline.

No cluster, kubectl or kustomize: the Kustomize base is read as kustomize would read it (its
resources, and the ConfigMap its generator makes from haproxy.cfg), every object is validated
against the Kubernetes API schema (kubernetes-validate, strict: an unknown field fails), and the
manifests are held to the code: every `COVE_*` variable is a real setting and the values parse,
the probes, ports, volumes, Secret and selectors agree, the resources cover docs/deploy.md's
memory and disk formulas for the settings given, and the Dockerfile installs with README's
command.
"""

from __future__ import annotations

import functools
import importlib
import pathlib
import re
import shlex
from collections.abc import Callable
from typing import Any, cast

import pytest

from cove_server._settings import SETTINGS, ServerSettings

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "kubernetes"
# The Kubernetes version the objects are validated against (a schema kubernetes-validate ships).
KUBERNETES_VERSION = "1.31"
MiB = 1 << 20

Obj = dict[str, Any]


def _yaml_documents(text: str) -> list[Obj]:
    yaml = importlib.import_module("yaml")  # PyYAML ships no type information
    docs = cast(list[Obj | None], list(yaml.safe_load_all(text)))
    return [doc for doc in docs if doc is not None]


def _validate(obj: Obj) -> None:
    """Validate `obj` against the API schema: raises kubernetes_validate's ValidationError."""
    module = importlib.import_module("kubernetes_validate")  # untyped
    validate = cast(Callable[..., str], module.validate)
    validate(obj, KUBERNETES_VERSION, strict=True)


@functools.cache
def _kustomization() -> Obj:
    (doc,) = _yaml_documents((DEPLOY / "kustomization.yaml").read_text())
    return doc


@functools.cache
def _resources() -> tuple[Obj, ...]:
    """Every object the kustomization's `resources` list, in order."""
    objects: list[Obj] = []
    for name in _kustomization()["resources"]:
        objects += _yaml_documents((DEPLOY / name).read_text())
    return tuple(objects)


def _generator() -> Obj:
    generators = cast(list[Obj], _kustomization()["configMapGenerator"])
    (generator,) = [g for g in generators if g["name"] == "cove-router"]
    return generator


def _generated_configmap() -> Obj:
    """The ConfigMap `configMapGenerator` makes, as kustomize makes it (less the hash suffix
    of its name, which kustomize also writes into every reference to it); skips the test while
    one of its files is not rendered yet."""
    generator = _generator()
    data: dict[str, str] = {}
    for entry in generator["files"]:
        key, _, source = str(entry).rpartition("=")  # `key=path`, or the file's own name
        path = DEPLOY / source
        if not path.exists():
            pytest.skip(f"{path.relative_to(ROOT)} is not rendered yet")
        data[key or path.name] = path.read_text()
    metadata: Obj = {"name": generator["name"]}
    labels = generator.get("options", {}).get("labels")
    if labels:
        metadata["labels"] = labels
    namespace = _kustomization().get("namespace")
    if namespace:
        metadata["namespace"] = namespace
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": data}


def _one(kind: str, name: str) -> Obj:
    found = [o for o in _resources() if o["kind"] == kind and o["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind} {name}, found {len(found)}"
    return found[0]


def _statefulset() -> Obj:
    return _one("StatefulSet", "cove")


def _container(workload: Obj, name: str) -> Obj:
    (container,) = [
        c for c in workload["spec"]["template"]["spec"]["containers"] if c["name"] == name
    ]
    return cast(Obj, container)


def _env(container: Obj) -> dict[str, Obj]:
    entries = cast(list[Obj], container.get("env", []))
    names = [e["name"] for e in entries]
    assert len(set(names)) == len(names), f"a variable is set twice: {names}"
    return {e["name"]: e for e in entries}


def _literal(name: str) -> str:
    """The value the StatefulSet gives `name` (a literal, not a reference)."""
    entry = _env(_container(_statefulset(), "cove")).get(name)
    assert entry is not None, f"the StatefulSet does not set {name}"
    assert "value" in entry, f"{name} is not a literal value"
    return str(entry["value"])


def _parsed(name: str) -> Any:
    """The StatefulSet's value of `name`, parsed by its settings row as Cove parses it."""
    (setting,) = [s for s in SETTINGS if s.env == name]
    return setting.parse(_literal(name))


def _quantity(text: str | int) -> float:
    """A Kubernetes quantity in base units (bytes, cores)."""
    match = re.fullmatch(r"([0-9.]+)([a-zA-Z]*)", str(text))
    assert match, f"not a quantity: {text!r}"
    number, suffix = float(match[1]), match[2]
    scale = {
        "": 1,
        "m": 1e-3,
        "k": 1e3,
        "M": 1e6,
        "G": 1e9,
        "T": 1e12,
        "Ki": 1 << 10,
        "Mi": 1 << 20,
        "Gi": 1 << 30,
        "Ti": 1 << 40,
    }
    return number * scale[suffix]


def _probe_port(container: Obj, action: Obj) -> int:
    """The port number a probe's action names (by number, or by the container port's name)."""
    port = action["port"]
    if isinstance(port, str):
        (port,) = [p["containerPort"] for p in container["ports"] if p.get("name") == port]
    return int(port)


def _probe_path(container: Obj, probe: str) -> tuple[str, int]:
    """The path and port number of one of `container`'s HTTP probes."""
    get = container[probe]["httpGet"]
    return get["path"], _probe_port(container, get)


def _selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


# -- Kustomize and the API schema ------------------------------------------------------------


def test_the_kustomization_lists_every_manifest_and_generates_the_router_config() -> None:
    kustomization = _kustomization()
    listed = set(kustomization["resources"])
    assert listed == {p.name for p in DEPLOY.glob("*.yaml")} - {"kustomization.yaml"}
    generator = _generator()
    assert generator["files"] == ["haproxy.cfg"]
    # The hash suffix (kustomize's default) is what rolls the router when its config changes.
    assert kustomization.get("generatorOptions", {}).get("disableNameSuffixHash", False) is False


def test_every_listed_object_validates_against_the_kubernetes_schema() -> None:
    assert _resources()
    for obj in _resources():
        try:
            _validate(obj)
        except Exception as exc:
            where = ".".join(str(p) for p in getattr(exc, "path", ()))
            message = getattr(exc, "message", exc)
            pytest.fail(f"{obj['kind']} {obj['metadata']['name']}: {where}: {message}")


def test_the_generated_configmap_validates_against_the_kubernetes_schema() -> None:
    configmap = _generated_configmap()
    _validate(configmap)
    assert configmap["data"]["haproxy.cfg"].strip()


def test_the_schema_check_can_fail() -> None:
    service: Obj = {**_one("Service", "cove"), "spce": {}}
    with pytest.raises(Exception, match="spce"):
        _validate(service)


# -- The StatefulSet against the settings ----------------------------------------------------


def test_every_cove_variable_in_the_statefulset_is_a_setting() -> None:
    known = {s.env for s in SETTINGS}
    given = {n for n in _env(_container(_statefulset(), "cove")) if n.startswith("COVE_")}
    assert given, "the StatefulSet sets no COVE_* variable"
    assert given - known == set(), "not settings (server/cove_server/_settings.py's SETTINGS)"
    # The ones the deployment depends on, besides the literal ones the tests below read.
    assert {"COVE_TOKEN", "COVE_REPLICA", "COVE_DRAIN_S", "COVE_PERSIST_SESSIONS"} <= given


def test_the_statefulset_environment_resolves_to_valid_settings() -> None:
    container = _container(_statefulset(), "cove")
    environ: dict[str, str] = {}
    for name, entry in _env(container).items():
        if "value" in entry:
            environ[name] = str(entry["value"])
        elif "fieldRef" in entry.get("valueFrom", {}):
            assert entry["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name", name
            environ[name] = "cove-0"  # a StatefulSet pod's name
        elif "secretKeyRef" in entry.get("valueFrom", {}):
            environ[name] = "a-token"
        else:
            pytest.fail(f"{name}: neither a value nor a known reference")
    assert environ["COVE_REPLICA"] == "cove-0", "COVE_REPLICA must be the pod's name"
    settings = ServerSettings.resolve(environ)  # ValueError names a variable that does not parse
    assert settings.host == "0.0.0.0"
    assert settings.token == "a-token"
    assert settings.pool.persist_sessions
    assert settings.pool.workspace_root == "/var/lib/cove"
    assert _parsed("COVE_DRAIN_S") > 0


# -- The Dockerfile --------------------------------------------------------------------------


def _readme_install() -> str:
    """README's command that installs the server, without its `&& .venv/bin/cove serve`."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert block, "README.md has no ```sh block"
    lines = block[1].splitlines()
    (at,) = [i for i, line in enumerate(lines) if line.startswith("# Install and start the server")]
    command, sep, _ = lines[at + 1].partition("&& .venv/bin/cove serve")
    assert sep, f"README's install line does not end by starting the server: {lines[at + 1]!r}"
    return command.strip()


def _dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined: (INSTRUCTION, arguments)."""
    text = (ROOT / "Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    instructions: list[tuple[str, str]] = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            instructions.append((keyword.upper(), " ".join(rest.split())))
    return instructions


def _docker_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in _dockerfile():
        if keyword == "ENV":
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                env[key] = value
    return env


def test_the_dockerfile_installs_with_the_readme_command() -> None:
    install = " ".join(_readme_install().split())
    assert "pip install" in install, install
    steps = _dockerfile()
    assert steps[0] == ("FROM", "python:3.11-slim-bookworm")
    runs = [rest for keyword, rest in steps if keyword == "RUN"]
    installing = [
        i for i, (keyword, rest) in enumerate(steps) if keyword == "RUN" and install in rest
    ]
    assert installing, f"no RUN line runs README's install command {install!r}"
    assert steps.index(("WORKDIR", "/app")) < installing[0]
    assert steps.index(("COPY", ". /app")) < installing[0]
    compiling = [r for r in runs if "COVE_CACHE_DIR=/app/.cove-cache .venv/bin/cove compile" in r]
    assert compiling, "the interpreter is not compiled at build time"
    # `cove compile` writes its cache private to root; the user that serves must read it.
    assert "chmod -R a+rX /app/.cove-cache" in compiling[0]


def test_the_dockerfile_serves_from_the_baked_cache_as_the_statefulset_runs_it() -> None:
    steps = _dockerfile()
    env = _docker_env()
    assert env["COVE_CACHE_DIR"] == "/app/.cove-cache" == _literal("COVE_CACHE_DIR")
    assert env["COVE_HOST"] == "0.0.0.0"
    (user,) = [rest for keyword, rest in steps if keyword == "USER"]
    uid = user.partition(":")[0]
    assert uid.isdigit() and int(uid) != 0, "USER must be a non-root uid, by number"
    assert int(uid) == _statefulset()["spec"]["template"]["spec"]["securityContext"]["runAsUser"]
    assert ("EXPOSE", "8080") in steps
    assert steps[-1] == ("CMD", '[".venv/bin/cove", "serve"]')
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".venv", ".git", ".cove-cache"} <= ignored
    assert not ignored & {"runtime", "server", "pyproject.toml", "README.md"}


# -- The objects agree with one another ------------------------------------------------------


def test_the_probes_ports_and_volume_agree_with_the_settings() -> None:
    statefulset = _statefulset()
    container = _container(statefulset, "cove")
    port = int(_literal("COVE_PORT"))
    # /health, not /ready: a replica full of sessions still serves them (a rollout must not
    # wait for them to expire); the router places new sessions by /ready itself.
    assert _probe_path(container, "readinessProbe") == ("/health", port)
    assert _probe_path(container, "livenessProbe") == ("/health", port)
    assert _probe_path(container, "startupProbe") == ("/health", port)
    assert [p["containerPort"] for p in container["ports"]] == [port]
    (template,) = statefulset["spec"]["volumeClaimTemplates"]
    (mount,) = [m for m in container["volumeMounts"] if m["name"] == template["metadata"]["name"]]
    assert mount["mountPath"] == _literal("COVE_WORKSPACE_ROOT")
    assert template["spec"]["accessModes"] == ["ReadWriteOnce"]


def test_the_token_comes_from_the_secret() -> None:
    ref = _env(_container(_statefulset(), "cove"))["COVE_TOKEN"]["valueFrom"]["secretKeyRef"]
    # An optional reference to a missing Secret leaves COVE_TOKEN unset: no authentication.
    assert not ref.get("optional", False)
    secret = _one("Secret", ref["name"])
    values = {**secret.get("data", {}), **secret.get("stringData", {})}
    assert ref["key"] in values
    assert str(values[ref["key"]]).strip(), "an empty token turns authentication off"


def test_the_services_and_the_budget_select_the_right_pods() -> None:
    statefulset = _statefulset()
    replica_labels = statefulset["spec"]["template"]["metadata"]["labels"]
    router = _one("Deployment", "cove-router")
    router_labels = router["spec"]["template"]["metadata"]["labels"]
    assert _selects(statefulset["spec"]["selector"]["matchLabels"], replica_labels)

    headless = _one("Service", statefulset["spec"]["serviceName"])
    assert headless["spec"]["clusterIP"] == "None"
    assert headless["spec"]["publishNotReadyAddresses"] is True
    assert _selects(headless["spec"]["selector"], replica_labels)
    assert not _selects(headless["spec"]["selector"], router_labels)
    assert [p["port"] for p in headless["spec"]["ports"]] == [int(_literal("COVE_PORT"))]

    budget = _one("PodDisruptionBudget", "cove")
    assert budget["spec"]["maxUnavailable"] == 1
    assert _selects(budget["spec"]["selector"]["matchLabels"], replica_labels)
    assert not _selects(budget["spec"]["selector"]["matchLabels"], router_labels)

    front = _one("Service", "cove-router")
    assert front["spec"].get("type", "ClusterIP") == "ClusterIP"
    assert _selects(front["spec"]["selector"], router_labels)
    assert not _selects(front["spec"]["selector"], replica_labels)
    assert [p["port"] for p in front["spec"]["ports"]] == [8080]


def test_the_router_mounts_the_generated_config() -> None:
    router = _one("Deployment", "cove-router")
    assert router["spec"]["replicas"] == 2
    container = _container(router, "haproxy")
    assert container["image"] == "haproxy:2.6"
    assert _probe_path(container, "readinessProbe") == ("/router/health", 8080)
    # Liveness: HAProxy accepts connections (a restart mends nothing else).
    assert _probe_port(container, container["livenessProbe"]["tcpSocket"]) == 8080
    volumes = {v["name"]: v for v in router["spec"]["template"]["spec"]["volumes"]}
    (mount,) = [m for m in container["volumeMounts"] if m["mountPath"] == "/usr/local/etc/haproxy/"]
    configmap = volumes[mount["name"]]["configMap"]
    assert configmap["name"] == _generator()["name"]
    assert {i["key"]: i["path"] for i in configmap.get("items", [])} in (
        {},
        {"haproxy.cfg": "haproxy.cfg"},
    )


def test_the_router_config_names_the_statefulsets_pods() -> None:
    config = _generated_configmap()["data"]["haproxy.cfg"]
    statefulset = _statefulset()
    name, service = statefulset["metadata"]["name"], statefulset["spec"]["serviceName"]
    namespace = _kustomization().get("namespace", "default")
    port = int(_literal("COVE_PORT"))
    for i in range(statefulset["spec"]["replicas"]):
        assert f"{name}-{i}.{service}.{namespace}.svc.cluster.local:{port}" in config, i
    assert f"{name}-{statefulset['spec']['replicas']}." not in config, "a pod too many"
    assert re.search(r"^\s*monitor-uri /router/health\s*$", config, re.M)
    assert re.search(r"^\s*bind \S*:8080\b", config, re.M)


# -- Sizes: docs/deploy.md's formulas for the settings given ---------------------------------


def test_the_memory_limit_covers_the_worst_case_of_the_memory_formula() -> None:
    # docs/deploy.md, "Memory sizing": every held session live at its limit.
    sessions = _parsed("COVE_MAX_SESSIONS")
    worst = (
        200 * MiB
        + sessions * (_parsed("COVE_MEMORY_MB") + 3 * MiB)
        + _parsed("COVE_WORKER_THREADS") * 48 * MiB
        + _parsed("COVE_SPARE_SESSIONS") * 2 * MiB
    )
    resources = _container(_statefulset(), "cove")["resources"]
    assert _quantity(resources["limits"]["memory"]) >= worst, worst / MiB
    assert _quantity(resources["requests"]["memory"]) <= _quantity(resources["limits"]["memory"])
    # The container may run as many wasm threads as it has CPUs.
    assert _parsed("COVE_WORKER_THREADS") <= _quantity(resources["limits"]["cpu"])


def test_the_volume_covers_the_disk_budget() -> None:
    # docs/deploy.md, "Suspended sessions and capacity": every session suspended at its limits.
    budget = _parsed("COVE_MAX_SESSIONS") * (
        _parsed("COVE_WORKSPACE_MB") + _parsed("COVE_MEMORY_MB")
    )
    (template,) = _statefulset()["spec"]["volumeClaimTemplates"]
    assert _quantity(template["spec"]["resources"]["requests"]["storage"]) >= budget, budget / MiB


def test_the_grace_period_covers_the_drain_and_the_longest_call() -> None:
    longest_call = _parsed("COVE_MAX_TIMEOUT_S") + _parsed("COVE_TIMEOUT_GRACE_S")
    assert _parsed("COVE_TIMEOUT_S") <= _parsed("COVE_MAX_TIMEOUT_S")
    grace = _statefulset()["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    # Persisting the sessions comes on top: the margin must be left for it.
    assert grace > _parsed("COVE_DRAIN_S") + longest_call


# -- Privileges ------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "name"), [("StatefulSet", "cove"), ("Deployment", "cove-router")])
def test_every_container_runs_unprivileged(kind: str, name: str) -> None:
    pod = _one(kind, name)["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] > 0
    for container in pod["containers"]:
        context = container["securityContext"]
        assert context["allowPrivilegeEscalation"] is False
        assert context["capabilities"]["drop"] == ["ALL"]
        assert "add" not in context["capabilities"]
    if kind == "StatefulSet":
        assert pod["securityContext"]["fsGroup"] == pod["securityContext"]["runAsGroup"]
