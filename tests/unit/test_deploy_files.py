"""Static checks of the deployment files: docker-compose.yml, Dockerfile and .dockerignore.

No Docker engine runs here, so nothing is built or started: the files are read and held to what Prov actually
reads and ships (the settings names of app.settings.Settings, the torch pin of scripts/setup.sh, the console
script of pyproject.toml) and to each other (service names, ports, volumes, PROV_HOME and PROV_MODELS_DIR).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from pydantic import AliasChoices, TypeAdapter

from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SERVICES = {"app", "postgres", "chroma", "model", "embeddings"}
DEFAULT_PORTS = {"http": 80, "https": 443, "postgresql": 5432, "postgres": 5432}


# --- readers ---------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def services(compose: dict) -> dict:
    return compose["services"]


@pytest.fixture(scope="module")
def app_env(services: dict) -> dict[str, str]:
    return _environment(services["app"])


@pytest.fixture(scope="module")
def dockerfile() -> list[tuple[str, str]]:
    return parse_dockerfile((ROOT / "Dockerfile").read_text(encoding="utf-8"))


def parse_dockerfile(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, comments dropped and line continuations joined as Docker does."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", "", "\n".join(lines))
    out = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def _env_instruction(args: str) -> dict[str, str]:
    tokens = shlex.split(args)
    if all("=" in t for t in tokens):
        return dict(t.split("=", 1) for t in tokens)
    return {tokens[0]: " ".join(tokens[1:])}  # the legacy `ENV KEY value` form


def dockerfile_env(instructions: list[tuple[str, str]], before: int | None = None) -> dict[str, str]:
    """The image's environment as set by ENV instructions (those before index `before`, if given)."""
    env: dict[str, str] = {}
    for keyword, args in instructions[:before]:
        if keyword == "ENV":
            env.update(_env_instruction(args))
    return env


def _index(instructions: list[tuple[str, str]], keyword: str, pattern: str) -> int:
    hits = [i for i, (k, a) in enumerate(instructions) if k == keyword and re.search(pattern, a)]
    assert hits, f"no {keyword} instruction matches {pattern!r}"
    return hits[0]


