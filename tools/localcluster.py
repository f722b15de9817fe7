"""A whole cluster on this machine's loopback: PostgreSQL, Redis, server processes and nginx.

``python -m tools.localcluster [--servers 2] [--port 8000]`` (``make run-cluster``) starts
them from the Debian packages (postgresql, redis-server, nginx) with everything they write in one
temporary directory, and stops them all on Ctrl-C. The tests and the load test use the same
pieces. PostgreSQL refuses to run as root: as root it runs as the ``postgres`` user.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def postgres_bin() -> Path | None:
    """The newest PostgreSQL server binaries installed (Debian: /usr/lib/postgresql/N/bin)."""
    found = [
        d
        for d in Path("/usr/lib/postgresql").glob("*/bin")
        if (d / "initdb").exists() and (d / "pg_ctl").exists()
    ]
    return max(found, key=lambda d: int(d.parent.name), default=None) if found else None


def redis_bin() -> str | None:
    return shutil.which("redis-server")


def nginx_bin() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None
    )


def missing() -> list[str]:
    """What this machine lacks to run a cluster (Debian package names)."""
    lack = []
    if postgres_bin() is None:
        lack.append("postgresql")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            lack.append("postgresql (its postgres user)")
    if redis_bin() is None:
        lack.append("redis-server")
    return lack


START_GUARD = 240.0
"""Seconds a start waits for its process to answer. Each wait returns as soon as the process
answers (a server's also as soon as it exits), so this only reports a hung start: a loaded
machine (the test suite on every core beside other work) starts a server many times slower
than a quiet one (measured: over 30 s for `truco serve`), and that must not fail a test."""


def _wait(check: object, what: str, seconds: float = START_GUARD) -> None:
    end = time.monotonic() + seconds
    while True:
        try:
            if callable(check) and check():
                return
        except (OSError, httpx.TransportError):
            pass
        if time.monotonic() > end:
            raise RuntimeError(f"{what} did not start")
        time.sleep(0.05)


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _stop(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    if proc is not None and proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class Redis:
    """redis-server on 127.0.0.1 with nothing saved to disk (a restart loses everything)."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = redis_bin()
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no", "--dir", str(self.dir), "--maxclients", "10000"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait(lambda: _listening(self.port), "redis-server")

    def stop(self) -> None:
        _stop(self.proc)
        self.proc = None


class Postgres:
    """A PostgreSQL cluster of its own (initdb) in ``workdir``, on 127.0.0.1:``port``."""

    def __init__(self, workdir: Path, port: int | None = None, durable: bool = True) -> None:
        self.port = port or free_port()
        self.dir = workdir / "pg"
        self.durable = durable
        self.url = f"postgresql+asyncpg://truco@127.0.0.1:{self.port}/truco"
        self.bin = postgres_bin()
        self._user: list[str] = []
        if os.geteuid() == 0:
            self._user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self._user, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.dir
        )
        if done.returncode:
            raise RuntimeError(f"{' '.join(args)}: {done.stderr.decode(errors='replace')}")

    def init(self) -> None:
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.dir.mkdir(mode=0o700)
        if self._user:
            # The postgres user must reach its directory through ours.
            self.dir.parent.chmod(0o755)
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.dir), "-U", "truco", "--no-sync")
        self.start()
        # A database named after its user, as psql and the URL expect.
        self._run(
            str(self.bin / "createdb"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "truco",
            "truco",
        )

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        assert self.bin is not None
        self._run(
            str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "truco", name
        )
        return f"postgresql+asyncpg://truco@127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        assert self.bin is not None
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        options += " -c max_connections=200"
        if not self.durable:
            # Tests: a crash of the machine is not what they test; fsyncs only slow them.
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.dir), "-o", options, "-l",
            str(self.dir / "log"), "-w", "start",
        )  # fmt: skip

    def pid(self) -> int:
        """The postmaster's process id (its backends are its children)."""
        return int((self.dir / "postmaster.pid").read_text().split("\n", 1)[0])

    def stop(self, mode: str = "fast") -> None:
        assert self.bin is not None
        with contextlib.suppress(RuntimeError):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir), "-m", mode, "-w", "stop")


