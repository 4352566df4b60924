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
TM_MB_PUT = -0x7FFEFFF5  # 0x8001000b


def xdr_str(s):
    b = s.encode() + b"\0"
    return struct.pack(">I", len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)


def mac(key, label, dnonce, anonce, index, name):
    msg = label + b"\0" + dnonce + anonce + struct.pack(">II", index, len(name))
    return hmac.new(key, msg + name, hashlib.sha256).digest()


def pvmd_tid(host):
    return -0x80000000 | (host << 18)


def send(s, tag, body, src, dst, flags=SOM_EOM, length=None):
    n = len(body) if length is None else length
    s.sendall(struct.pack(">IHHQiiiiii", MAGIC, VERSION, flags, n, dst, src,
                          tag, SYSCTX_TM, 0, 0) + body)


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


def rogue_join(argv):
    """Dial the master as a slave would, prove the secret, join."""
    addr = argv[argv.index("-m") + 1]
    index = int([a for a in argv if a.startswith("-i")][0][2:])
    name = argv[argv.index("-H") + 1].encode()
    key = bytes.fromhex(sys.stdin.readline().strip())
    host, port = addr.rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=10)
    me = pvmd_tid(index)
    dnonce = os.urandom(32)
    send(s, DM_HELLO, struct.pack(">II", AUTH_VERSION, index) + dnonce +
         struct.pack(">I", len(name)) + name, me, pvmd_tid(1))
    tag, body = recv_frame(s)
    anonce = body[:32]
    send(s, DM_PROOF, mac(key, b"pvm4 link auth v1: dialer", dnonce, anonce,
                          index, name), me, pvmd_tid(1))
    send(s, DM_SLAVE, xdr_str("LINUX64") + struct.pack(">ii", 1000, 0),
         me, pvmd_tid(1))
    while True:
        tag, body = recv_frame(s)
        if tag is None or tag == DM_WELCOME:
            return s, index, tag is not None


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
    s, index, joined = rogue_join(argv)
    if not joined:
        result = "not joined"
    else:
        try:
            misbehave(s, case, index)
            result = still_open(s, 3)
        except OSError:
            result = "closed"  # it closed on us while we wrote
    with open(os.environ["ROGUE_OUT"], "a") as f:
        f.write("%s %s\n" % (case, result))


def misbehave(s, case, index):
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
    elif case == "baddm":
        # Nonsense DM bodies: logged and ignored, the link stays.
        send(s, DM_HOSTADD, os.urandom(64), me, master)
        send(s, DM_WELCOME, b"\xff\xff\xff\xff", me, master)
        send(s, DM_TASKEXIT, b"", me, master)
        send(s, DM_TASKEXIT, struct.pack(">i", (1 << 18) | 1), me, master)
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
