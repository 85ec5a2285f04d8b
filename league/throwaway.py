"""A throwaway PostgreSQL server in a temporary folder (for the tests and the benchmark).

It finds ``initdb``/``pg_ctl`` on ``$PATH`` or where Debian's ``postgresql`` package
puts them (``/usr/lib/postgresql/VERSION/bin``), creates a cluster with trust
authentication listening on a free loopback port, and removes everything on
:meth:`stop`. PostgreSQL refuses to run as root, so as root it runs as ``nobody``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import psycopg

PG_TOOLS = ("initdb", "pg_ctl", "postgres")


def find_bin() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres (``$UNO_TABLE_PG_BIN`` first)."""
    candidates: list[str] = []
    if os.environ.get("UNO_TABLE_PG_BIN"):
        candidates.append(os.environ["UNO_TABLE_PG_BIN"])
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(str(Path(found).resolve().parent))
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted(versions, key=lambda p: int(Path(p).parent.name or 0), reverse=True)
    for folder in candidates:
        if all((Path(folder) / tool).exists() for tool in PG_TOOLS):
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThrowawayPostgres:
    """``with ThrowawayPostgres() as pg: pg.url`` (a superuser's URL to ``postgres``)."""

    def __init__(self, bin_dir: Path | None = None, *, fsync: bool = True) -> None:
        found = bin_dir or find_bin()
        if found is None:
            raise FileNotFoundError(
                "PostgreSQL's initdb/pg_ctl not found (apt-get install postgresql)"
            )
        self.bin = found
        self.fsync = fsync
        self.dir = Path(tempfile.mkdtemp(prefix="uno-pg-"))
        self.port = free_port()
        self.user: dict[str, Any] = {}
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            self.user = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._databases = 0

    def _run(self, *args: str) -> None:
        subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            check=True,
            cwd=self.dir,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, "LC_ALL": "C"},
            **self.user,
        )

    def start(self) -> ThrowawayPostgres:
        data = self.dir / "data"
        if not data.exists():
            self._run(
                "initdb",
                "-D",
                str(data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            )
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        if not self.fsync:
            options += " -F"
        self._run(
            "pg_ctl",
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(self.dir / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        return self

    def stop(self, remove: bool = True) -> None:
        if (self.dir / "data" / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)

    def new_database(self, name: str | None = None) -> str:
        """A fresh, empty database; returns its URL."""
        self._databases += 1
        name = name or f"league_{self._databases}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def log(self) -> str:
        path = self.dir / "log"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> ThrowawayPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