class Server:
    """One ``truco serve`` process on 127.0.0.1."""

    def __init__(
        self, env: dict[str, str], node: str, port: int | None = None, prefix: str = ""
    ) -> None:
        self.port = port or free_port()
        self.node = node
        self.prefix = prefix
        """The first digits of the ids of the tables it makes (``TRUCO_TABLE_PREFIX``)."""
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **env, "TRUCO_NODE_ID": node}
        if prefix:
            self.env["TRUCO_TABLE_PREFIX"] = prefix
        self.proc: subprocess.Popen[bytes] | None = None
        self.log: Path | None = None

    def start(self, log: Path | None = None) -> None:
        self.log = log
        out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "truco",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            env=self.env,
            stdout=out,
            stderr=out,
        )
        if log:
            assert not isinstance(out, int)
            out.close()

        def up() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"server {self.node} exited: see {log}")
            return httpx.get(f"{self.base}/api/tables", timeout=1).status_code == 200

        _wait(up, f"server {self.node}")

    def kill(self) -> None:
        """SIGKILL: no goodbye, its leases must run out."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)

    def stop(self) -> None:
        _stop(self.proc)


NGINX_CONF = """\
worker_processes {workers};
worker_rlimit_nofile {files};
error_log {dir}/error.log warn;
pid {dir}/nginx.pid;
events {{ worker_connections {worker_connections}; }}
http {{
    access_log off;
    # The servers' own bounds, for the whole cluster (docs/operations.md, "Limits"): behind
    # nginx every server sees one address, nginx's, and exempts it (TRUCO_PROXIES).
    client_max_body_size {max_body};
    client_header_timeout {header_seconds}s;
    large_client_header_buffers 4 8k;
    client_body_timeout {header_seconds}s;
    keepalive_timeout 15s;
    limit_conn_zone $binary_remote_addr zone=per_address:10m;
    limit_conn_status 429;
    map $request_method $new_table {{ POST $binary_remote_addr; default ""; }}
    limit_req_zone $new_table zone=new_tables:10m rate={tables_per_minute}r/m;
    limit_req_status 429;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    # A table's requests and sockets go to the process whose prefix its id starts with, the one
    # that made it and owns it; the others stand by for it (backup), and relay if it moved.
    map $uri $table_home {{
        default truco;
{homes_map}
    }}
    upstream truco {{
{servers}
    }}
{homes}
    server {{
        listen 127.0.0.1:{port}{reuseport};
        limit_conn per_address {connections_per_address};
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_read_timeout 1h;
        proxy_next_upstream error timeout http_502;
        proxy_connect_timeout 2s;
        error_page 413 @too_large;
        error_page 429 @too_many;
        location = /api/tables {{
            limit_req zone=new_tables burst={tables_burst} nodelay;
            proxy_pass http://truco;
        }}
        location / {{
            proxy_pass http://$table_home;
        }}
        location @too_large {{
            default_type application/json;
            return 413 '{{"code": "too_large", "message": "the request body is too large"}}';
        }}
        location @too_many {{
            default_type application/json;
            return 429 '{{"code": "rate_limited", "message": "too many requests or connections"}}';
        }}
    }}
}}
"""


NGINX_OWN_FILES = 64
"""Descriptors an nginx worker keeps beside its connections (logs, listening sockets)."""


def descriptors_most() -> int:
    """The most descriptors a process started from here can open (the hard limit)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return 1 << 20 if hard == resource.RLIM_INFINITY else hard


@dataclass(frozen=True, slots=True, kw_only=True)
class ProxyLimits:
    """nginx's bounds per client address, the same as one server's own (``Settings``)."""

    max_body: str = "16k"
    header_seconds: int = 10
    connections_per_address: int = 64
    tables_per_minute: int = 10
    tables_burst: int = 20
    worker_connections: int = 8192
    """Per worker. Each player holds two: the client's socket and the one to a server."""
    workers: int = 1
    """nginx's worker processes: more than one when one process's descriptors cannot hold every
    player's two connections (each worker has a descriptor limit of its own)."""

    @property
    def files(self) -> int:
        # Never above the hard limit: nginx cannot raise it and says so in an alert.
        return min(2 * self.worker_connections + NGINX_OWN_FILES, descriptors_most())


