"""The docs say what the code does: the OpenAPI document lists exactly the API's routes (with their methods), and
the module lists of ``docs/web.md`` and ``docs/ENGINE.md`` are exactly the packages' modules."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.routing import Route

import arbitru
from arbitru.web.app import route_table
from arbitru.web.routes.api import OPENAPI

SRC = Path(arbitru.__file__).parent
DOCS = SRC.parent.parent / "docs"


def documented_modules(doc: str) -> set[str]:
    """The ``*.py`` names of a doc's module list: the bullets after the marker comment, up to the next heading."""
    text = (DOCS / doc).read_text("utf-8")
    start = text.index("tests/test_docs.py compares this list")
    section = text[start:].split("\n#", 1)[0]
    names: set[str] = set()
    for line in section.splitlines():
        if line.startswith("- "):
            head = line.split(" — ", 1)[0]
            names.update(re.findall(r"`([\w/]+\.py)`", head))
    return names


def modules(package: Path, *subpackages: str) -> set[str]:
    found = {p.name for p in package.glob("*.py") if p.name != "__init__.py"}
    for sub in subpackages:
        found |= {f"{sub}/{p.name}" for p in (package / sub).glob("*.py") if p.name != "__init__.py"}
    return found


def test_the_openapi_paths_are_the_api_routes():
    routes = {}
    for r in route_table():
        if isinstance(r, Route) and r.path.startswith("/api/games/"):
            routes.setdefault(r.path.replace("{gid}", "{id}"), set()).update(m.lower() for m in r.methods or ())
    documented = {path: set(ops) for path, ops in OPENAPI["paths"].items()}
    assert documented, "the OpenAPI document lists no path"
    assert {p: ops - {"head"} for p, ops in routes.items()} == documented


def test_the_openapi_slip_covers_both_formats():
    post = OPENAPI["paths"]["/api/games/{id}/slips"]["post"]
    slips = post["requestBody"]["content"]["application/json"]["schema"]["oneOf"]
    assert {s["title"] for s in slips} == {"duplicate slip", "anticipation slip"}


def test_docs_web_lists_the_web_modules():
    assert documented_modules("web.md") == modules(SRC / "web", "routes")


def test_docs_engine_lists_the_engine_modules():
    assert documented_modules("ENGINE.md") == modules(SRC / "engine", "movegen") | {"movegen/__init__.py"}


def deploy_commands() -> list[list[str]]:
    """The ``arbitru …`` command lines of docs/deploy.md's shell blocks (continued lines joined, comments cut)."""
    import shlex

    text = (DOCS / "deploy.md").read_text("utf-8")
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] in ("./arbitru", "arbitru") and "--help" not in words:
                found.append(words[1:])
    return found


def test_docs_deploy_command_lines_parse_with_the_real_cli():
    """Every arbitru command a federation's administrator copies from docs/deploy.md names real commands and
    options with values they accept (parsed, not run)."""
    import click

    from arbitru.cli import cli

    commands = deploy_commands()
    assert {c[0] for c in commands} >= {"serve", "journal"}
    for args in commands:
        command: click.Command = cli
        ctx = click.Context(cli, info_name="arbitru")
        rest = list(args)
        while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
            sub = command.get_command(ctx, rest.pop(0))
            assert sub is not None, f"docs/deploy.md: no command in {args}"
            command = sub
        command.make_context(command.name, rest, parent=ctx)  # raises on an unknown option or a bad value


def test_the_listeners_bench_runs_nginx_as_docs_deploy_sets_it():
    """``bench/web_listeners.py --proxy nginx`` measures the proxy docs/deploy.md hands the administrator: every
    directive of its nginx blocks but the address, TLS and the placeholder upstream is in the bench's own."""
    text = (DOCS / "deploy.md").read_text("utf-8")
    bench = (DOCS.parent / "bench" / "web_listeners.py").read_text("utf-8")
    own = {" ".join(line.split()) for line in bench[bench.index('NGINX = """'):].splitlines()}
    local = ("listen ", "server_name ", "ssl_", "server 127.0.0.1:8000;")
    directives = {" ".join(line.split()) for block in re.findall(r"```nginx\n(.*?)```", text, re.S)
                  for line in block.splitlines() if line.strip().endswith(";")}
    assert len(directives) >= 15  # both blocks read
    missing = sorted(d for d in directives if not d.startswith(local) and d not in own)
    assert not missing, f"bench/web_listeners.py's NGINX lacks docs/deploy.md's {missing}"


def test_docs_deploy_nginx_blocks_are_each_a_whole_site_file():
    """An administrator copies one of docs/deploy.md's nginx blocks into ``sites-available/arbitru``: each names
    the upstream it proxies to and holds one ``server`` block. The limits' block once lacked the upstream, so the
    administrator appended it to the first: nginx kept the first ``server`` of that name and port and ignored the
    limits, ``nginx -t`` only warning ``conflicting server name``."""
    text = (DOCS / "deploy.md").read_text("utf-8")
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    for block in blocks:
        assert len(re.findall(r"^\s*server\s*\{", block, re.M)) == 1, block
        for upstream in re.findall(r"proxy_pass http://(\w+);", block):
            assert re.search(rf"^\s*upstream {upstream}\s*\{{", block, re.M), f"no upstream {upstream} in {block}"
