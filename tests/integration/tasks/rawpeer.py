#!/usr/bin/env python3
"""rawpeer.py HOST PORT CASE: play a hostile would-be peer pvmd against a
master's link port, and print what the master did: "closed" when it
closed the connection, "open" when it still held it after the wait, or
"challenge" when it answered a hello.  Used by t-hosts-bad.sh.

rawpeer.py rogue CASE -S -m HOST:PORT -iINDEX -H NAME (the secret on
stdin): run as a slave pvmd's launcher would run it, prove the secret,
join, then misbehave as CASE says.  Prints what the master did to
$ROGUE_OUT.  Used by t-hosts-rogue.sh."""
import hashlib
import hmac
import os
import re
import socket
import struct
import sys
import time

# The protocol version, from our own wire.h (it is bumped with formats).
WIRE_H = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "..", "common", "wire.h")
with open(WIRE_H) as f:
    VERSION = int(re.search(r"#define WIRE_VERSION (\d+)", f.read()).group(1))
with open(os.path.join(os.path.dirname(WIRE_H), "..", "daemon",
                       "auth.h")) as f:
    AUTH_VERSION = int(re.search(r"#define AUTH_VERSION (\d+)",
                                 f.read()).group(1))
MAGIC = 0x50564D34
SOM_EOM = 3
DM_HELLO, DM_PROOF = -0x7FF9FFFF, -0x7FF9FFFD  # 0x80060001, 0x80060003
SYSCTX_TM = 0x7FFFE


def frame(tag, body, length=None, version=VERSION, flags=SOM_EOM):
    n = len(body) if length is None else length
    return struct.pack(">IHHQiiiiii", MAGIC, version, flags, n,
                       -0x7FFC0000, -0x7FF80000, tag, SYSCTX_TM, 1, 0) + body


def hello(index=2, name=b"h2", version=AUTH_VERSION):
    return struct.pack(">II", version, index) + os.urandom(32) + \
        struct.pack(">I", len(name)) + name


def outcome(s, wait):
    s.settimeout(wait)
    try:
        data = s.recv(4096)
    except socket.timeout:
        return "open"
    except OSError:
        return "closed"
    if not data:
        return "closed"
    return "challenge" if len(data) >= 40 else "data"


DM_CHALLENGE, DM_SLAVE, DM_WELCOME = -0x7FF9FFFE, -0x7FF9FFFC, -0x7FF9FFFB
DM_HOSTADD, DM_TASKEXIT, DM_PING = -0x7FF9FFFA, -0x7FF9FFF3, -0x7FF9FFF5
DM_HOSTDEL, DM_EXIT = -0x7FF9FFF9, -0x7FF9FFF6  # 0x80060007, 0x8006000a
DM_MESHMARK = -0x7FF9FFF2  # 0x8006000e
DM_SPAWNED, DM_OUTGO = -0x7FF9FFF0, -0x7FF9FFEF  # 0x80060010, 0x80060011
TM_MB_PUT = -0x7FFEFFF5  # 0x8001000b
TM_SPAWN = -0x7FFEFFFB  # 0x80010005


def xdr_str(s):
    b = s.encode() + b"\0"
    return struct.pack(">I", len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)


def mac(key, label, dnonce, anonce, index, name):
    msg = label + b"\0" + dnonce + anonce + struct.pack(">II", index, len(name))
    return hmac.new(key, msg + name, hashlib.sha256).digest()


def pvmd_tid(host):
    return -0x80000000 | (host << 18)


def send(s, tag, body, src, dst, flags=SOM_EOM, length=None, ctx=SYSCTX_TM):
    n = len(body) if length is None else length
    s.sendall(struct.pack(">IHHQiiiiii", MAGIC, VERSION, flags, n, dst, src,
                          tag, ctx, 0, 0) + body)


def spawn_body(path, args, outtid, outtag):
    """A TM_SPAWN request (wire.h): one task of path, output to outtid
    with outtag in context 0, no tracing."""
    body = xdr_str(path) + struct.pack(">i", 0) + xdr_str("") + \
        struct.pack(">ii", 1, len(args))
    for a in args:
        body += xdr_str(a)
    return body + struct.pack(">iiiiiiii", 0, outtid, 0, outtag, 0, 0, 0, 0)


def recv_tag(s, want, wait=10):
    """The body of the next frame with tag `want`, others skipped."""
    s.settimeout(wait)
    while True:
        tag, body = recv_frame(s)
        if tag is None or tag == want:
            return body


