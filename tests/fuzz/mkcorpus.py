#!/usr/bin/env python3
"""mkcorpus.py: write the seed corpora of tests/fuzz (corpus/<target>/).

Each seed is a small valid (or just invalid) input in the layout its
target's comment describes, so that the fuzzer starts from inputs the
decoders accept instead of having to find magic numbers and lengths by
itself.  The files are committed; run this again after changing a
layout:  python3 tests/fuzz/mkcorpus.py
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


def define(header, name):
    """The number a header #defines as name, so seeds follow its bumps."""
    with open(os.path.join(TOP, header)) as f:
        for line in f:
            w = line.split()
            if len(w) >= 3 and w[0] == "#define" and w[1] == name:
                return int(w[2], 0)
    raise KeyError(name)


WIRE_VERSION = define("common/wire.h", "WIRE_VERSION")
AUTH_VERSION = define("daemon/auth.h", "AUTH_VERSION")


def be32(*v):
    return b"".join(struct.pack(">I", x & 0xFFFFFFFF) for x in v)


def be64(*v):
    return b"".join(struct.pack(">Q", x) for x in v)


def xstr(s):
    """An XDR string: length with the NUL, bytes, NUL, zero padding."""
    b = s.encode() + b"\0"
    return be32(len(b)) + b + b"\0" * (-len(b) % 4)


def xbytes(b):
    """pvm_pkbyte in XDR: the bytes, zero padded to 4."""
    return b + b"\0" * (-len(b) % 4)


def piece(b):
    """fz_piece: a length byte, then the bytes."""
    assert len(b) < 256
    return bytes([len(b)]) + b


def tid(host, local):
    return (host << 18) | local


TM_BASE, TC_BASE, DM_BASE = 0x80010000, 0x80030000, 0x80060000
SYSCTX_TM = 0x7FFFE


def hdr(flags, length, tag, dst=0x80000000, src=tid(1, 1), magic=0x50564D34,
        version=WIRE_VERSION):
    return be32(magic, (version << 16) | flags) + be64(length) + \
        be32(dst, src, tag, SYSCTX_TM, 0, 1)


def wire():
    cookie = bytes(range(16))
    hello = be32(7) + cookie
    addr = be32(7) + xstr("node1") + be32(40000) + cookie
    refused = be32(7) + xstr("") + be32(0) + cookie
    segs = be64(0x7F0000001000, 100, 0x7F0000002000, 28)
    bulk = be32(5, 0, 1, 0, 4242) + be64(0x1122334455667788,
                                          0x7FFF00001000, 128) + be32(2) + segs
    return {
        "hdr-config": b"\0" + hdr(3, 0, TM_BASE | 3),
        "hdr-total": b"\0" + hdr(5, 262144, 17),
        "hdr-badmagic": b"\0" + hdr(3, 0, 1, magic=0x50564D33),
        "hdr-toobig": b"\0" + hdr(3, 1 << 63, 1),
        "total": b"\1" + be64(3 << 20),
        "bulkack": b"\2" + be64(0x1122334455667788) + be32(0),
        "routereq": b"\3" + be32(7),
        "routeaddr": b"\4" + addr,
        "routeaddr-refused": b"\4" + refused,
        "routehello": b"\5" + hello,
        "bulk-1mib": b"\6\2" + bulk,
        "bulk-nomax": b"\6\3" + bulk,
        "tag-spawn": b"\7" + be32(TM_BASE | 5),
        "tag-hello": b"\7" + be32(DM_BASE | 1),
        "tag-output": b"\7" + be32(TC_BASE | 5),
    }


