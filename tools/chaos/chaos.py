#!/usr/bin/env python3
"""The exactly-once chaos run of ShareKit (README.md, "Guarantees").

Starts share-server (a small seed with a 64 KiB part size), a fault-injecting
HTTP proxy of its own between the clients and the server, share-daemon, then
runs many `share send` processes concurrently with random content against
random targets while it SIGKILLs CLIs, the daemon and the server at random
moments and restarts them. At the end it stops the faults, drains the daemon
(`share-daemon --once --lease 0` until the inbox and the outbox are empty) and
checks what the server holds against what every CLI reported.

With `--backend matrix` the clients share into a Synapse homeserver of the
run's own instead (the Matrix backend), behind the same proxy; Synapse is
what is killed and restarted, and the check counts the events of every
share id in the rooms' timelines (tools/chaos/README.md, "Matrix").

Prints one line `chaos: N shares, S sent, Q queued, R rejected, lost L,
duplicated D, leftovers X` and exits 1 unless L, D and X are 0 (2 for a run
that could not be set up). Standard library only.
"""

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import pwd
import random
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

USER, PASSWORD = "alex", "alex-demo-pass"
PART = 65536
MAX_UPLOAD = 1_000_000
TARGETS = ["thread:t1", "thread:t2", "channel:c1", "new-post:c2"]