def recv_frame(s):
    hdr = b""
    while len(hdr) < 40:
        got = s.recv(40 - len(hdr))
        if not got:
            return None, None
        hdr += got
    n, tag = struct.unpack(">Q", hdr[8:16])[0], struct.unpack(">i", hdr[24:28])[0]
    body = b""
    while len(body) < n:
        got = s.recv(n - len(body))
        if not got:
            return None, None
        body += got
    return tag, body


def prove(s, key, index, name, dst):
    """The dialer's side of the handshake on s; the acceptor is dst."""
    me = pvmd_tid(index)
    dnonce = os.urandom(32)
    send(s, DM_HELLO, struct.pack(">II", AUTH_VERSION, index) + dnonce +
         struct.pack(">I", len(name)) + name, me, dst)
    tag, body = recv_frame(s)
    if body is None:
        return False
    send(s, DM_PROOF, mac(key, b"pvm4 link auth v1: dialer", dnonce,
                          body[:32], index, name), me, dst)
    return True


def rogue_join(argv):
    """Dial the master as a slave would, prove the secret, join.  The
    socket, our index, the key and the welcome's body (None: not in)."""
    addr = argv[argv.index("-m") + 1]
    index = int([a for a in argv if a.startswith("-i")][0][2:])
    name = argv[argv.index("-H") + 1].encode()
    key = bytes.fromhex(sys.stdin.readline().strip())
    host, port = addr.rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=10)
    me = pvmd_tid(index)
    prove(s, key, index, name, pvmd_tid(1))
    send(s, DM_SLAVE, xdr_str("LINUX64") + struct.pack(">ii", 1000, 0),
         me, pvmd_tid(1))
    while True:
        tag, body = recv_frame(s)
        if tag is None or tag == DM_WELCOME:
            return s, index, key, body


def xdr_get_str(b, off):
    n = struct.unpack(">I", b[off:off + 4])[0]
    return b[off + 4:off + 4 + n - 1].decode(), off + 4 + ((n + 3) & ~3)


def table(body):
    """The host table of a DM_WELCOME: {index: (name, addr, port)}."""
    hosts, off = {}, 4
    for _ in range(struct.unpack(">i", body[:4])[0]):
        index = struct.unpack(">i", body[off:off + 4])[0]
        name, off = xdr_get_str(body, off + 4)
        _, off = xdr_get_str(body, off)  # arch
        addr, off = xdr_get_str(body, off + 8)  # after speed, dsig
        port = struct.unpack(">i", body[off:off + 4])[0]
        hosts[index], off = (name, addr, port), off + 4
    return hosts


def still_open(s, wait):
    """Read whatever comes for `wait` s: "closed" at end of file."""
    end = time.time() + wait
    try:
        while time.time() < end:
            s.settimeout(max(0.05, end - time.time()))
            try:
                if not s.recv(65536):
                    return "closed"
            except socket.timeout:
                pass
    except OSError:
        return "closed"
    return "open"


def rogue(case, argv):
    s, index, key, welcome = rogue_join(argv)
    if welcome is None:
        result = "not joined"
    else:
        try:
            if case.startswith("mesh"):
                # Dial h2 as a slave of higher index would.  Its frames
                # are read once our mark came through the master; the
                # master's link stays open meanwhile.
                peer, addr, port = [(k, v[1], v[2]) for k, v in
                                    table(welcome).items() if v[0] == "h2"][0]
                master_link = s
                s = socket.create_connection((addr, port), timeout=10)
                prove(s, key, index, argv[argv.index("-H") + 1].encode(),
                      pvmd_tid(peer))
                send(master_link, DM_MESHMARK, b"", pvmd_tid(index),
                     pvmd_tid(peer))
                index = (index, peer)
            misbehave(s, case, index)
            result = still_open(s, 3)
        except OSError:
            result = "closed"  # it closed on us while we wrote
    with open(os.environ["ROGUE_OUT"], "a") as f:
        f.write("%s %s\n" % (case, result))
    if case == "meshspoof" and result == "closed":
        # Keep our link to the master until the master ends it: h2's
        # report of the broken direct link must be what removes us, not
        # our own exit racing it.
        still_open(master_link, 10)


