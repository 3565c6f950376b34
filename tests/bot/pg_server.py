"""A real PostgreSQL server for the tests, started once per session on 127.0.0.1: under
pytest-xdist, once per worker, each on a port of its own and in a temporary folder of its own.

The server binaries come from the `pgserver` wheel (in the `test` extra), or else from a
PostgreSQL on PATH or in Debian's /usr/lib/postgresql/*/bin. `initdb` refuses to run as root, so
under root (as CI runs) the server runs as the unprivileged user `nobody`.

Each test gets an empty database of its own (`pg_url`). If the server cannot start, the
PostgreSQL tests fail under CI (CI=true) and are skipped elsewhere, with the reason.
"""
from __future__ import annotations

import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

BINARIES = ("initdb", "pg_ctl", "postgres", "psql")


def find_bin_dir() -> Path | None:
    spec = importlib.util.find_spec("pgserver")
    candidates = []
    if spec is not None and spec.origin:
        candidates.append(Path(spec.origin).parent / "pginstall" / "bin")
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    return next((c for c in candidates if all((c / b).is_file() for b in BINARIES)), None)


def reachable_by_others(path: Path) -> bool:
    """Whether an unprivileged user can get to `path` (every folder above it searchable)."""
    return all(p.stat().st_mode & 0o001 for p in (path, *path.parents))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PgServer:
    bin_dir: Path
    root: Path
    port: int
    user: int | None   # uid the server runs as (None: as we are)

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin_dir / args[0]), *args[1:]], capture_output=True, text=True,
                              timeout=timeout, user=self.user, group=self.user and pwd.getpwuid(self.user).pw_gid,
                              extra_groups=[] if self.user else None, cwd=self.root)

    @classmethod
    def start(cls) -> "PgServer":
        bin_dir = find_bin_dir()
        if bin_dir is None:
            raise RuntimeError("no PostgreSQL server binaries: install the test extra (pip install -e '.[test]', "
                               "which brings the pgserver wheel) or Debian's postgresql")
        user = None
        root = Path(tempfile.mkdtemp(prefix="kibitz-pg-"))
        if os.geteuid() == 0:   # initdb refuses root
            user = pwd.getpwnam("nobody").pw_uid
            os.chown(root, user, pwd.getpwuid(user).pw_gid)
            root.chmod(0o700)
        if user is not None and not reachable_by_others(bin_dir):
            # e.g. a checkout under /root: give the server user its own copy of the installation,
            # with the wheel's shared libraries beside it (the binaries find them at ../../../pgserver.libs)
            site, copy = bin_dir.parents[2], root / "site"
            for part in (bin_dir.parent.relative_to(site), Path("pgserver.libs")):
                if (site / part).is_dir():
                    shutil.copytree(site / part, copy / part, symlinks=True)
            bin_dir = copy / bin_dir.relative_to(site)
        server = cls(bin_dir, root, free_port(), user)
        init = server._run("initdb", "-D", str(server.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                           "--no-sync", "--no-instructions")
        if init.returncode != 0:
            server.remove()
            raise RuntimeError(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        for _ in range(3):   # a port found free may be taken (by another worker's server) before ours binds it
            options = f"-p {server.port} -h 127.0.0.1 -k {root} -F -c max_connections=200"
            started = server._run("pg_ctl", "-D", str(server.data), "-o", options, "-l", str(root / "server.log"),
                                  "-w", "-t", "60", "start", timeout=90)
            if started.returncode == 0:
                break
            server.port = free_port()
        if started.returncode != 0:
            log = (root / "server.log").read_text(errors="replace") if (root / "server.log").exists() else ""
            server.remove()
            raise RuntimeError(f"pg_ctl start failed: {started.stderr.strip()} {log[-2000:]}")
        return server

    def sql(self, statement: str) -> None:
        """Run one statement as the superuser (synchronously: fixtures of any kind may call it)."""
        done = self._run("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.url(), "-c", statement)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        self.remove()

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server():
    """The worker's server (one per pytest-xdist worker, started at its first use). Tests ask for
    `pg_url`, an empty database of their own; none starts a server of its own (a start takes seconds)."""
    try:
        server = PgServer.start()
    except Exception as exc:   # no binaries, or the server would not start
        reason = f"PostgreSQL test server could not start: {exc}"
        if os.environ.get("CI"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    yield server
    server.stop()


def empty_database(server: PgServer):
    """A fixture's body: a fresh empty database on `server`, its URL yielded, dropped after the test."""
    name = f"kibitz_{os.getpid()}_{next(_numbers)}"
    server.sql(f"CREATE DATABASE {name}")
    yield server.url(name)
    server.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def pg_url(pg_server):
    """A fresh empty database on the session's server; dropped after the test."""
    yield from empty_database(pg_server)