def log(args, text):
    if args.verbose:
        print(f"chaos: {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the proxy


class Proxy:
    """One request per connection (both sides get `Connection: close`), so a
    fault is decided per request. Runs its own asyncio loop in a thread.
    With several servers, the requests go to them in turn (round robin over
    `upstream_ports`, a server that is down included: its requests fail like
    those to a load balancer's dead backend)."""

    def __init__(self, rng_seed, rate, delay):
        self.upstream_ports = []
        self.routed = []
        self.turn = 0
        self.rate = 0.0
        self.fault_rate = rate
        self.delay = delay
        self.rng = random.Random(rng_seed)
        self.counts = {}
        self.port = None
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.ready.wait()

    def faults(self, on):
        self.rate = self.fault_rate if on else 0.0

    def _run(self):
        asyncio.set_event_loop(self.loop)
        # Connections still open when the run ends are dropped without a word.
        self.loop.set_exception_handler(lambda loop, context: None)

        async def start():
            server = await asyncio.start_server(self._client, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            self.ready.set()

        self.loop.run_until_complete(start())
        self.loop.run_forever()

    def _count(self, kind):
        self.counts[kind] = self.counts.get(kind, 0) + 1

    @staticmethod
    def _head(raw):
        lines = raw.decode("latin-1").split("\r\n")
        headers = []
        for line in lines[1:]:
            if line and ":" in line:
                name, value = line.split(":", 1)
                headers.append((name.strip(), value.strip()))
        return lines[0], headers

    @staticmethod
    def _build(first, headers):
        text = first + "\r\n" + "".join(f"{n}: {v}\r\n" for n, v in headers) + "\r\n"
        return text.encode("latin-1")

    @staticmethod
    def _get(headers, name):
        for n, v in headers:
            if n.lower() == name:
                return v
        return None

    async def _read_body(self, reader, headers):
        length = self._get(headers, "content-length")
        if length is not None:
            return await reader.readexactly(int(length))
        if (self._get(headers, "transfer-encoding") or "").lower() == "chunked":
            out = bytearray()
            while True:
                line = await reader.readuntil(b"\r\n")
                out += line
                size = int(line.split(b";")[0].strip(), 16)
                if size == 0:
                    while True:
                        trailer = await reader.readuntil(b"\r\n")
                        out += trailer
                        if trailer == b"\r\n":
                            return bytes(out)
                out += await reader.readexactly(size + 2)
        return b""

    async def _client(self, creader, cwriter):
        swriter = None
        try:
            raw = await creader.readuntil(b"\r\n\r\n")
            first, headers = self._head(raw)
            # curl talks to a proxy in absolute form; the server wants the path.
            method, target, version = first.split(" ", 2)
            if target.startswith("http://"):
                target = "/" + target[len("http://"):].split("/", 1)[1] if "/" in target[7:] else "/"
            first = f"{method} {target} {version}"
            if (self._get(headers, "expect") or "").lower() == "100-continue":
                cwriter.write(b"HTTP/1.1 100 Continue\r\n\r\n")
                await cwriter.drain()
            headers = [(n, v) for n, v in headers if n.lower() not in ("expect", "connection", "proxy-connection")]
            headers.append(("Connection", "close"))
            head = self._build(first, headers)
            fault = None
            if self.rng.random() < self.rate:
                fault = self.rng.choice(
                    ["drop-request", "drop-response", "delay", "status", "lost-response"])
            if fault == "drop-request" and self.rng.random() < 0.5:
                # Never forwarded: the client's request dies half-way.
                self._count("drop-request")
                return
            body = await self._read_body(creader, headers)
            if fault == "status":
                code = self.rng.choice([500, 503, 429])
                self._count(f"status-{code}")
                reason = {500: "Internal Server Error", 503: "Service Unavailable", 429: "Too Many Requests"}[code]
                payload = json.dumps({"error": "chaos", "message": "injected by tools/chaos"}).encode()
                cwriter.write(self._build(f"HTTP/1.1 {code} {reason}", [
                    ("Content-Type", "application/json"), ("Content-Length", str(len(payload))),
                    ("Retry-After", "1"), ("Connection", "close")]) + payload)
                await cwriter.drain()
                return
            if fault == "delay":
                # Held; then either closed without an answer, or forwarded
                # late (the server commits when the client may have given up).
                late = self.rng.random() < 0.5
                self._count("delay-forward" if late else "delay")
                await asyncio.sleep(self.delay * (0.5 + self.rng.random()))
                if not late:
                    return
                fault = None
            index = self.turn % len(self.upstream_ports)
            self.turn += 1
            self.routed[index] += 1
            sreader, swriter = await asyncio.open_connection("127.0.0.1", self.upstream_ports[index])
            if fault == "drop-request":
                # Half the request reaches the server, then both sides close.
                self._count("drop-request")
                whole = head + body
                swriter.write(whole[: max(1, len(whole) // 2)])
                await swriter.drain()
                return
            swriter.write(head + body)
            await swriter.drain()
            rhead = await sreader.readuntil(b"\r\n\r\n")
            rfirst, rheaders = self._head(rhead)
            rheaders = [(n, v) for n, v in rheaders if n.lower() not in ("connection", "keep-alive")]
            rheaders.append(("Connection", "close"))
            out_head = self._build(rfirst, rheaders)
            length = self._get(rheaders, "content-length")
            if fault == "lost-response":
                # The server did the work; the client never hears of it.
                self._count("lost-response")
                if length is not None:
                    await sreader.readexactly(int(length))
                else:
                    await sreader.read()
                return
            if fault == "drop-response":
                self._count("drop-response")
                rbody = await sreader.readexactly(int(length)) if length is not None else await sreader.read()
                cwriter.write((out_head + rbody)[: max(1, (len(out_head) + len(rbody)) // 2)])
                await cwriter.drain()
                return
            cwriter.write(out_head)
            if length is not None:
                remaining = int(length)
                while remaining > 0:
                    chunk = await sreader.read(min(remaining, 65536))
                    if not chunk:
                        break
                    remaining -= len(chunk)
                    cwriter.write(chunk)
                    await cwriter.drain()
            else:
                while True:
                    chunk = await sreader.read(65536)
                    if not chunk:
                        break
                    cwriter.write(chunk)
                    await cwriter.drain()
            await cwriter.drain()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            for w in (cwriter, swriter):
                if w is not None:
                    try:
                        w.close()
                    except Exception:
                        pass


# ---------------------------------------------------------------- PostgreSQL


class SetupError(Exception):
    """The run cannot be set up (exit status 2), with the reason for a person."""


class Postgres:
    """A PostgreSQL server of the run's own: `initdb` in a directory of its
    own (trust authentication, UTF-8, C locale), reached through a Unix
    socket in that directory only (`listen_addresses` empty: no TCP port).
    PostgreSQL refuses to run as root, so under root its programs run as the
    `postgres` user (`runuser -u postgres --`) in a directory given to it.
    The server runs under a shell whose standard input is a pipe from this
    script: when the script ends it, or dies, the shell asks the server for
    a fast shutdown, so no server outlives the run. Readiness is the
    server's own "ready to accept connections" line."""

    READY = "database system is ready to accept connections"

    def __init__(self, log_path):
        self.bindir = self.find_bindir()
        self.user, self.runuser, self.owner = "postgres", None, None
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                raise SetupError("PostgreSQL refuses to run as root, and there is no 'postgres' user to run it as "
                                 "(Debian's postgresql package creates one)")
            self.runuser = shutil.which("runuser") or next(
                (p for p in ("/usr/sbin/runuser", "/sbin/runuser") if os.access(p, os.X_OK)), None)
            if self.runuser is None:
                raise SetupError("PostgreSQL refuses to run as root, and runuser (util-linux) is missing")
            if os.stat("/etc/passwd").st_mode & 0o004 == 0:
                raise SetupError("/etc/passwd is not readable to 'postgres', so initdb cannot look up its own user "
                                 "('could not look up effective user ID'); Debian's standard mode is 644")
            self.owner = (account.pw_uid, account.pw_gid)
        else:
            self.user = pwd.getpwuid(os.geteuid()).pw_name
        # A short path of its own: the socket's path must fit sockaddr_un,
        # and the run's directory (mode 0700, root's) is closed to 'postgres'.
        self.directory = tempfile.mkdtemp(prefix="sharekit-chaos-pg.", dir="/tmp")
        self.socket = os.path.join(self.directory, "socket")
        os.mkdir(self.socket, 0o700)
        for path in (self.directory, self.socket):
            if self.owner:
                os.chown(path, *self.owner)
        self.log = open(log_path, "ab", buffering=0)
        self.proc = None

    @staticmethod
    def find_bindir():
        candidates = []
        if os.environ.get("SHAREKIT_POSTGRES_BINDIR"):
            candidates.append(os.environ["SHAREKIT_POSTGRES_BINDIR"])
        if shutil.which("pg_config"):
            out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
            if out.returncode == 0:
                candidates.append(out.stdout.strip())
        versions = os.listdir("/usr/lib/postgresql") if os.path.isdir("/usr/lib/postgresql") else []
        candidates += [f"/usr/lib/postgresql/{v}/bin" for v in sorted((v for v in versions if v.isdigit()),
                                                                          key=int, reverse=True)]
        for directory in candidates:
            if all(os.access(os.path.join(directory, p), os.X_OK) for p in ("initdb", "postgres", "psql")):
                return directory
        raise SetupError("PostgreSQL's server programs (initdb, postgres, psql) are not installed (looked in "
                         f"{', '.join(candidates) or '/usr/lib/postgresql/*/bin'}); on Debian: apt-get install "
                         "postgresql, or set SHAREKIT_POSTGRES_BINDIR")

    def command(self, program, *arguments):
        argv = [os.path.join(self.bindir, program), *arguments]
        return [self.runuser, "-u", "postgres", "--", *argv] if self.runuser else argv

    def start(self):
        data = os.path.join(self.directory, "data")
        made = subprocess.run(self.command("initdb", "-D", data, "-U", self.user, "--auth=trust", "-E", "UTF8",
                                           "--locale=C", "--no-sync", "--no-instructions"),
                              capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
        if made.returncode != 0:
            raise SetupError(f"initdb failed (exit {made.returncode}): {made.stderr.strip()[-500:]}")
        script = '"$@" </dev/null & server=$!; cat >/dev/null; kill -INT "$server" 2>/dev/null; wait "$server"'
        # Durability of PostgreSQL itself is not what this run tests (it
        # kills share-server processes, never PostgreSQL): no fsync.
        self.proc = subprocess.Popen(
            self.command("/bin/sh", "-c", script, "sh", os.path.join(self.bindir, "postgres"), "-D", data,
                         "-k", self.socket, "-c", "listen_addresses=", "-c", "fsync=off",
                         "-c", "max_connections=50", "-c", "unix_socket_permissions=0700"),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "LC_ALL": "C"})
        for line in self.proc.stdout:
            self.log.write(line)
            if self.READY.encode() in line:
                break
        else:
            self.proc.wait()
            raise SetupError(f"PostgreSQL did not start (see {self.log.name})")
        threading.Thread(target=self._copy_log, daemon=True).start()
        self.psql("CREATE DATABASE sharekit")

    def _copy_log(self):
        for line in self.proc.stdout:
            try:
                self.log.write(line)
            except ValueError:
                return  # the log was closed at the end of the run

    def uri(self):
        return (f"postgresql://{self.user}@/sharekit?host={urllib.parse.quote(self.socket, safe='/')}"
                f"&port=5432")

    def psql(self, sql, database="postgres"):
        """Runs SQL through psql (an independent client); its unaligned, tuples-only output."""
        out = subprocess.run([os.path.join(self.bindir, "psql"), "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1",
                              "-h", self.socket, "-p", "5432", "-U", self.user, "-d", database, "-c", sql],
                             capture_output=True, text=True, env={**os.environ, "PGCONNECT_TIMEOUT": "10"})
        if out.returncode != 0:
            raise SetupError(f"psql failed: {out.stderr.strip()[-500:]}")
        return out.stdout

    def stop(self, remove):
        """A fast shutdown (the shell's input ends), then the directory goes unless kept."""
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        self.log.close()
        if remove:
            shutil.rmtree(self.directory, ignore_errors=True)


# ---------------------------------------------------------------- processes


class Run:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.work = tempfile.mkdtemp(prefix="sharekit-chaos.")
        self.container = os.path.join(self.work, "container")
        self.env = dict(os.environ)
        self.env.update({
            "SHAREKIT_KEYCHAIN": "file",
            "SHAREKIT_KEYCHAIN_DIR": os.path.join(self.work, "keychain"),
            "SHAREKIT_CONTAINER_DIR": self.container,
        })
        # The clients give up on a request that moved nothing for this long,
        # so a delayed request (--delay) outlasts their timeout.
        self.env["SHAREKIT_HTTP_STALL_SECONDS"] = str(args.client_stall)
        for name in ("SHAREKIT_STATE_DIR", "SHAREKIT_RUNTIME_DIR", "SHAREKIT_SERVER", "SHAREKIT_VERBOSE"):
            self.env.pop(name, None)
        self.db = os.path.join(self.work, "server.db")
        # What --db names: the SQLite file, or the PostgreSQL database's URI
        # (set once PostgreSQL runs).
        self.db_arg = self.db
        self.postgres = None
        # The server processes (None while one is down) and their ports,
        # kept across restarts so the proxy's list of upstreams stays right.
        self.servers = [None] * args.servers
        self.server_ports = [None] * args.servers
        # With several servers, all of them serve the proxy's origin
        # (--public-origin), which is the one the clients use.
        self.public_origin = None
        # What a share goes to (`--to`), and the refusals a share may be
        # made to meet with the target each one uses (the rest keep a drawn target).
        self.targets = TARGETS
        self.invalid_kinds = ["too-large", "unknown-thread"]
        self.invalid_targets = {"unknown-thread": "thread:t404"}
        # The homeserver of `--backend matrix` (None for share-server).
        self.synapse = None
        self.daemon = None
        self.children = set()
        self.lock = threading.Lock()
        self.stopping = False
        self.kills = {"cli": 0, "daemon": 0, "server": 0}
        # Opened once: every restart of a server or daemon appends to the same
        # log (unbuffered, so the lines of killed processes are all there).
        self.server_log = open(os.path.join(self.work, "server.log"), "ab", buffering=0)
        self.daemon_log = open(os.path.join(self.work, "daemon.log"), "ab", buffering=0)

    # -- bookkeeping of every child, so that every exit path ends them
    def spawn(self, argv, env=None, **kw):
        proc = subprocess.Popen(argv, env=env or self.env, start_new_session=True, **kw)
        with self.lock:
            self.children.add(proc)
        return proc

    def reap(self, proc):
        with self.lock:
            self.children.discard(proc)

    def kill_all(self):
        with self.lock:
            procs = list(self.children)
        for proc in procs:
            if proc.poll() is None:
                try:
                    proc.kill()
                except OSError:
                    pass
            try:
                proc.wait(timeout=10)
            except Exception:
                pass

    def end(self, proc):
        """SIGKILLs one child and reaps it."""
        proc.kill()
        proc.wait()
        self.reap(proc)

    def close_logs(self):
        self.server_log.close()
        self.daemon_log.close()

    def bin(self, name):
        return os.path.join(self.args.bin, name)

    # -- the servers
    def server_argv(self, listen):
        argv = [self.bin("share-server"), "--listen", listen, "--db", self.db_arg, "--seed",
                os.path.join(self.work, "seed.json"), "--quiet"]
        if self.args.db == "postgresql":
            # One uploads folder for every process (with SQLite it is the
            # folder next to the database file, shared already).
            argv += ["--uploads", os.path.join(self.work, "uploads")]
        if self.public_origin is not None:
            argv += ["--public-origin", self.public_origin]
        return argv

    def start_server(self, index=0):
        listen = f"127.0.0.1:{self.server_ports[index] or 0}"
        for attempt in range(50):
            proc = self.spawn(self.server_argv(listen), stdout=subprocess.PIPE, stderr=self.server_log)
            line = proc.stdout.readline().decode().strip()
            if line.startswith("listening on http"):
                self.servers[index] = proc
                # The line names the address listened on (also with --public-origin).
                self.server_ports[index] = int(line.rsplit(":", 1)[1])
                return
            proc.wait()
            self.reap(proc)
            if self.server_ports[index] is None:
                break  # not a port still held by a killed server: it cannot start
            time.sleep(0.1)  # the port may still be held by the killed server
        with open(os.path.join(self.work, "server.log"), "rb") as f:
            tail = f.read()[-600:].decode(errors="replace").strip()
        raise SetupError(f"server {index + 1} did not start on {listen} (see {self.work}/server.log):\n{tail}")

    def kill_server(self, index=0):
        if self.servers[index] is not None:
            self.end(self.servers[index])
            self.servers[index] = None
            self.kills["server"] += 1

    def stop_servers(self):
        """SIGTERM (a graceful stop) for every running server, then reaps them."""
        for index, proc in enumerate(self.servers):
            if proc is not None:
                proc.terminate()
                proc.wait()
                self.reap(proc)
                self.servers[index] = None

    # -- the daemon
    def start_daemon(self):
        proc = self.spawn([self.bin("share-daemon"), "--interval", "0.5", "--lease", "3", "--verbose"],
                          stdout=subprocess.PIPE, stderr=self.daemon_log)
        deadline = time.time() + 30
        # Ready or not (another daemon's lock, a server that is down): it runs.
        while time.time() < deadline:
            line = proc.stdout.readline()
            if not line or b"ready" in line:
                break
        threading.Thread(target=lambda: proc.stdout.read(), daemon=True).start()
        self.daemon = proc

    def kill_daemon(self):
        if self.daemon is not None:
            self.end(self.daemon)
            self.daemon = None
            self.kills["daemon"] += 1

    def run_tool(self, argv, stdin=None, timeout=120):
        proc = self.spawn(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        self.reap(proc)
        return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


# ---------------------------------------------------------------- shares


# Each of the 256 byte values as one of the note files' characters.
TEXT_BYTES = bytes(b"abcdefghij klmnop\n"[i % 18] for i in range(256))


def make_share(run, index):
    rng = run.rng
    token = f"chaos-{run.args.seed}-{index}"
    folder = os.path.join(run.work, "files", str(index))
    os.makedirs(folder)
    files = []
    for n in range(rng.choice([0, 0, 1, 1, 2, 3, 4])):
        kind = rng.random()
        if kind < 0.4:
            size = rng.randint(1, 4096)
        elif kind < 0.9:
            size = PART * rng.randint(1, 4) + rng.randint(0, PART - 1)
        else:
            size = PART * rng.randint(5, 12)
        if rng.random() < 0.5:
            name = f"note-{n}.txt"
            # Random bytes mapped onto the alphabet in C: a character at a
            # time in Python made writing a 10,000-share run's files take
            # longer than sending them.
            data = rng.randbytes(size).translate(TEXT_BYTES)
        else:
            name = f"blob-{n}.bin"
            data = rng.randbytes(size)
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(data)
        files.append({"path": path, "size": size, "sha256": hashlib.sha256(data).hexdigest(),
                      "composite": composite_sha256(data, PART)})
    invalid = None
    if rng.random() < run.args.invalid_rate:
        invalid = rng.choice(run.invalid_kinds)
        if invalid == "too-large":
            path = os.path.join(folder, "huge.bin")
            with open(path, "wb") as f:
                f.write(rng.randbytes(MAX_UPLOAD + 1))
            files.append({"path": path, "size": MAX_UPLOAD + 1, "sha256": None})
    target = run.invalid_targets[invalid] if invalid in run.invalid_targets else rng.choice(run.targets)
    argv = [run.bin("share"), "send", *[f["path"] for f in files], "--comment", token, "--to", target, "--json",
            "--no-progress"]
    if not files or rng.random() < 0.5:
        argv += ["--text", " ".join(rng.choice(["alpha", "beta", "gamma", "delta", "résumé", "🙂"])
                                    for _ in range(rng.randint(1, 12)))]
    if target.startswith("new-post:"):
        argv += ["--new-post", post_title(token)]
    kill_after = rng.uniform(0.05, 3.0) if rng.random() < run.args.kill_cli_rate else None
    return {"index": index, "token": token, "files": files, "target": target, "argv": argv, "invalid": invalid,
            "kill_after": kill_after, "status": None, "client_msg_id": None, "exit": None}


def post_title(token):
    # The token first and a word after it: searching for the whole title
    # finds this post and no other (chaos-7-12 is a prefix of chaos-7-123).
    return f"{token} post"


def run_share(run, share):
    proc = run.spawn(share["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=share["kill_after"] or run.args.cli_timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        share["killed"] = True
        with run.lock:
            run.kills["cli"] += 1
    run.reap(proc)
    share["exit"] = proc.returncode
    share["stderr"] = err.decode(errors="replace")[-2000:]
    if share.get("killed"):
        share["status"] = "unknown"
        return
    try:
        result = json.loads(out.decode().strip().splitlines()[-1])
        share["status"] = result.get("status")
        share["client_msg_id"] = result.get("client_msg_id")
        # A refusal's reason (its code and message) is checked against the
        # refusal the share had to meet.
        share["result"] = result
    except (ValueError, IndexError, AttributeError):
        share["status"] = "error"
    expected = {0: "sent", 3: "queued", 4: "rejected"}.get(proc.returncode, "error")
    if share["status"] != expected:
        share["mismatch"] = f"exit {proc.returncode} with status {share['status']}"


def chaos_loop(run, done):
    rng = random.Random(run.args.seed * 7919 + 1)
    while not done.wait(rng.uniform(1.0, run.args.kill_interval)):
        what = rng.choice(["daemon", "server", "daemon"])
        if what == "daemon":
            run.kill_daemon()
            if done.wait(rng.uniform(0.0, 1.0)):
                break
            run.start_daemon()
        elif run.synapse is not None:
            # The homeserver: SIGKILLed by its PID, restarted on the same
            # port and database (a restart takes seconds: Python imports).
            run.synapse.kill()
            run.kills["server"] += 1
            stop = done.wait(rng.uniform(0.0, 1.0))
            run.synapse.start()
            log(run.args, "killed and restarted Synapse")
            if stop:
                break
        else:
            # Either server (drawn only with several: a single server's run
            # replays the same kills with the same seed as before).
            index = rng.randrange(len(run.servers)) if len(run.servers) > 1 else 0
            what = f"server {index + 1}" if len(run.servers) > 1 else "server"
            run.kill_server(index)
            if done.wait(rng.uniform(0.0, 1.0)):
                run.start_server(index)
                break
            run.start_server(index)
        log(run.args, f"killed and restarted the {what}")


# ---------------------------------------------------------------- checks


def container_leftovers(run):
    found = []
    # A resumable upload's record whose file is gone: nobody will resume it.
    uploads = os.path.join(run.container, "uploads")
    if os.path.isdir(uploads):
        for name in sorted(os.listdir(uploads)):
            if name.startswith("upload-") and name.endswith(".json"):
                try:
                    with open(os.path.join(uploads, name)) as f:
                        path = json.load(f)["identity"]["path"]
                except (OSError, ValueError, KeyError, TypeError):
                    path = None
                if path is None or not os.path.exists(path):
                    found.append(f"{uploads}/{name} (upload record of the gone {path})")
    # A refused send stays in the outbox as `failed` with its reason and files.
    failed = {row[0] for row in outbox_rows(run) if row[1] == "failed"}
    # Anything in .staging (a draft, an empty folder, an unfinished removal)
    # after the drain's scans is something a dead process left behind.
    staging = os.path.join(run.container, "inbox", ".staging")
    if os.path.isdir(staging):
        found += [os.path.join(staging, n) for n in sorted(os.listdir(staging))]
    for root, _, names in os.walk(os.path.join(run.container, "daemon", "outbox", "files")):
        if os.path.basename(root) in failed:
            continue
        found += [os.path.join(root, n) for n in names]
    inbox = os.path.join(run.container, "inbox")
    if os.path.isdir(inbox):
        for name in os.listdir(inbox):
            if not name.startswith("."):
                found.append(os.path.join(inbox, name))
        quarantine = os.path.join(inbox, ".quarantine")
        if os.path.isdir(quarantine):
            found += [os.path.join(quarantine, n) for n in os.listdir(quarantine)]
    return found


def outbox_rows(run):
    path = os.path.join(run.container, "daemon", "outbox.db")
    if not os.path.exists(path):
        return []
    con = sqlite3.connect(path, timeout=30)
    try:
        return con.execute("SELECT client_msg_id, state, text, last_error FROM outbox").fetchall()
    finally:
        con.close()


def age_creation_names(run):
    """Sets back by two minutes the clock of every folder in `.staging` still
    under its creation name (`<id>.<random>.new`).

    Every CLI and daemon is stopped by now, so such a draft is a writer's
    killed between its mkdir and its lock. A scan leaves one alone for a
    minute (its writer could be alive in that instant) and deletes it after;
    a run is shorter than that minute, so the folder is aged instead of
    waited for, and the drain's scans must delete it like any other."""
    staging = os.path.join(run.container, "inbox", ".staging")
    if not os.path.isdir(staging):
        return
    past = time.time() - 120
    for name in sorted(os.listdir(staging)):
        if name.endswith(".new"):
            os.utime(os.path.join(staging, name), (past, past))
            log(run.args, f"aged the creation name {name} past the scan's grace")


def drain(run):
    """Faults off, the daemon stopped; `--once --lease 0 --retry-now` until nothing is left to send."""
    for _ in range(run.args.drain_passes):
        # --retry-now: the faults are off, the server is back; a send whose
        # backoff grew to minutes during the storm goes now, as it would when
        # a person asks for it (a pass never waits for a backoff).
        rc, _, err = run.run_tool([run.bin("share-daemon"), "--once", "--lease", "0", "--retry-now"], timeout=120)
        run.daemon_log.write(err.encode())
        pending = [r for r in outbox_rows(run) if r[1] in ("pending", "sending")]
        rc, out, _ = run.run_tool([run.bin("share"), "inbox", "list", "--json"])
        entries = inbox_entries(out)
        if not pending and not entries:
            return
        time.sleep(0.5)  # a backoff's next attempt is in the future; let it come


def inbox_entries(out):
    try:
        value = json.loads(out)
    except ValueError:
        return ["(unreadable inbox list)"]
    if isinstance(value, dict):
        return value.get("entries") or []
    return value


class CheckError(Exception):
    pass


def api_get(run, paths):
    """GETs every path with `share debug get` (one process, one JSON answer per line)."""
    answers = []
    for start in range(0, len(paths), 500):
        chunk = paths[start:start + 500]
        rc, out, err = run.run_tool([run.bin("share"), "debug", "get", *chunk], timeout=600)
        lines = out.splitlines()
        if rc != 0 or len(lines) != len(chunk):
            raise CheckError(f"share debug get failed (exit {rc}): {err.strip()[-500:]}")
        answers += [json.loads(line) for line in lines]
    return answers


def api_messages(run, shares):
    """What the server holds, through its API: every message of t1, t2, c1's
    timeline and the forum c2, and every new post a share asked for (found by
    its exact title); client_msg_id -> [(id, text, sorted (size, sha256))]."""
    titles = sorted({post_title(s["token"]) for s in shares if s["target"].startswith("new-post:")})
    found = api_get(run, [f"/api/v1/threads/search?q={urllib.parse.quote(t)}&limit=100" for t in titles])
    threads = ["t1", "t2", "t3"]
    for title, result in zip(titles, found):
        threads += [t["id"] for t in result if t.get("title") == title]
    pending = [f"/api/v1/threads/{t}/messages" for t in threads] + ["/api/v1/channels/c1/messages",
                                                                    "/api/v1/channels/c2/messages"]
    messages = {}
    while pending:
        next_round = []
        for path, page in zip(pending, api_get(run, pending)):
            for m in page["messages"]:
                atts = sorted((a["size"], a["sha256"]) for a in m["attachments"])
                messages.setdefault(m["client_msg_id"], []).append((m["id"], m["text"], atts))
            if page.get("next"):
                next_round.append(path.split("?")[0] + f"?after={page['next']}")
        pending = next_round
    for found in messages.values():
        found.sort()
    reuse = len(api_get(run, ["/api/v1/audit?kind=refresh_reuse"])[0]["items"])
    return messages, reuse


def composite_sha256(data, part_size):
    """The composite digest of a file (`sha256-composite`): the SHA-256 of
    its parts' SHA-256 digests, the parts cut at part_size (an empty file is
    one empty part)."""
    digests = b"".join(hashlib.sha256(data[i:i + part_size]).digest()
                       for i in range(0, max(len(data), 1), part_size))
    return hashlib.sha256(digests).hexdigest()


def attachments_match(atts, files):
    """Whether a message's (size, sha256) attachments are exactly the share's
    files: each attachment's digest is its file's plain SHA-256 or, for an
    upload made with the composite digest, the composite one."""
    if len(atts) != len(files):
        return False
    left = list(files)
    for size, digest in atts:
        match = next((f for f in left if f["size"] == size and digest in (f["sha256"], f.get("composite"))), None)
        if match is None:
            return False
        left.remove(match)
    return True


def db_messages(run):
    """The same view, read from the server's database (the cross-check):
    the SQLite file, or PostgreSQL through psql."""
    if run.postgres is not None:
        return postgres_messages(run)
    con = sqlite3.connect(f"file:{run.db}?mode=ro", uri=True, timeout=30)
    messages = {}
    for mid, cmid, text in con.execute("SELECT id, client_msg_id, text FROM messages"):
        atts = con.execute(
            "SELECT u.size, u.sha256 FROM message_attachments a JOIN uploads u ON u.id = a.upload_id "
            "WHERE a.message_id = ?", (mid,)).fetchall()
        messages.setdefault(cmid, []).append((mid, text, sorted(atts)))
    reuse = con.execute("SELECT COUNT(*) FROM audit WHERE kind = 'refresh_reuse'").fetchone()[0]
    con.close()
    for found in messages.values():
        found.sort()
    return messages, reuse


POSTGRES_VIEW = """
SELECT json_build_object(
  'messages', (SELECT coalesce(json_agg(json_build_array(m.id, m.client_msg_id, m.text,
      (SELECT coalesce(json_agg(json_build_array(u.size, u.sha256)), '[]'::json)
         FROM message_attachments a JOIN uploads u ON u.id = a.upload_id WHERE a.message_id = m.id))), '[]'::json)
    FROM messages m),
  'reuse', (SELECT COUNT(*) FROM audit WHERE kind = 'refresh_reuse'))
"""


def postgres_messages(run):
    """db_messages for PostgreSQL: one JSON document from psql, in the shapes sqlite3 gives."""
    view = json.loads(run.postgres.psql(POSTGRES_VIEW, database="sharekit"))
    messages = {}
    for mid, cmid, text, atts in view["messages"]:
        messages.setdefault(cmid, []).append((mid, text, sorted(tuple(a) for a in atts)))
    for found in messages.values():
        found.sort()
    return messages, view["reuse"]


def check(run, shares, messages, reuse, db_view):
    problems, lost, duplicated = [], 0, 0
    if db_view != (messages, reuse):
        db_messages_, db_reuse = db_view
        only_db = sorted(set(db_messages_) - set(messages))[:5]
        problems.append(f"the server's API and its database disagree ({len(messages)} vs {len(db_messages_)} "
                        f"client_msg_ids, refresh_reuse {reuse} vs {db_reuse}; only in the database: {only_db})")
    by_token = {}
    for cmid, found in messages.items():
        for _, text, _ in found:
            for word in set(text.split()):
                if word.startswith(f"chaos-{run.args.seed}-"):
                    by_token.setdefault(word, []).append(cmid)
    rows = outbox_rows(run)
    outbox_by_token = {}
    for cmid, state, text, error in rows:
        for word in text.split():
            if word.startswith(f"chaos-{run.args.seed}-"):
                outbox_by_token.setdefault(word, []).append((cmid, state, error))

    for cmid, found in messages.items():
        if len(found) > 1:
            duplicated += len(found) - 1
            problems.append(f"duplicated: client_msg_id {cmid} is {len(found)} messages")
    for share in shares:
        token, status = share["token"], share["status"]
        cmids = sorted(set(by_token.get(token, [])))
        if len(cmids) > 1:
            duplicated += len(cmids) - 1
            problems.append(f"duplicated: share {token} ({status}) is on the server as {cmids}")
        found = [m for c in cmids for m in messages[c]]
        want = sorted((f["size"], f["sha256"]) for f in share["files"])
        if share["invalid"]:
            if found:
                problems.append(f"lost (a refused share exists): {token} {share['invalid']} as {cmids}")
                lost += 1
            continue
        if status == "rejected":
            if found:
                duplicated += 1
                problems.append(f"reported rejected but exists: {token} {cmids}")
            continue
        if status in ("sent", "queued"):
            if share["client_msg_id"] not in messages:
                lost += 1
                rows_for = outbox_by_token.get(token)
                problems.append(f"lost: {token} reported {status} as {share['client_msg_id']}, not on the server "
                                f"(outbox: {rows_for}); stderr: {share['stderr'].strip()[-300:]}")
                continue
        elif not found:
            # A killed (or failed) CLI: if its entry was written, the daemon took it.
            for cmid, state, error in outbox_by_token.get(token, []):
                if state != "failed":
                    lost += 1
                    problems.append(f"lost: {token} ({status}) outbox row {cmid} {state}, not on the server")
            continue
        for mid, text, atts in found[:1]:
            if not attachments_match(atts, share["files"]):
                lost += 1
                problems.append(f"wrong attachments: {token} message {mid}: {atts} != {want}")
    leftovers = container_leftovers(run)
    leftovers += [f"outbox row {r[0]} {r[1]}" for r in rows if r[1] in ("pending", "sending")]
    if reuse:
        leftovers.append(f"{reuse} refresh_reuse audit rows")
    for share in shares:
        if share.get("mismatch"):
            problems.append(f"exit code and status disagree for {share['token']}: {share['mismatch']}")
    return lost, duplicated, leftovers, problems


# ---------------------------------------------------------------- Matrix


SYNAPSE_SERVER_NAME = "localhost"
# The room member who makes the rooms and reads them back for the check
# (a Synapse admin: another person than the one who shares).
READER, READER_PASSWORD = "sam", "sam-chaos-pass"
# Each refusal a share must meet: the codes the CLI's `--json` may give it,
# and words its reason must hold, whoever refused it (the CLI's `reason`, or
# the outbox row's `last_error` when the homeserver refused the daemon).
# An unknown room is refused by the CLI (`unknown_target`: no joined room
# has that id) or, when the CLI could not list the rooms and took the id
# as it is, by Synapse (403, "not in room"): `write_forbidden`.
MATRIX_REFUSALS = {
    "too-large": ({"too_large", "file_too_large"}, "1000000"),
    "unknown-room": ({"unknown_target", "write_forbidden"}, "!nosuchroom"),
    "read-only": ({"write_forbidden"}, "write"),
}
# Straight to Synapse, never through the fault proxy (the run's own
# environment may name an HTTP proxy too).
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port():
    """A free loopback port: a listener the system gave port 0, closed again
    (Synapse takes no port 0 and names none). Another process may take it
    before Synapse does; Synapse.start then tries another one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
    finally:
        probe.close()


class Synapse:
    """A Synapse homeserver of the run's own (`--backend matrix`): the
    virtual environment `SHAREKIT_SYNAPSE_VENV` names (default
    /opt/sharekit-synapse, where .ci/run installs it), SQLite and media in
    `synapse/` of the work directory, one loopback port kept across
    restarts. Users are registered with the configuration's shared secret
    (registration is otherwise closed), and the rate limits are raised: the
    run's storm of requests is one person's, not an attack to be slowed."""

    def __init__(self, run):
        self.run = run
        venv = os.environ.get("SHAREKIT_SYNAPSE_VENV") or "/opt/sharekit-synapse"
        self.python = os.path.join(venv, "bin", "python")
        if not os.access(self.python, os.X_OK):
            raise SetupError(f"no Synapse at {venv}: set SHAREKIT_SYNAPSE_VENV to a virtual environment with "
                             "matrix-synapse installed (.ci/run makes one)")
        self.directory = os.path.join(run.work, "synapse")
        os.makedirs(self.directory, mode=0o700)
        self.secret = secrets.token_hex(24)
        self.port = None
        self.proc = None
        self.lock = threading.Lock()
        self.log_path = os.path.join(self.directory, "synapse.log")

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def configure(self, port):
        self.port = port
        d = self.directory
        config = f"""server_name: "{SYNAPSE_SERVER_NAME}"
pid_file: {d}/homeserver.pid
listeners:
  - port: {port}
    bind_addresses: ['127.0.0.1']
    type: http
    tls: false
    x_forwarded: false
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: {d}/homeserver.db
media_store_path: {d}/media
signing_key_path: {d}/signing.key
registration_shared_secret: "{self.secret}"
enable_registration: false
report_stats: false
trusted_key_servers: []
suppress_key_server_warning: true
refreshable_access_token_lifetime: {self.run.args.token_lifetime}s
max_upload_size: {MAX_UPLOAD}
url_preview_enabled: false
rc_message: {{per_second: 1000, burst_count: 1000}}
rc_registration: {{per_second: 1000, burst_count: 1000}}
rc_joins:
  local: {{per_second: 1000, burst_count: 1000}}
rc_login:
  address: {{per_second: 1000, burst_count: 1000}}
  account: {{per_second: 1000, burst_count: 1000}}
  failed_attempts: {{per_second: 1000, burst_count: 1000}}
rc_media_create: {{per_second: 1000, burst_count: 1000}}
"""
        path = os.path.join(d, "hs.yaml")
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(config)
        return path

    def first_start(self):
        """Generates the signing key and starts Synapse on a free port (another
        one if a process took the first before Synapse could)."""
        for attempt in range(5):
            config = self.configure(free_port())
            if attempt == 0:
                made = subprocess.run([self.python, "-m", "synapse.app.homeserver", "-c", config, "--generate-keys"],
                                      capture_output=True, text=True, env=self.environment())
                if made.returncode != 0:
                    raise SetupError(f"synapse --generate-keys failed: {made.stderr.strip()[-800:]}")
            if self.start(setup=True):
                return
        raise SetupError(f"Synapse did not start (see {self.log_path})")

    def environment(self):
        # Not the clients' environment: no proxy, no ShareKit variables.
        return {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}

    def start(self, setup=False):
        """Starts Synapse (unless it runs) on its port and database, and
        waits until `/_matrix/client/versions` answers. False when it exited
        first during the setup (its port taken); any other failure to start
        is a SetupError."""
        with self.lock:
            if self.proc is not None:
                return True
            deadline = time.time() + 120
            while True:
                # Through a shell that execs Python: the output goes to the
                # log (a pipe nobody reads would stop it), the PID is Synapse's.
                proc = self.run.spawn(
                    ["/bin/sh", "-c", 'exec "$0" -m synapse.app.homeserver -c "$1" >>"$2" 2>&1', self.python,
                     os.path.join(self.directory, "hs.yaml"), self.log_path],
                    env=self.environment(), stdin=subprocess.DEVNULL)
                while time.time() < deadline and proc.poll() is None:
                    if self.answers():
                        self.proc = proc
                        return True
                    time.sleep(0.1)  # a poll interval: the loop ends on the answer
                if proc.poll() is None:
                    self.run.end(proc)
                    break
                self.run.reap(proc)
                if setup:
                    return False
                if time.time() >= deadline or self.run.stopping:
                    break
                time.sleep(0.2)  # the killed one's port may not be free yet; poll again
        with open(self.log_path, "rb") as f:
            tail = f.read()[-1500:].decode(errors="replace").strip()
        raise SetupError(f"Synapse did not start on port {self.port} (see {self.log_path}):\n{tail}")

    def answers(self):
        try:
            return self.call("GET", "/_matrix/client/versions", timeout=2)[0] == 200
        except OSError:
            return False

    def kill(self):
        """SIGKILL by its PID, as a crash: the database and media stay."""
        with self.lock:
            if self.proc is not None:
                self.run.end(self.proc)
                self.proc = None

    def stop(self):
        """SIGTERM (a graceful stop, so its SQLite file is whole for the
        cross-check), SIGKILL after 30 s."""
        with self.lock:
            if self.proc is None:
                return
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.run.reap(self.proc)
            self.proc = None

    def call(self, method, path, token=None, body=None, timeout=30):
        """One request straight to Synapse: (status, JSON object or None, bytes)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.origin + path, data=data, method=method)
        if token:
            request.add_header("Authorization", "Bearer " + token)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with DIRECT.open(request, timeout=timeout) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            value = json.loads(raw)
        except ValueError:
            value = None
        return status, value if isinstance(value, dict) else None, raw

    def must(self, method, path, token=None, body=None, what=""):
        status, value, raw = self.call(method, path, token, body)
        if status != 200 or value is None:
            raise SetupError(f"Synapse refused {what or path}: {status} {raw[:300].decode(errors='replace')}")
        return value

    def register(self, user, password, admin):
        """A user made with the shared secret (`/_synapse/admin/v1/register`);
        its access token."""
        nonce = self.must("GET", "/_synapse/admin/v1/register", what="a registration nonce")["nonce"]
        mac = hmac.new(self.secret.encode(), b"\0".join(
            [nonce.encode(), user.encode(), password.encode(), b"admin" if admin else b"notadmin"]), hashlib.sha1)
        answer = self.must("POST", "/_synapse/admin/v1/register", body={
            "nonce": nonce, "username": user, "password": password, "admin": admin, "mac": mac.hexdigest()},
            what=f"registering {user}")
        return answer["access_token"]


def user_id(name):
    return f"@{name}:{SYNAPSE_SERVER_NAME}"


def room_path(room):
    return "/_matrix/client/v3/rooms/" + urllib.parse.quote(room, safe="")


def matrix_setup(run, proxy):
    """Synapse behind the proxy, the person (alex) and a reader (sam, who
    makes the rooms): Team chat (also by its alias, and a thread of it),
    Design review, and Announcements, where posting needs a power level
    alex lacks (a read-only room). Returns the clients' origin."""
    synapse = run.synapse = Synapse(run)
    synapse.first_start()
    run.reader_token = synapse.register(READER, READER_PASSWORD, admin=True)
    person = synapse.register(USER, PASSWORD, admin=False)

    def create(name, **extra):
        body = {"name": name, "preset": "private_chat", "invite": [user_id(USER)], **extra}
        room = synapse.must("POST", "/_matrix/client/v3/createRoom", run.reader_token, body, f"room {name}")["room_id"]
        synapse.must("POST", f"/_matrix/client/v3/join/{urllib.parse.quote(room, safe='')}", person, {}, "a join")
        return room

    team = create("Team chat", room_alias_name="chaos-team")
    design = create("Design review")
    announcements = create("Announcements", power_level_content_override={"events": {"m.room.message": 50}})
    root = synapse.must("PUT", room_path(team) + "/send/m.room.message/chaos-root", run.reader_token,
                        {"msgtype": "m.text", "body": "Release planning"}, "the thread's root")["event_id"]
    # The registration's own device is not one of ShareKit's.
    synapse.must("POST", "/_matrix/client/v3/logout", person, {}, "a logout")
    run.rooms = [team, design, announcements]
    run.targets = [team, f"#chaos-team:{SYNAPSE_SERVER_NAME}", f"thread:{team}|{root}", design]
    # Where each target's events must land: (room, thread root or None).
    run.placement = {team: (team, None), run.targets[1]: (team, None), run.targets[2]: (team, root),
                     design: (design, None)}
    run.invalid_kinds = list(MATRIX_REFUSALS)
    run.invalid_targets = {"unknown-room": f"!nosuchroom:{SYNAPSE_SERVER_NAME}", "read-only": announcements}
    run.env["http_proxy"] = f"http://127.0.0.1:{proxy.port}"
    proxy.upstream_ports = [synapse.port]
    proxy.routed = [0]
    return synapse.origin


def event_view(event, room):
    """(event id, room, sender, share id, part, content) of an m.room.message, or None without a share id."""
    content = event.get("content") or {}
    share_id = content.get("org.sharekit.share_id")
    if not isinstance(share_id, str):
        return None
    return (event.get("event_id"), room, event.get("sender"), share_id, content.get("org.sharekit.part"),
            json.dumps(content, sort_keys=True))


def matrix_api_events(run):
    """Every m.room.message with a share id in every room, read through the
    client-server API as the reader (`/messages`, from the room's start,
    following `end`); sorted views (event_view)."""
    synapse, found = run.synapse, []
    for room in run.rooms:
        token = None
        for _ in range(10000):
            query = "dir=f&limit=500" + (f"&from={urllib.parse.quote(token, safe='')}" if token else "")
            page = synapse.must("GET", room_path(room) + "/messages?" + query, run.reader_token,
                                what="reading a room's timeline")
            for event in page.get("chunk") or []:
                if event.get("type") == "m.room.message":
                    view = event_view(event, room)
                    if view:
                        found.append(view)
            if not page.get("chunk") or not page.get("end"):
                break
            token = page["end"]
    return sorted(found)


def matrix_db_events(run):
    """The same view from Synapse's SQLite database (the cross-check), read
    after a graceful stop: the room's accepted events, not outliers."""
    con = sqlite3.connect(f"file:{os.path.join(run.synapse.directory, 'homeserver.db')}?mode=ro", uri=True,
                          timeout=30)
    try:
        rows = con.execute(
            "SELECT e.event_id, e.room_id, j.json FROM events e JOIN event_json j ON j.event_id = e.event_id "
            "WHERE e.type = 'm.room.message' AND NOT e.outlier "
            "AND e.event_id NOT IN (SELECT event_id FROM rejections)").fetchall()
    finally:
        con.close()
    found = []
    for event_id, room, text in rows:
        # Room versions 3 and later derive the event id; the stored JSON has none.
        event = {**json.loads(text), "event_id": event_id}
        view = event_view(event, room)
        if view:
            found.append(view)
    return found


def matrix_check(run, shares):
    """Counts every share's events in the rooms against what every CLI
    reported: (lost, duplicated, leftovers, problems, events)."""
    synapse, seed = run.synapse, run.args.seed
    try:
        events = matrix_api_events(run)
    except (SetupError, OSError, ValueError, KeyError, TypeError) as error:
        print(f"chaos: could not read the rooms through the client-server API: {error}", file=sys.stderr)
        return None
    problems, lost, duplicated = [], 0, 0
    by_share = {}
    for view in events:
        by_share.setdefault(view[3], []).append(view)
    # The media of every file event, hashed as a reader downloads it.
    digests = {}
    for view in events:
        content = json.loads(view[5])
        url = content.get("url")
        if isinstance(url, str) and url.startswith("mxc://") and url not in digests:
            status, _, raw = synapse.call("GET", "/_matrix/client/v1/media/download/" + url[len("mxc://"):],
                                          run.reader_token, timeout=60)
            digests[url] = (len(raw), hashlib.sha256(raw).hexdigest()) if status == 200 else (None, f"HTTP {status}")
    synapse.stop()
    db_view = sorted(matrix_db_events(run))
    if events != db_view:
        only_db = sorted({v[0] for v in db_view} - {v[0] for v in events})[:5]
        problems.append(f"the client-server API and Synapse's database disagree ({len(events)} vs {len(db_view)} "
                        f"events with a share id; only in the database: {only_db})")
    # Each share's ids: from its text's words (an m.text event, or a file's
    # caption), the CLI's report, the outbox's rows.
    rows = outbox_rows(run)
    ids_of = {}
    for share_id, views in by_share.items():
        for view in views:
            content = json.loads(view[5])
            body = content.get("body")
            captioned = content.get("msgtype") != "m.text" and content.get("filename") not in (None, body)
            if (content.get("msgtype") == "m.text" or captioned) and isinstance(body, str):
                for word in set(body.split()):
                    if word.startswith(f"chaos-{seed}-"):
                        ids_of.setdefault(word, set()).add(share_id)
    outbox_by_token = {}
    for cmid, state, text, error in rows:
        for word in (text or "").split():
            if word.startswith(f"chaos-{seed}-"):
                outbox_by_token.setdefault(word, []).append((cmid, state, error))
                if cmid in by_share:
                    ids_of.setdefault(word, set()).add(cmid)
    for share in shares:
        if share.get("client_msg_id") in by_share:
            ids_of.setdefault(share["token"], set()).add(share["client_msg_id"])

    for share_id, views in sorted(by_share.items()):
        parts = {}
        for view in views:
            parts.setdefault(view[4], []).append(view[0])
            if view[2] != user_id(USER):
                problems.append(f"share id {share_id} in an event {view[2]} sent")
        for part, ids in sorted(parts.items(), key=lambda p: str(p[0])):
            if len(ids) > 1:
                duplicated += len(ids) - 1
                problems.append(f"duplicated: share id {share_id} part {part} is {len(ids)} events {ids}")
    for share in shares:
        token, status = share["token"], share["status"]
        ids = sorted(ids_of.get(token, set()))
        if len(ids) > 1:
            duplicated += len(ids) - 1
            problems.append(f"duplicated: share {token} ({status}) is in the rooms as {ids}")
        result = share.get("result") or {}
        if share["invalid"]:
            if ids:
                lost += 1
                problems.append(f"lost (a refused share is in the rooms): {token} {share['invalid']} as {ids}")
            codes, words = MATRIX_REFUSALS[share["invalid"]]
            if status == "rejected" and (result.get("code") not in codes or words not in str(result.get("reason"))):
                problems.append(f"refused with the wrong reason: {token} {share['invalid']} is {result.get('code')} "
                                f"{result.get('reason')!r}")
            elif status not in ("rejected", "queued", "unknown", "error"):
                problems.append(f"a share that had to be refused ({share['invalid']}) was reported {status}: {token}")
            # Queued (the CLI could not ask the homeserver): the daemon's
            # refusal is kept in the outbox, with the homeserver's reason.
            kept = outbox_by_token.get(token, [])
            if status == "queued" and not kept:
                problems.append(f"refused share {token} ({share['invalid']}) reported queued has no outbox row")
            for cmid, state, error in kept:
                if state != "failed" or words not in (error or ""):
                    problems.append(f"refused share {token} ({share['invalid']}) has outbox row {cmid} {state} "
                                    f"without its reason kept: {error!r}")
            continue
        if status == "rejected":
            lost += 1
            problems.append(f"lost (a valid share was refused): {token} {result.get('code')}: {result.get('reason')}")
            continue
        if status in ("sent", "queued") and share["client_msg_id"] not in by_share:
            lost += 1
            problems.append(f"lost: {token} reported {status} as {share['client_msg_id']}, not in the rooms "
                            f"(outbox: {outbox_by_token.get(token)}); stderr: {share['stderr'].strip()[-300:]}")
            continue
        if not ids:
            # A killed (or failed) CLI: if its entry was written, the daemon took it.
            for cmid, state, error in outbox_by_token.get(token, []):
                lost += 1
                problems.append(f"lost: {token} ({status}) outbox row {cmid} {state} ({error}), not in the rooms")
            continue
        # One event per part: a second one is counted as duplicated above, not as a loss.
        views = list({view[4]: view for view in by_share[ids[0]]}.values())
        want_files = sorted(((f["size"], f["sha256"]) for f in share["files"]), key=str)
        got_files, text_parts, captions, places = [], 0, 0, set()
        for view in views:
            content = json.loads(view[5])
            relation = content.get("m.relates_to") or {}
            places.add((view[1], relation.get("event_id") if relation.get("rel_type") == "m.thread" else None))
            if content.get("msgtype") == "m.text":
                text_parts += 1
            else:
                got_files.append(digests.get(content.get("url"), (None, "no media URL")))
                # A caption (client-server API v1.10): the body is the text, the filename the file's name.
                if token in str(content.get("body", "")).split() and content.get("filename") != content.get("body"):
                    captions += 1
        # The text is a following m.text, or the last file's caption where the homeserver takes captions.
        files = len(share["files"])
        layouts = [(list(range(files + 1)), 1, 0)] + ([(list(range(files)), 0, 1)] if files else [])
        got_parts = sorted({view[4] for view in views}, key=str)
        want_parts = list(range(files + 1))
        if (got_parts, text_parts, captions) not in layouts or sorted(got_files, key=str) != want_files:
            lost += 1
            problems.append(f"incomplete: {token} as {ids[0]}: parts {got_parts} (want {want_parts}), "
                            f"files {sorted(got_files, key=str)} (want {want_files})")
        if places != {run.placement[share["target"]]}:
            problems.append(f"in the wrong place: {token} to {share['target']} is in {sorted(places, key=str)}")
    leftovers = container_leftovers(run)
    leftovers += [f"outbox row {r[0]} {r[1]}" for r in rows if r[1] in ("pending", "sending")]
    for share in shares:
        if share.get("mismatch"):
            problems.append(f"exit code and status disagree for {share['token']}: {share['mismatch']}")
    return lost, duplicated, leftovers, problems, len(events)


# ---------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--shares", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--bin", default=None, help="where share, share-daemon and share-server are")
    parser.add_argument("--fault-rate", type=float, default=0.15, help="share of requests that get a fault")
    parser.add_argument("--delay", type=float, default=4.0, help="seconds a delayed request is held")
    parser.add_argument("--client-stall", type=int, default=3,
                        help="SHAREKIT_HTTP_STALL_SECONDS of the clients (a delay beyond it is a timeout for them)")
    parser.add_argument("--kill-cli-rate", type=float, default=0.1)
    parser.add_argument("--kill-interval", type=float, default=8.0, help="most seconds between daemon/server kills")
    parser.add_argument("--invalid-rate", type=float, default=0.05)
    parser.add_argument("--cli-timeout", type=float, default=180.0)
    parser.add_argument("--drain-passes", type=int, default=60)
    parser.add_argument("--servers", type=int, default=1,
                        help="share-server processes on one database behind the proxy (requests spread over them)")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite",
                        help="the servers' database: one SQLite file, or a PostgreSQL server of the run's own")
    parser.add_argument("--backend", choices=["share-server", "matrix"], default="share-server",
                        help="what the clients share into: share-server, or a Synapse homeserver of the run's own "
                             "(SHAREKIT_SYNAPSE_VENV, default /opt/sharekit-synapse)")
    parser.add_argument("--token-lifetime", type=int, default=60,
                        help="with --backend matrix: seconds an access token lives before the clients refresh it")
    parser.add_argument("--rss-interval", type=float, default=2.0,
                        help="seconds between two samples of the daemon's resident memory")
    parser.add_argument("--rss-out", default=None,
                        help="also write the memory samples (CSV) here; the work directory may be removed")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    if args.shares < 1 or args.concurrency < 1:
        parser.error("--shares and --concurrency must be at least 1")
    if not 0.1 <= args.rss_interval <= 600:
        parser.error("--rss-interval must be 0.1 to 600 seconds")
    if not 1 <= args.servers <= 8:
        parser.error("--servers must be 1 to 8")
    if args.backend == "matrix" and (args.servers != 1 or args.db != "sqlite"):
        parser.error("--backend matrix runs one Synapse on SQLite: --servers and --db are the reference server's")
    if not 10 <= args.token_lifetime <= 86400:
        parser.error("--token-lifetime must be 10 to 86400 seconds")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 2**31)
    if args.bin is None:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        args.bin = subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, capture_output=True,
                                  text=True, check=True).stdout.strip()
    layout = "" if args.servers == 1 and args.db == "sqlite" else f" --servers {args.servers} --db {args.db}"
    if args.backend == "matrix":
        layout = " --backend matrix"
    print(f"chaos: seed {args.seed} (replay with --seed {args.seed} --shares {args.shares} "
          f"--concurrency {args.concurrency}{layout})", flush=True)
    run = Run(args)
    code = 2
    try:
        code = chaos(run)
    except KeyboardInterrupt:
        code = 130
    except SetupError as error:
        print(f"chaos: {error}", file=sys.stderr, flush=True)
        code = 2
    finally:
        run.stopping = True
        run.kill_all()
        if run.postgres is not None:
            run.postgres.stop(remove=not args.keep and code == 0)
        run.close_logs()
        if args.keep or code != 0:
            print(f"chaos: work directory kept at {run.work}", flush=True)
            if run.postgres is not None:
                print(f"chaos: PostgreSQL's cluster kept at {run.postgres.directory}", flush=True)
        if not args.keep and code == 0:
            shutil.rmtree(run.work, ignore_errors=True)
    sys.exit(code)


def rss_kib(pid):
    """The resident set of a process in KiB (VmRSS of /proc/PID/status), or
    None when it is gone (a kill can land between the read of the PID and
    the read of the file)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


class MemorySampler:
    """Samples the running daemon's resident memory every --rss-interval
    seconds, with how many shares had finished by then.

    The chaos loop kills and restarts the daemon, so a sample is of the
    daemon process alive at that moment: what one daemon costs with an
    outbox and a server holding that many shares, not one process's growth
    over the whole run. `rss.csv` in the work directory (and --rss-out) has
    `seconds,shares_done,rss_kib,daemon_pid`; `tools/chaos/rss-plot` draws it."""

    def __init__(self, run, finished):
        self.run = run
        self.finished = finished  # () -> shares finished so far
        self.samples = []
        self.done = threading.Event()
        self.started = time.time()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.milestone = 1000

    def start(self):
        self.thread.start()

    def stop(self):
        """Stops sampling after one last sample, taken once every share
        finished (so the run's last milestone has one), and writes the CSV."""
        self.done.set()
        self.thread.join()
        self._sample()
        self.write()

    def _loop(self):
        while not self.done.wait(self.run.args.rss_interval):
            self._sample()

    def _sample(self):
        daemon = self.run.daemon
        if daemon is None:
            return  # killed, not restarted yet
        rss = rss_kib(daemon.pid)
        if rss is None:
            return
        finished = self.finished()
        self.samples.append((round(time.time() - self.started, 1), finished, rss, daemon.pid))
        if finished >= self.milestone:
            # A line per thousand shares: a long run that is stopped
            # early has still said how far it got and at what speed.
            print(f"chaos: progress {finished}/{self.run.args.shares} shares, "
                  f"{time.time() - self.started:.0f}s, daemon RSS {rss / 1024:.1f} MiB", flush=True)
            self.milestone = (finished // 1000 + 1) * 1000
            self.write()

    def write(self):
        lines = ["seconds,shares_done,rss_kib,daemon_pid"] + [",".join(map(str, s)) for s in self.samples]
        paths = [os.path.join(self.run.work, "rss.csv")] + ([self.run.args.rss_out] if self.run.args.rss_out else [])
        for path in paths:
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")

    def at(self, shares):
        """The first sample taken once `shares` shares had finished, in KiB (None if none)."""
        return next((s[2] for s in self.samples if s[1] >= shares), None)

    def summary(self):
        if not self.samples:
            return "no sample of the daemon's memory (it was never up when sampled)"
        marks = sorted({m for m in (1000, self.run.args.shares) if m <= self.run.args.shares})
        parts = [f"at {m} shares {self.at(m) / 1024:.1f} MiB" for m in marks if self.at(m) is not None]
        peak = max(s[2] for s in self.samples)
        return (f"daemon RSS {', '.join(parts) or 'no milestone reached'}, peak {peak / 1024:.1f} MiB "
                f"({len(self.samples)} samples)")


def server_setup(run, proxy):
    """The reference server's side of the run: its seed, PostgreSQL when
    asked for, the servers behind the proxy; returns the clients' origin."""
    args = run.args
    with open(os.path.join(run.work, "seed.json"), "w") as f:
        json.dump({
            "users": [{"username": USER, "password": PASSWORD}],
            "spaces": [{"id": "s1", "name": "server", "channels": [
                {"id": "c1", "name": "Gateway", "kind": "chat", "readers": [USER], "writers": [USER]},
                {"id": "c2", "name": "Ideas", "kind": "forum", "readers": [USER], "writers": [USER]}]}],
            "threads": [{"id": "t1", "channel_id": "c1", "title": "resume the gateway"},
                        {"id": "t2", "channel_id": "c1", "title": "Gateway timeouts on upload"},
                        {"id": "t3", "channel_id": "c2", "title": "Share sheet ideas"}],
            "limits": {"upload_part_size": PART, "file_max_upload_bytes": MAX_UPLOAD, "message_max_attachments": 10},
            "accepted_content_types": ["text/plain", "application/octet-stream", "image/png", "application/pdf"],
        }, f)
    if args.db == "postgresql":
        run.postgres = Postgres(os.path.join(run.work, "postgres.log"))
        run.postgres.start()
        run.db_arg = run.postgres.uri()
    if args.servers == 1:
        run.start_server()
        # The clients keep the server's own origin (DPoP proofs name it in
        # htu) and reach it through the proxy as their HTTP proxy.
        origin = f"http://127.0.0.1:{run.server_ports[0]}"
        run.env["http_proxy"] = f"http://127.0.0.1:{proxy.port}"
    else:
        # A deployment behind a load balancer: the clients' origin is the
        # proxy's, and every server serves it (--public-origin) whichever
        # port it listens on.
        origin = run.public_origin = f"http://127.0.0.1:{proxy.port}"
        for index in range(args.servers):
            run.start_server(index)
    proxy.upstream_ports = list(run.server_ports)
    proxy.routed = [0] * args.servers
    return origin


def server_check(run, proxy, shares):
    """The check against the reference server (its API, then its database);
    (lost, duplicated, leftovers, problems, messages) or None when the API
    could not be read."""
    try:
        messages, reuse = api_messages(run, shares)
    except (CheckError, ValueError, KeyError, TypeError) as error:
        print(f"chaos: could not read the server's messages through its API: {error}", file=sys.stderr)
        return None
    run.stop_servers()
    lost, duplicated, leftovers, problems = check(run, shares, messages, reuse, db_messages(run))
    if run.args.servers > 1 and 0 in proxy.routed:
        problems.append(f"a server got no request: {proxy.routed} (the run did not spread the requests)")
    return lost, duplicated, leftovers, problems, len(messages)


def chaos(run):
    args = run.args
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    proxy = Proxy(args.seed, args.fault_rate, args.delay)
    for name in ("no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY", "HTTP_PROXY"):
        run.env.pop(name, None)
    origin = matrix_setup(run, proxy) if args.backend == "matrix" else server_setup(run, proxy)
    rc, out, err = run.run_tool([run.bin("share"), "login", "--server", origin, "--user", USER, "--password-stdin"],
                                stdin=(PASSWORD + "\n").encode())
    if rc != 0:
        print(f"chaos: share login failed: {err.strip()}", file=sys.stderr)
        return 2
    rc, _, err = run.run_tool([run.bin("share-daemon"), "--once"])
    if rc != 0:
        print(f"chaos: share-daemon --once failed: {err.strip()}", file=sys.stderr)
        return 2
    run.start_daemon()

    shares = [make_share(run, i) for i in range(args.shares)]
    proxy.faults(True)
    done = threading.Event()
    killer = threading.Thread(target=chaos_loop, args=(run, done), daemon=True)
    killer.start()
    queue = list(shares)
    qlock = threading.Lock()
    started = time.time()
    finished = [0]
    sampler = MemorySampler(run, lambda: finished[0])
    sampler.start()

    def worker():
        while True:
            with qlock:
                if not queue:
                    return
                share = queue.pop(0)
            run_share(run, share)
            with qlock:
                finished[0] += 1
            log(args, f"{share['token']} {share['status']} {share.get('client_msg_id')}")

    workers = [threading.Thread(target=worker, daemon=True) for _ in range(args.concurrency)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    done.set()
    killer.join()
    sampler.stop()
    proxy.faults(False)
    if run.synapse is not None:
        run.synapse.start()  # a no-op unless the last kill left it down
    for index, proc in enumerate(run.servers):
        if proc is None and run.synapse is None:
            run.start_server(index)
    if run.daemon is not None:
        run.end(run.daemon)  # stopped for the drain; not one of the chaos kills
        run.daemon = None
    log(args, f"sends done in {time.time() - started:.0f}s; draining; kills {run.kills}; faults {proxy.counts}")
    age_creation_names(run)
    drain(run)
    with open(os.path.join(run.work, "shares.json"), "w") as f:
        json.dump(shares, f, indent=1)
    checked = matrix_check(run, shares) if run.synapse is not None else server_check(run, proxy, shares)
    if checked is None:
        return 2
    lost, duplicated, leftovers, problems, message_count = checked
    for problem in problems:
        print(f"chaos: {problem}", flush=True)
    for item in leftovers[:20]:
        print(f"chaos: leftover: {item}", flush=True)
    count = {s: sum(1 for x in shares if x["status"] == s) for s in ("sent", "queued", "rejected")}
    other = args.shares - sum(count.values())
    spread = f"requests per server {proxy.routed}, " if args.servers > 1 else ""
    held = "events in the rooms" if run.synapse is not None else "messages on the server"
    print(f"chaos: kills {run.kills}, faults {dict(sorted(proxy.counts.items()))}, {spread}"
          f"{other} CLIs killed or failed, {message_count} {held}, "
          f"{time.time() - started:.0f}s", flush=True)
    print(f"chaos: {sampler.summary()}", flush=True)
    print(f"chaos: {args.shares} shares, {count['sent']} sent, {count['queued']} queued, {count['rejected']} rejected, "
          f"lost {lost}, duplicated {duplicated}, leftovers {len(leftovers)}", flush=True)
    return 0 if lost == 0 and duplicated == 0 and not leftovers and not problems else 1


if __name__ == "__main__":
    main()