def misbehave(s, case, index):
    """index: ours, or (ours, the peer's) on a direct link."""
    index, peer = index if isinstance(index, tuple) else (index, 0)
    me, master = pvmd_tid(index), pvmd_tid(1)
    task = (index << 18) | 1
    if case == "spoof":
        # A frame from a task of the master's own host.
        send(s, DM_PING, b"", (1 << 18) | 1, master)
    elif case == "reasm":
        # Control messages begun from 2000 sources, none finished.
        for i in range(2000):
            send(s, TM_MB_PUT, b"x" * 16, task + i, master, flags=1)
    elif case == "bigctl":
        # One control message that grows past 64 MiB.
        send(s, TM_MB_PUT, b"\0" * (1 << 20), task, master, flags=1)
        for i in range(70):
            send(s, TM_MB_PUT, b"\0" * (1 << 20), task, master, flags=0)
    elif case == "huge":
        send(s, DM_PING, b"", me, master, length=1 << 62)
    elif case == "garbage":
        s.sendall(os.urandom(4096))
    elif case == "meshspoof":
        # On a direct link to h2: a frame from the master's pvmd.
        send(s, DM_PING, b"", master, pvmd_tid(peer))
    elif case == "meshdm":
        # On a direct link to h2: what only the master may say.
        send(s, DM_EXIT, b"", me, pvmd_tid(peer))
        send(s, DM_HOSTDEL, struct.pack(">i", 1), me, pvmd_tid(peer))
        send(s, DM_PING, b"", me, pvmd_tid(peer))
    elif case == "spawnout":
        # The spawner's pvmd of a task of ours that starts a program on
        # the master, its output for the watcher there ($ROGUE_WATCH has
        # its tid): the master holds that output back until our -1 and
        # DM_OUTGO, which come a second late; the second time never.
        with open(os.environ["ROGUE_WATCH"]) as f:
            watch = int(f.read(), 16)
        for word, answer in (("held", True), ("late", False)):
            send(s, TM_SPAWN, spawn_body("/bin/echo", [word], watch, 77),
                 task, master)
            body = recv_tag(s, DM_SPAWNED)
            if body is None or not answer:
                continue
            time.sleep(1)
            ptid, _, ctx, tag, n = struct.unpack(">iiiii", body[:20])
            for (tid,) in struct.iter_unpack(">i", body[20:]):
                send(s, tag, struct.pack(">iii", tid, -1, ptid), me, watch,
                     ctx=ctx)
            send(s, DM_OUTGO, body[16:], me, master)
    elif case == "baddm":
        # Nonsense DM bodies: logged and ignored, the link stays.
        send(s, DM_HOSTADD, os.urandom(64), me, master)
        send(s, DM_WELCOME, b"\xff\xff\xff\xff", me, master)
        send(s, DM_TASKEXIT, b"", me, master)
        send(s, DM_TASKEXIT, struct.pack(">i", (1 << 18) | 1), me, master)
        # Tasks not of our host; a count past the body.
        send(s, DM_SPAWNED, struct.pack(">iiiiii", task, (1 << 18) | 1, 0,
                                        77, 1, (1 << 18) | 2), me, master)
        send(s, DM_OUTGO, struct.pack(">ii", 2, (1 << 18) | 2), me, master)
        send(s, DM_PING, b"", me, master)


def main():
    if sys.argv[1] == "rogue":
        rogue(sys.argv[2], sys.argv[3:])
        return
    host, port, case = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if case == "flood":
        # 70 silent connections at once: how many the master closed.
        socks = [socket.create_connection((host, port), timeout=5)
                 for _ in range(70)]
        print(sum(still_open(c, 0.1) == "closed" or
                  outcome(c, 8) == "closed" for c in socks))
        return
    s = socket.create_connection((host, port), timeout=5)
    if case == "garbage":
        s.sendall(os.urandom(200))
    elif case == "huge":
        s.sendall(frame(DM_HELLO, b"", length=1 << 63))
    elif case == "bigauth":
        s.sendall(frame(DM_HELLO, b"x" * 4096))
    elif case == "version":
        s.sendall(frame(DM_HELLO, hello(version=99)))
    elif case == "task":
        # A task's first frame on a link port.
        s.sendall(frame(-0x7FFEFFFF, b"\0\0\0\2"))
    elif case == "badproof":
        s.sendall(frame(DM_HELLO, hello()))
        got = outcome(s, 5)
        if got != "challenge":
            print("no challenge: " + got)
            return
        s.sendall(frame(DM_PROOF, os.urandom(32)))
    elif case == "silent":
        pass
    elif case == "hello":
        s.sendall(frame(DM_HELLO, hello()))
    print(outcome(s, float(os.environ.get("RAWPEER_WAIT", "5"))))


if __name__ == "__main__":
    main()