class Proxy:
    """nginx on 127.0.0.1:``port`` spreading HTTP and WebSockets over the servers."""

    def __init__(
        self,
        workdir: Path,
        servers: list[Server],
        port: int | None = None,
        limits: ProxyLimits | None = None,
    ) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.dir = workdir / "nginx"
        self.servers = servers
        self.limits = limits or ProxyLimits()
        self.proc: subprocess.Popen[bytes] | None = None

    def config(self) -> str:
        def line(s: Server, backup: bool = False) -> str:
            mark = "backup" if backup else "max_fails=1 fail_timeout=3s"
            return f"        server 127.0.0.1:{s.port} {mark};"

        upstream = "\n".join(line(s) for s in self.servers)
        homes_map, homes = [], []
        for s in self.servers:
            if not s.prefix:
                continue
            homes_map.append(f"        ~^/(?:ws|api)/tables/{s.prefix} home_{s.node};")
            lines = [line(s)] + [line(o, backup=True) for o in self.servers if o is not s]
            homes.append(f"    upstream home_{s.node} {{\n" + "\n".join(lines) + "\n    }")
        limits = {f: getattr(self.limits, f) for f in ProxyLimits.__dataclass_fields__}
        # With several workers the kernel spreads the connections over them (SO_REUSEPORT);
        # without it one worker tends to accept most of them and runs out of descriptors.
        reuseport = " reuseport" if self.limits.workers > 1 else ""
        return NGINX_CONF.format(
            dir=self.dir,
            servers=upstream,
            port=self.port,
            files=self.limits.files,
            reuseport=reuseport,
            homes_map="\n".join(homes_map),
            homes="\n".join(homes),
            **limits,
        )

    def start(self) -> None:
        binary = nginx_bin()
        if binary is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx-light)")
        self.dir.mkdir(exist_ok=True)
        self.dir.chmod(0o755)
        conf = self.dir / "nginx.conf"
        conf.write_text(self.config())
        self.proc = subprocess.Popen(
            [binary, "-p", str(self.dir), "-e", str(self.dir / "error.log"), "-c", str(conf)]
            + ["-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait(lambda: httpx.get(f"{self.base}/api/tables", timeout=1).status_code == 200, "nginx")

    def stop(self) -> None:
        _stop(self.proc, signal.SIGQUIT)


class Cluster:
    """PostgreSQL + Redis + ``servers`` processes (+ nginx in front when ``proxy``)."""

    def __init__(
        self,
        workdir: Path,
        servers: int = 2,
        *,
        proxy: bool = True,
        port: int | None = None,
        env: dict[str, str] | None = None,
        durable: bool = True,
        limits: ProxyLimits | None = None,
        homes: bool = True,
    ) -> None:
        """``homes``: each server makes its tables with a prefix of its own (1, 2, ...) and
        nginx sends each table's traffic to its maker; False: every request to any server (about
        half the players then relayed by a process that does not own their table)."""
        self.dir = workdir
        self.postgres = Postgres(workdir, durable=durable)
        self.redis = Redis(workdir)
        self.env = {
            "TRUCO_DATABASE_URL": self.postgres.url,
            "TRUCO_REDIS_URL": self.redis.url,
            # nginx's address: it bounds connections per client itself, and says who they are.
            "TRUCO_PROXIES": "127.0.0.1" if proxy else "",
            **(env or {}),
        }
        if homes and servers > 16:
            raise ValueError("at most 16 servers get a table prefix of their own (one hex digit)")
        self.servers = [
            Server(self.env, f"node-{i + 1}", prefix=f"{(i + 1) % 16:x}" if homes else "")
            for i in range(servers)
        ]
        self.proxy = Proxy(workdir, self.servers, port, limits) if proxy else None

    def start(self) -> None:
        self.postgres.init()
        self.redis.start()
        for server in self.servers:
            server.start(self.dir / f"{server.node}.log")
        if self.proxy is not None:
            self.proxy.start()

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        for server in self.servers:
            server.stop()
        self.redis.stop()
        self.postgres.stop()


@contextlib.contextmanager
def running(servers: int = 2, **options: object) -> Iterator[Cluster]:
    workdir = Path(tempfile.mkdtemp(prefix="truco-cluster-"))
    cluster = Cluster(workdir, servers, **options)  # type: ignore[arg-type]
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.localcluster")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8000, help="nginx's port on 127.0.0.1")
    args = parser.parse_args(argv)
    lack = missing() + ([] if nginx_bin() else ["nginx-light"])
    if lack:
        print(f"missing: apt-get install {' '.join(lack)}", file=sys.stderr)
        return 2
    with running(args.servers, port=args.port) as cluster:
        assert cluster.proxy is not None
        print(f"PostgreSQL  {cluster.postgres.url}")
        print(f"Redis       {cluster.redis.url}")
        for server in cluster.servers:
            print(f"{server.node:11} {server.base}  (log: {server.log})")
        print(f"open        {cluster.proxy.base}  (nginx)  -- Ctrl-C stops everything")
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
