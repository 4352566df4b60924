#!/usr/bin/env python3
"""rawpeer.py HOST PORT CASE: play a hostile would-be peer pvmd against a
master's link port, and print what the master did: "closed" when it
closed the connection, "open" when it still held it after the wait, or
"challenge" when it answered a hello.  Used by t-hosts-bad.sh."""
import os
import re
import socket
import struct
import sys

# The protocol version, from our own wire.h (it is bumped with formats).
WIRE_H = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "..", "common", "wire.h")
with open(WIRE_H) as f:
    VERSION = int(re.search(r"#define WIRE_VERSION (\d+)", f.read()).group(1))
MAGIC = 0x50564D34
SOM_EOM = 3
DM_HELLO, DM_PROOF = -0x7FF9FFFF, -0x7FF9FFFD  # 0x80060001, 0x80060003
SYSCTX_TM = 0x7FFFE


def frame(tag, body, length=None, version=VERSION, flags=SOM_EOM):
    n = len(body) if length is None else length
    return struct.pack(">IHHQiiiiii", MAGIC, version, flags, n,
                       -0x7FFC0000, -0x7FF80000, tag, SYSCTX_TM, 1, 0) + body


def hello(index=2, name=b"h2", version=1):
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


def main():
    host, port, case = sys.argv[1], int(sys.argv[2]), sys.argv[3]
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
