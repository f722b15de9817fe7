"""Issue 26's header flood against one ``truco serve``, and the process's memory under it.

``python -m tools.headflood [--connections 32] [--mib 32]`` starts ``truco serve`` on a free
loopback port with a fresh SQLite file, opens ``--connections`` connections at once, each
sending a request whose one header line is ``--mib`` MiB long, and prints one JSON object: the
answers' status lines (``reset``: the server closed before any answer), the seconds taken, and
the server's resident memory in MB before, at its peak (the kernel's high-water mark) and after.
``--port P --pid N`` attacks a server already running instead. The tests use ``flood`` and
``memory`` (tests/server/test_heads.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tools.localcluster import free_port

MIB = 1024 * 1024


def memory(pid: int) -> dict[str, float]:
    """The process's resident memory now (``rss``) and at its peak so far (``peak``), in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1000  # kB -> MB
    return {"rss": fields["VmRSS"], "peak": fields["VmHWM"]}


async def _one(port: int, mib: int) -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def answer() -> str:
        try:
            line = await reader.readline()
        except (ConnectionError, OSError):
            return "reset"
        return line.decode("latin-1").strip() or "reset"

    # Read while writing: a server that refuses early answers before the header is sent whole.
    answered = asyncio.create_task(answer())
    try:
        writer.write(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Flood: ")
        chunk = b"a" * MIB
        for _ in range(mib):
            if answered.done():
                break
            writer.write(chunk)
            await writer.drain()
        else:
            writer.write(b"\r\n\r\n")
            await writer.drain()
        return await asyncio.wait_for(answered, 60)
    except (ConnectionError, OSError):
        return await asyncio.wait_for(answered, 60)
    finally:
        answered.cancel()
        writer.close()


async def _flood(port: int, connections: int, mib: int) -> list[str]:
    results = await asyncio.gather(*(_one(port, mib) for _ in range(connections)))
    return [r if r == "reset" else " ".join(r.split()[:2]) for r in results]


def flood(port: int, pid: int, connections: int = 32, mib: int = 32) -> dict[str, Any]:
    """Run the flood against the server ``pid`` listening on ``port``; its figures."""
    before = memory(pid)
    start = time.monotonic()
    answers = asyncio.run(_flood(port, connections, mib))
    seconds = time.monotonic() - start
    time.sleep(1.0)  # what the process still holds once the connections are gone
    after = memory(pid)
    return {
        "connections": connections,
        "mib_each": mib,
        "answers": dict(Counter(answers)),
        "seconds": round(seconds, 2),
        "rss_before_mb": round(before["rss"], 1),
        "peak_mb": round(after["peak"], 1),
        "rss_after_mb": round(after["rss"], 1),
    }


@contextmanager
def serving(db: Path, **env: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``truco serve`` on a free loopback port with the SQLite file ``db``: (process, port)."""
    port = free_port()
    log = db.with_suffix(".log")
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "truco", "serve", "--port", str(port), "--db", str(db)],
            env={**os.environ, **env},
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        end = time.monotonic() + 120  # a loaded machine starts slowly
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > end:
                    tail = log.read_text(errors="replace")[-2000:]
                    raise RuntimeError(f"the server did not start: {tail}") from None
                time.sleep(0.05)
        yield proc, port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--mib", type=int, default=32)
    parser.add_argument("--port", type=int)
    parser.add_argument("--pid", type=int)
    args = parser.parse_args()
    if args.port and args.pid:
        report = flood(args.port, args.pid, args.connections, args.mib)
    else:
        with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "truco.db") as (proc, port):
            report = flood(port, proc.pid, args.connections, args.mib)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