def ring():
    """fuzz_ring: 0 + a mapping length and a segment header, or a
    stream of operations (0/1: the peer publishes an index; 2/3: write
    or read a count)."""
    hdr_ = (struct.pack("<III", 0x50564D52, 1, 8192) + bytes(52))
    return {
        "seg-ok": b"\x00" + be32(4096 + 2 * 8192) + hdr_,
        "seg-bad-size": b"\x00" + be32(4096 + 2 * 8192) +
        struct.pack("<III", 0x50564D52, 1, 8191) + bytes(52),
        "stream": b"\x01" + b"".join(
            bytes([2]) + be32(n) + bytes([3]) + be32(n // 2)
            for n in (1, 40, 3000, 4096, 4000, 100)),
        "liar": b"\x01" + bytes([2]) + be32(100) + bytes([0]) +
        be64(1 << 63) + bytes([3]) + be32(50) + bytes([1]) + be64(2**64 - 1) +
        bytes([2]) + be32(10),
    }


def xdr():
    body = be32(7) + xstr("hello") + xstr("") + b"xyz"
    ops = bytes([0, 1, 1, 2, 3, 0])
    return {
        "ints-strs": bytes([len(ops)]) + ops + body,
        "bad-str": b"\2\1\0" + be32(9) + b"abc\0",
        "empty": b"\3\0\2\3",
        # The rest of an empty (NULL) body was NULL + 0: undefined.
        "regress-null-rest": b"\1\2",
    }


# fuzz_unpack: the order of LPVM_DATATYPES, then its own operations.
BYTE, SHORT, INT, FLOAT, CPLX, DOUBLE, DCPLX, LONG = range(8)
USHORT, UINT, ULONG, STR, MESG, UNPACKF, BUFINFO = range(8, 15)


def unpack_input(native, ops, body):
    flat = b"".join(bytes(op) for op in ops)
    return bytes([native, len(ops)]) + flat + body


def unpack():
    xdr_body = be32(5) + be32(0xFFFFFFFE) + be64(2**64 - 2) + \
        struct.pack(">f", -3.25) + struct.pack(">d", 3.5) + xstr("hi") + \
        xbytes(b"xyz") + be32(1, 2) + be64(0)
    xdr_ops = [(INT, 1, 1), (SHORT, 1, 1), (LONG, 1, 1), (FLOAT, 1, 1),
               (DOUBLE, 1, 1), (STR, 0, 0), (BYTE, 3, 1), (UINT, 2, 2),
               (ULONG, 1, 1), (BUFINFO, 0, 0)]
    inner = be32(3, 7)
    mesg = be32(0, 0, 5, 42, 0, tid(1, 2), tid(1, 1), 0, len(inner)) + inner
    packf = xbytes(b"c") + be32(0xFFFFFFFF, 9) + be64(10) + be32(11) + \
        struct.pack(">f", 1.5) + struct.pack(">d", 2.5) + \
        struct.pack(">ff", 1, 2) + struct.pack(">dd", 3, 4) + xstr("str") + \
        be32(1, 2, 3)
    native = struct.pack("=id", 5, 3.5) + struct.pack("=i", 3) + b"ab\0"
    return {
        "xdr-types": unpack_input(0, xdr_ops, xdr_body),
        "xdr-mesg": unpack_input(0, [(MESG, 0, 0), (INT, 2, 1),
                                     (BUFINFO, 0, 0)], mesg),
        "xdr-unpackf": unpack_input(0, [(UNPACKF, 3, 1)], packf),
        "xdr-cplx": unpack_input(0, [(CPLX, 1, 1), (DCPLX, 1, 2)],
                                 struct.pack(">ffdd", 1, 2, 3, 4)),
        "xdr-ushort": unpack_input(0, [(USHORT, 2, 3)], be32(1, 65535)),
        "native": unpack_input(1, [(INT, 1, 1), (DOUBLE, 1, 1), (STR, 0, 0)],
                               native),
        # pvm_upkstr gave a string without its NUL.
        "regress-str-no-nul": unpack_input(0, [(STR, 0, 0)],
                                           be32(3) + b"abcd"),
    }


HOSTFILE = b"""# a hostfile
* lo=alice ep=$HOME/bin:/usr/bin
node1 sp=2000 dx=/opt/pvm/pvmd wd=/tmp
&node2 ip=10.0.0.2 id=vm1
$node3 bx=gdb so=ms
* sp=500
node4 # comment
"""


def hostfile():
    return {
        "parse": b"\0" + HOSTFILE,
        "parse-crlf": b"\0" + HOSTFILE.replace(b"\n", b"\r\n"),
        "lines": b"\1" + HOSTFILE,
        "expand": b"\2node[01-03,7],gpu1,n[8-10]",
        "expand-bad": b"\2a[1-2]b,c[",
        "nodefile": b"\3n1\nn1\r\nn2\n\nn3\nn2",
        "dollar": b"\4\100" + piece(b"/home/me") + b"a:$HOME:$zz:$:b",
        # hostlist_lines read past a text without a NUL after it.
        "regress-nodefile-end": b"\3n1\nn2",
        # An unset $NAME was memcpy'd from NULL.
        "regress-dollar-unset": b"\4\20" + piece(b"v") + b"$zz",
    }


def auth():
    nonce = bytes(range(32))
    hello = be32(AUTH_VERSION, 2) + nonce + be32(5) + b"node2"
    key = b"0123456789abcdef" * 4
    return {
        "hello": b"\0" + hello,
        "hello-index-max": b"\0" + be32(AUTH_VERSION, 4095) + nonce +
        be32(1) + b"x",
        "challenge": b"\1" + nonce + bytes(range(32, 64)),
        "proof": b"\2" + bytes(range(64, 96)),
        "key": b"\3" + key + b"\n",
        "key-upper-crlf": b"\3" + key.upper() + b"\r\n",
        "seal": b"\4" + bytes(range(24)) + bytes(48),
    }


# fuzz_pvmgs: the tag table and source numbers of the target.
JOIN, LEAVE, VIEW, BARRIER, FREEZE, DEADTID = range(6)
PVMD = 8


def gs(tag, src, body):
    return bytes([tag, src]) + piece(body)


def gs_head(seq, name):
    return be32(seq) + xstr(name)


def pvmgs():
    joins = b"".join(gs(JOIN, t, gs_head(t + 1, "g")) for t in range(3))
    barrier = b"".join(gs(BARRIER, t, gs_head(10 + t, "g") + be32(0xFFFFFFFF))
                       for t in range(3))
    freeze = b"".join(gs(FREEZE, t, gs_head(20 + t, "g") + be32(2))
                      for t in range(2))
    dead = gs(DEADTID, PVMD, be32(tid(1, 3)))
    return {
        "join-barrier": joins + barrier,
        "join-freeze-view": joins + freeze + gs(VIEW, 5, gs_head(30, "g")),
        "join-leave-dead": joins + gs(LEAVE, 1, gs_head(40, "g")) + dead,
        "bad-name": gs(JOIN, 0, be32(1, 300) + b"x" * 8),
        # A member arriving twice was counted twice.
        "regress-arrive-twice": joins +
        gs(BARRIER, 1, gs_head(50, "g") + be32(0xFFFFFFFF)) +
        gs(BARRIER, 1, gs_head(51, "g") + be32(0xFFFFFFFF)),
    }


def cmd(line):
    return b"\0" + piece(line.encode())


def output(which, tid_, count, text=b""):
    return bytes([2 * which + 1]) + piece(be32(tid_, count) + xbytes(text))


def console():
    job = cmd("spawn -3 -alpha -> prog arg1") + \
        output(0, tid(1, 2), 6, b"hello\n") + \
        output(0, tid(1, 2), 4, b"part") + output(0, tid(1, 2), 0) + \
        output(0, tid(1, 9), 0xFFFFFFFF) + cmd("jobs -l")
    return {
        "help": cmd("help") + cmd("help spawn") + cmd("help nosuch"),
        "vm": cmd("conf") + cmd("ps -a") + cmd("ps -x") + cmd("mstat alpha") +
        cmd("pstat t40001") + cmd("names") + cmd("reset"),
        "alias": cmd("alias l ps -l") + cmd("l") + cmd("alias") +
        cmd("unalias l") + cmd("alias a a") + cmd("a"),
        "words": cmd("echo 'a b' \"c\\\"d\" e\\ f # comment") +
        cmd("echo \"unterminated"),
        "spawn": cmd("spawn -2 -beta prog x") + cmd("spawn -? prog") +
        cmd("spawn --host=alpha prog") + cmd("spawn -LINUX64 prog") +
        cmd("spawn -0 prog") + cmd("spawn"),
        "job": job,
        "job-file": cmd("spawn ->>out.txt prog") + output(0, tid(1, 2), 2,
                                                          b"a\n"),
        "tasks": cmd("kill t40002 40003 0x40001") + cmd("sig 9 40002") +
        cmd("sig x y"),
        "hosts": cmd("add xhost newhost 'node opt=1'") + cmd("delete beta"),
        "opts": cmd("getopt") + cmd("getopt PvmRoute") +
        cmd("setopt Route 2") + cmd("setopt 3 0x10") + cmd("getopt nope"),
        "env": cmd("setenv FOO bar baz") + cmd("setenv FOO") +
        cmd("export FOO BAR") + cmd("unexport FOO") + cmd("export") +
        cmd("id") + cmd("version"),
        "pvmd": cmd("put a 1 v") + cmd("put '' 0x4 v") + cmd("put a") +
        cmd("tickle 5") + cmd("tickle 6 0x10 1 2 3 4 5 6 7 8 9") +
        cmd("tickle"),
        "trace": cmd("trace") + cmd("trace - * + send pvm_recv nosuch") +
        cmd("trace xpvm buf 100 opt time") + cmd("trace buf") +
        cmd("trace opt junk") + cmd("trace opt"),
        # A job of spawn -@ ends by TaskExit notifies (body: the tid).
        "spawn-trace": cmd("spawn -@ -2 prog") +
        bytes([1]) + piece(be32(tid(1, 2))) + cmd("jobs") +
        cmd("spawn -@out.trc -> prog") + cmd("spawn -@ nosuch"),
        "end": cmd("halt") + cmd("quit"),
        # Counts beyond what a pvmd starts were allocated for (8 GiB).
        "regress-spawn-count": cmd("spawn -262144 prog") +
        cmd("spawn -2147483647 prog"),
    }


def env():
    return {
        "export": b"\0" + piece(b"A:B::C") + piece(b"D") + b"\0",
        "export-unset": b"\0" + piece(b"") + piece(b"PVM_X") + b"\1",
        "unexport": b"\1" + piece(b"A:B:C") + piece(b"B") + b"\0",
        "setopt-route": b"\2" + bytes([8 + 1]) + be32(2),
        "setopt-frag": b"\2" + bytes([8 + 10]) + be32(4096),
        "setopt-bad": b"\2" + bytes([8 + 99 % 48]) + be32(0xFFFFFFFF),
        "tmask": b"\3\1" + b"0123456789" * 3 + b"abcdef",
        "paths": b"\4" + piece(b"/var/tmp") + piece(b"vm1") + be32(1000),
        "paths-slash": b"\4" + piece(b"") + piece(b"a/b") + be32(0),
        "dirs": b"\5" + piece(b"/scratch") + piece(b"rsh"),
    }


def frame(tag, body=b"", dst=0x80000000, src=tid(1, 1), ctx=SYSCTX_TM,
          enc=0, wid=1, flags=3):
    """A whole frame: header (wire.h's layout) and body."""
    return be32(0x50564D34, (WIRE_VERSION << 16) | flags) + \
        be64(len(body)) + be32(dst, src, tag, ctx, enc, wid) + body


def tm(n, body=b"", wid=1):
    return frame(TM_BASE | n, body, wid=wid)


def pvmd():
    """fuzz_pvmd: a choice byte (bit 0: a link from host 2), then the
    stream the peer sends.  A task's stream begins with TM_CONNECT."""
    me = tid(1, 1)
    connect = tm(1, be32(WIRE_VERSION, 4242, 0) + xstr("fuzz"))
    msg = frame(7, be32(1, 2, 3), dst=me, ctx=0)
    raw = frame(8, b"abcdefgh", dst=me, ctx=0, enc=1)
    big = frame(9, b"x" * 100, dst=me, ctx=0, flags=1 | 4) + \
        frame(9, b"y" * 50, dst=me, ctx=0, flags=2)
    requests = (
        tm(3) + tm(4, be32(0)) + tm(7, xstr("fuzzhost")) + tm(8, be32(me)) +
        tm(9, be32(1, 99, 0, 1, 1, me)) +
        tm(11, xstr("box") + be32(0xFFFFFFFF, 0, 0) + b"data") +
        tm(12, xstr("box") + be32(0, 0)) + tm(14, xstr("*")) +
        tm(13, xstr("box") + be32(0, 0)) + tm(15) + tm(16, be32(0x10000)) +
        tm(18, be32(me, 0, 5)) + tm(20) + tm(6, be32(me, 0)) +
        tm(22, be32(1) + xstr("nohost")))
    mcast = tm(17, be32(2, me, me)) + \
        frame(10, be32(5), dst=0x80000000 | (1 << 31) >> 1, ctx=0)
    peer, ptask = tid(2, 0) | 0x80000000, tid(2, 1)
    dm = (frame(DM_BASE | 11, src=peer) +
          frame(DM_BASE | 13, be32(ptask), src=peer) +
          frame(DM_BASE | 14, src=peer) +
          frame(DM_BASE | 12, be32(1, ptask, 5, 0), src=peer) +
          frame(DM_BASE | 15, be32(3), src=peer) +
          frame(TM_BASE | 11, xstr("rbox") + be32(0xFFFFFFFF, 0, 0, 0) + b"z",
                src=ptask) +
          frame(TM_BASE | 4, be32(0), src=ptask) +
          frame(7, be32(1), dst=me, src=ptask, ctx=0))
    # A tasker's and a hoster's messages (include/pvmsdpro.h's SM_*):
    # registered first, then SM_TASKX, an add through the hoster and its
    # SM_STHOSTACK (pvmd's wait id 1, host 2: tid 0x80000).
    sm_taskx, sm_ack = 0x8004000B, 0x80040010
    tasker = (tm(26, be32(1)) + tm(5, xstr("/bin/true") + be32(0) +
                                   xstr("") + be32(2, 0, 0) + be32(0) * 7) +
              frame(sm_taskx, be32(tid(1, 2), 0, 0, 0, 0, 0), ctx=0) +
              frame(sm_taskx, be32(tid(1, 9), 1), ctx=0) +
              tm(26, be32(0)))
    keyline = "pvm4-key " + "ab" * 32
    hoster = (tm(25, be32(1)) + tm(21, be32(1) + xstr("fuzzhost2")) +
              frame(sm_ack, be32(1, tid(2, 0)) + xstr(keyline), ctx=0) +
              frame(sm_ack, be32(tid(2, 0)) + xstr("PvmDupHost"), ctx=0) +
              frame(sm_ack, be32(7) + b"xyz", ctx=0) + tm(25, be32(0)))
    return {
        "tasker": b"\0" + connect + tasker,
        "hoster": b"\0" + connect + hoster,
        "connect": b"\0" + connect,
        "requests": b"\0" + connect + requests,
        "messages": b"\0" + connect + msg + raw + big + mcast,
        "spawn": b"\0" + connect + tm(5, xstr("prog") + be32(0, 0, 1, 0)),
        "exit": b"\0" + connect + tm(2) + msg,
        "halt": b"\0" + connect + tm(10),
        "noconnect": b"\0" + tm(3),
        "link": b"\1" + dm,
    }


def shmreq_input(npes, local, data_len, heap_len, payload, op, amo=0,
                 fetch=0, region=2, pe=0, width=0, off=0, count=0, stride=0,
                 a=0, b=0):
    """fuzz_shmreq: the job, the payload length, a struct shm_req."""
    head = bytes([npes - 1]) + bytes(local) + be32(data_len, heap_len)
    head += bytes([0]) + be32(payload)
    req = struct.pack("<HHHHiIQQqQQ", op, amo, fetch, region, pe, width,
                      off, count, stride, a, b)
    return head + req


def shmreq():
    """fuzz_shmreq: one request of each kind the agent serves."""
    job = (4, [0, 1, 1, 0], 1 << 16, 1 << 20)
    return {
        "put": shmreq_input(*job, 64, 1, pe=1, off=128, count=64),
        "get": shmreq_input(*job, 0, 2, pe=2, region=1, count=4096),
        "iput": shmreq_input(*job, 24, 3, pe=1, width=8, count=3,
                             stride=5),
        "iget": shmreq_input(*job, 0, 4, pe=2, width=4, count=10,
                             stride=2),
        "amo-cswap": shmreq_input(*job, 0, 5, amo=4, fetch=1, pe=1,
                                  width=8, off=64, a=7, b=3),
        "slot": shmreq_input(*job, 0, 6, pe=2, off=12),
        "flush": shmreq_input(*job, 0, 7),
        "bad-pe": shmreq_input(*job, 0, 6, pe=3, off=12),
    }


TARGETS = {
    "wire": wire, "ring": ring, "xdr": xdr, "unpack": unpack, "hostfile": hostfile,
    "auth": auth, "pvmgs": pvmgs, "console": console, "env": env,
    "pvmd": pvmd, "shmreq": shmreq,
}


def main():
    for target, make in TARGETS.items():
        d = os.path.join(HERE, "corpus", target)
        os.makedirs(d, exist_ok=True)
        for name, data in make().items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