def _environment(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def _command(service: dict) -> list[str]:
    command = service.get("command") or []
    return shlex.split(command) if isinstance(command, str) else [str(c) for c in command]


def _option(command: list[str], flag: str) -> str | None:
    return command[command.index(flag) + 1] if flag in command else None


def listening_ports(service: dict) -> set[int]:
    """Container ports a service declares: the inner side of `ports`, `expose`, and a `--port` argument."""
    ports: set[int] = set()
    for entry in service.get("ports") or []:
        if isinstance(entry, dict):
            ports.add(int(entry["target"]))
        else:
            ports.add(int(str(entry).split("/")[0].rsplit(":", 1)[-1]))
    ports.update(int(str(p).split("/")[0]) for p in service.get("expose") or [])
    if (port := _option(_command(service), "--port")) is not None:
        ports.add(int(port))
    return ports


def _volume_mounts(service: dict) -> list[tuple[str, str]]:
    """(source, target) of each volume of a service; a source that is not a path is a named volume."""
    mounts = []
    for entry in service.get("volumes") or []:
        if isinstance(entry, dict):
            mounts.append((str(entry.get("source", "")), str(entry["target"])))
        else:
            source, target = str(entry).split(":")[:2]
            mounts.append((source, target))
    return mounts


def _is_named(source: str) -> bool:
    return bool(source) and not source.startswith((".", "/", "~", "$"))


def settings_env_names() -> dict[str, str]:
    """Every environment name Settings reads (upper case; reading is case-insensitive), mapped to its field."""
    config = Settings.model_config
    prefix = config.get("env_prefix", "")
    names: dict[str, str] = {}
    for field_name, field in Settings.model_fields.items():
        aliases: list[str] = []
        alias = field.validation_alias or field.alias
        if isinstance(alias, AliasChoices):
            aliases = [c for c in alias.choices if isinstance(c, str)]
        elif isinstance(alias, str):
            aliases = [alias]
        if not aliases or config.get("populate_by_name"):
            aliases.append(prefix + field_name)
        names.update({a.upper(): field_name for a in aliases})
    return names


def dockerignore_excludes(patterns: list[str], path: str) -> bool:
    """Whether Docker leaves `path` (relative to the context root) out of the build context.

    Docker's rules: patterns are anchored at the root, `*` stays inside one path segment, `**` spans any number,
    a pattern that matches a directory leaves out everything under it, `!` takes a path back, the last match wins.
    """
    parts = path.strip("/").split("/")
    excluded = False
    for raw in patterns:
        negate = raw.startswith("!")
        regex = _dockerignore_regex(raw[1:] if negate else raw)
        if any(regex.fullmatch("/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            excluded = not negate
    return excluded


def _dockerignore_regex(pattern: str) -> re.Pattern[str]:
    segments = pattern.strip().strip("/").split("/")
    out = ""
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == "**":
            out += ".*" if last else "(?:[^/]+/)*"
            continue
        out += re.escape(seg).replace(r"\*", "[^/]*").replace(r"\?", "[^/]") + ("" if last else "/")
    return re.compile(out)


def _dockerignore_patterns() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_dockerignore_matcher_follows_dockers_rules() -> None:
    patterns = ["models", "**/*.pyc", "docs/*.md", "!docs/keep.md"]
    assert dockerignore_excludes(patterns, "models/model.gguf")
    assert not dockerignore_excludes(patterns, "app/models.py")  # anchored at the root
    assert dockerignore_excludes(patterns, "app/x/y.pyc") and dockerignore_excludes(patterns, "y.pyc")
    assert dockerignore_excludes(patterns, "docs/a.md") and not dockerignore_excludes(patterns, "docs/sub/a.md")
    assert not dockerignore_excludes(patterns, "docs/keep.md")


# --- docker-compose.yml ----------------------------------------------------------------------------------------

def test_compose_defines_the_whole_system(services: dict) -> None:
    assert SERVICES <= set(services), f"missing services: {SERVICES - set(services)}"


def test_app_is_built_from_this_repository_and_interactive(services: dict) -> None:
    app = services["app"]
    build = app["build"] if isinstance(app["build"], str) else app["build"]["context"]
    dockerfile = "Dockerfile" if isinstance(app["build"], str) else app["build"].get("dockerfile", "Dockerfile")
    assert (ROOT / build / dockerfile).is_file()
    assert app.get("stdin_open") is True and app.get("tty") is True, "`docker compose run app chat` needs a tty"


def test_app_environment_names_are_settings_prov_reads(app_env: dict[str, str]) -> None:
    known = settings_env_names()
    given = {name for name in app_env if name.startswith(("PROV_", "OPENAI_"))}
    assert given, "the app service configures nothing"
    unknown = sorted(name for name in given if name.upper() not in known)
    assert not unknown, f"Settings reads no such variable: {unknown}"


def test_app_environment_values_are_valid_settings(app_env: dict[str, str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's environment, and only it, builds a Settings whose fields hold exactly those values."""
    for name in list(os.environ):
        if name.upper().startswith(("PROV_", "OPENAI_")):
            monkeypatch.delenv(name)
    for name, value in app_env.items():
        monkeypatch.setenv(name, value)
    settings = Settings(_env_file=None)
    known = settings_env_names()
    for name, value in app_env.items():
        if name.upper() in known:
            field = known[name.upper()]
            expected = TypeAdapter(Settings.model_fields[field].annotation).validate_python(value)
            assert getattr(settings, field) == expected, name


def test_app_urls_point_at_services_and_their_ports(services: dict, app_env: dict[str, str]) -> None:
    targets = set()
    for name, value in app_env.items():
        url = urlsplit(value)
        if not (url.scheme and url.hostname):
            continue
        scheme = url.scheme.split("+")[0]
        port = url.port or DEFAULT_PORTS[scheme]
        assert url.hostname in services and url.hostname != "app", f"{name}: no service {url.hostname!r}"
        assert port in listening_ports(services[url.hostname]), f"{name}: {url.hostname} does not listen on {port}"
        targets.add(url.hostname)
    assert targets == SERVICES - {"app"}, f"the app is not wired to {SERVICES - {'app'} - targets}"


def test_postgres_urls_match_the_database_and_installed_drivers(services: dict, app_env: dict[str, str]) -> None:
    from psycopg.conninfo import conninfo_to_dict
    from sqlalchemy.engine import make_url

    db = _environment(services["postgres"])
    want = (db["POSTGRES_USER"], db["POSTGRES_PASSWORD"], db["POSTGRES_DB"])
    # LangGraph's Postgres checkpointer hands the URL to libpq, which knows no SQLAlchemy driver suffix.
    checkpoint = conninfo_to_dict(app_env["PROV_CHECKPOINT_URL"])
    assert (checkpoint["user"], checkpoint["password"], checkpoint["dbname"]) == want
    memory = make_url(app_env["PROV_MEMORY_URL"])
    assert (memory.username, memory.password, memory.database) == want
    memory.get_dialect().import_dbapi()  # the driver named in the URL is installed


def test_embedding_server_accepts_the_apps_batches(services: dict, app_env: dict[str, str]) -> None:
    assert app_env["PROV_EMBEDDINGS"] == "openai", "PROV_EMBEDDING_BASE_URL is only used with PROV_EMBEDDINGS=openai"
    server = services[urlsplit(app_env["PROV_EMBEDDING_BASE_URL"]).hostname]
    limit = int(_option(_command(server), "--max-client-batch-size") or 32)  # text-embeddings-inference's default
    batch = app_env.get("PROV_EMBEDDING_BATCH", str(Settings.model_fields["embedding_batch"].default))
    assert int(batch) <= limit, "the embedding server would refuse the app's batches"


def test_app_asks_for_the_model_name_the_model_server_serves(services: dict, app_env: dict[str, str]) -> None:
    server = services[urlsplit(app_env["OPENAI_BASE_URL"]).hostname]
    alias = _option(_command(server), "--alias")
    assert alias, "the model server should serve a fixed name"
    assert app_env.get("PROV_SMALL_MODEL") == alias and app_env.get("PROV_LARGE_MODEL") == alias


def test_app_waits_for_healthy_dependencies(services: dict) -> None:
    depends = services["app"]["depends_on"]
    assert isinstance(depends, dict), "use the long depends_on form with conditions"
    assert {"postgres", "chroma"} <= set(depends)
    for name, spec in depends.items():
        assert spec.get("condition") == "service_healthy", name
        check = services[name].get("healthcheck") or {}
        assert check.get("test") and not check.get("disable"), f"{name} has no healthcheck"


def test_healthchecks_probe_the_port_the_service_listens_on(services: dict) -> None:
    probed = 0
    for name, service in services.items():
        test = service.get("healthcheck", {}).get("test") or []
        text = test if isinstance(test, str) else " ".join(test)
        for port in re.findall(r"localhost[:/](\d+)", text):
            assert int(port) in listening_ports(service), f"{name}'s healthcheck probes port {port}"
            probed += 1
    assert probed >= 3


def test_named_volumes_are_declared_and_stateful_services_keep_one(compose: dict, services: dict) -> None:
    declared = set(compose.get("volumes") or {})
    used = {source for service in services.values() for source, _ in _volume_mounts(service) if _is_named(source)}
    assert used <= declared, f"undeclared volumes: {used - declared}"
    assert declared <= used, f"declared but unused volumes: {declared - used}"
    for name in ("app", "postgres", "chroma", "embeddings"):
        assert any(_is_named(s) for s, _ in _volume_mounts(services[name])), f"{name} keeps its state in no volume"


def _assert_pinned(image: str) -> None:
    if "@sha256:" in image:
        return
    name, _, tag = image.rpartition(":")
    assert name and "/" not in tag, f"{image}: no tag"
    assert tag != "latest" and re.search(r"\d", tag), f"{image}: tag {tag!r} names no version"


def test_images_are_pinned(services: dict, dockerfile: list[tuple[str, str]]) -> None:
    images = [s["image"] for s in services.values() if "image" in s]
    images += [args.split()[0] for keyword, args in dockerfile if keyword == "FROM"]
    assert len(images) >= len(SERVICES)
    for image in images:
        _assert_pinned(image)
    with pytest.raises(AssertionError):
        _assert_pinned("ghcr.io/ggml-org/llama.cpp:server")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert services["app"]["image"].rpartition(":")[2] == version, "the app image tag is Prov's version"


# --- Dockerfile -------------------------------------------------------------------------------------------------

def test_torch_is_the_cpu_build_pinned_as_in_setup_sh(dockerfile: list[tuple[str, str]]) -> None:
    pinned = re.findall(r"torch==([\w.+]+)", (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8"))
    assert len(set(pinned)) == 1
    torch_run = _index(dockerfile, "RUN", r"pip install .*\btorch\b")
    args = dockerfile[torch_run][1]
    assert re.findall(r"torch==([\w.+]+)", args) == pinned[:1], args
    assert "download.pytorch.org/whl/cpu" in args
    assert torch_run < _index(dockerfile, "RUN", r"pip install \.(\s|$)"), "torch must be installed before Prov"


def test_model_is_exported_at_build_time_offline(dockerfile: list[tuple[str, str]]) -> None:
    export = _index(dockerfile, "RUN", r"app\.knowledge\.embeddings")
    assert re.search(r"\b(export_onnx|get_embedder)\b", dockerfile[export][1])
    assert export > _index(dockerfile, "RUN", r"pip install \.(\s|$)")
    env = dockerfile_env(dockerfile, before=export)
    assert env.get("PROV_MODELS_DIR", "").startswith("/"), "the export must land in PROV_MODELS_DIR"
    assert env.get("HF_HUB_OFFLINE") == "1" and env.get("TRANSFORMERS_OFFLINE") == "1"
    final = dockerfile_env(dockerfile)
    assert final["PROV_MODELS_DIR"] == env["PROV_MODELS_DIR"] and final["HF_HUB_OFFLINE"] == "1"


def test_entrypoint_is_provs_console_script(dockerfile: list[tuple[str, str]]) -> None:
    entrypoints = [json.loads(args) for keyword, args in dockerfile if keyword == "ENTRYPOINT"]
    assert entrypoints, "no ENTRYPOINT"
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts.get(entrypoints[-1][0]) == "app.cli:main"
    cmd = [json.loads(args) for keyword, args in dockerfile if keyword == "CMD"]
    assert cmd and cmd[-1] and cmd[-1][0] != "chat", "the default command must work without a terminal"


def test_runs_as_a_non_root_user_who_owns_the_data_volume(dockerfile: list[tuple[str, str]]) -> None:
    users = [(i, args.split(":")[0]) for i, (keyword, args) in enumerate(dockerfile) if keyword == "USER"]
    assert users, "no USER: the container would run as root"
    at, user = users[-1]
    assert user not in ("root", "0")
    created = _index(dockerfile, "RUN", rf"useradd\b.*\b{re.escape(user)}\b")
    assert created < at and re.search(rf"chown .*{re.escape(user)}", dockerfile[created][1])
    home = dockerfile_env(dockerfile)["PROV_HOME"]
    volumes = [v for keyword, args in dockerfile if keyword == "VOLUME" for v in json.loads(args)]
    assert home in volumes


def test_dockerignore_keeps_local_state_out_and_needed_files_in(dockerfile: list[tuple[str, str]]) -> None:
    patterns = _dockerignore_patterns()
    for path in (".venv/bin/python", ".prov/catalog.sqlite", ".git/HEAD", ".env", "models/model.gguf",
                 "data/report.pdf", "bench/results/run.json", "app/__pycache__/cli.cpython-311.pyc"):
        assert dockerignore_excludes(patterns, path), f"{path} would be sent to the build"
    sources = []
    for keyword, args in dockerfile:
        if keyword == "COPY" and "--from" not in args:
            sources += [a for a in shlex.split(args) if not a.startswith("--")][:-1]
    assert "pyproject.toml" in sources
    for source in sources:
        path = ROOT / source
        assert path.exists(), f"COPY {source}: not in the repository"
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()
                                               and "__pycache__" not in p.parts and p.suffix != ".pyc"]
        for file in files:
            rel = file.relative_to(ROOT).as_posix()
            assert not dockerignore_excludes(patterns, rel), f"{rel} is copied but .dockerignore leaves it out"


# --- the two together -------------------------------------------------------------------------------------------

def test_compose_and_dockerfile_agree_on_prov_home_and_models_dir(dockerfile: list[tuple[str, str]],
                                                                 services: dict, app_env: dict[str, str]) -> None:
    image_env = dockerfile_env(dockerfile)
    for name in ("PROV_HOME", "PROV_MODELS_DIR"):
        assert app_env[name] == image_env[name], name
    targets = {target for source, target in _volume_mounts(services["app"]) if _is_named(source)}
    assert app_env["PROV_HOME"] in targets, "PROV_HOME must be the app's named volume"
    assert not any(app_env["PROV_MODELS_DIR"].startswith(t) for t in targets), "a volume would hide the baked model"


@pytest.mark.integration
def test_the_dockerfiles_export_step_runs(dockerfile: list[tuple[str, str]], tmp_path: Path) -> None:
    """Runs the build's model-export command here, in this interpreter, into an empty PROV_MODELS_DIR."""
    export = _index(dockerfile, "RUN", r"app\.knowledge\.embeddings")
    tokens = shlex.split(dockerfile[export][1])
    first = tokens[:tokens.index("&&")] if "&&" in tokens else tokens
    assignments = {t.split("=", 1)[0]: t.split("=", 1)[1] for t in first[:first.index("python")]}
    code = first[first.index("-c") + 1]
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(("PROV_", "OPENAI_"))}
    env.update(dockerfile_env(dockerfile, before=export))
    env.update(assignments)
    env.update(PROV_MODELS_DIR=str(tmp_path / "models"), PROV_HOME=str(tmp_path / "home"))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert list((tmp_path / "models").glob("*.onnx")), "the export wrote no ONNX model"
