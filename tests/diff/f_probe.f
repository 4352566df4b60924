c
c     f_probe.f: probe of what the Fortran bindings (libfpvm3) add over
c     C: string arguments (trailing blanks, blank and too long names),
c     pvmfpack/pvmfunpack of every type code (STRING lengths and
c     padding, counts, strides), the one-entry-per-call pvmfconfig and
c     pvmftasks, options, pvmfbufinfo, psend/precv, the mailbox,
c     hosts, groups and pvmfreduce with the EXTERNAL PvmMax ... of
c     libfpvm3, pvmfnotify, pvmfperror.  Built twice like the C probes
c     (tests/diff/t-diff.sh), it prints "case: text" records; tids
c     print by name or class, never as numbers.  pvmfperror's lines
c     come from the library (stderr, among the records): t-diff.sh
c     puts a name in place of the tid they carry.
c
c     The program spawns itself (argv[0], an absolute path) as its
c     child: a task with a parent echoes a message, then waits to be
c     told to exit.
c
      program fprobe
      implicit none
      include 'fpvm3.h'
      integer me, ptid

      call pvmfmytid(me)
      call pvmfparent(ptid)
      if (me .gt. 0 .and. ptid .gt. 0) then
         call child(ptid)
         stop
      endif
      call master(me)
      end

c     The child: echo one message of INTEGER4s (tag 78) as tag 79 with
c     its count and whether its parent is the sender, then exit on 77.
      subroutine child(ptid)
      implicit none
      include 'fpvm3.h'
      integer ptid, buf, info, n, v(8), bytes, tag, src
      call pvmfrecv(ptid, 78, buf)
      call pvmfbufinfo(buf, bytes, tag, src, info)
      n = bytes / 4
      if (n .gt. 8) n = 8
      call pvmfunpack(INTEGER4, v, n, 1, info)
      call pvmfinitsend(PVMDATADEFAULT, buf)
      call pvmfpack(INTEGER4, n, 1, 1, info)
      call pvmfpack(INTEGER4, v, n, 1, info)
      call pvmfsend(ptid, 79, info)
      call pvmfrecv(ptid, 77, buf)
      call pvmfexit(info)
      end

c     ------------------------------------------------------------
c     Records.  Every record is flushed at once, so that what the
c     libraries write to stderr (pvmfperror) lands in its place.
c     ------------------------------------------------------------
      subroutine rec(c, t)
      implicit none
      character*(*) c, t
      write (*, '(3a)') trim(c), ': ', trim(t)
      flush (6)
      end

c     A return code: >= 0 as a number, < 0 as its Pvm* name.
      character*16 function ecode(n)
      implicit none
      integer n
      character*16 names(0:36)
      character*16 inum
      data names /'PvmOk', '?-1', 'PvmBadParam', 'PvmMismatch',
     &     'PvmOverflow', 'PvmNoData', 'PvmNoHost', 'PvmNoFile',
     &     'PvmDenied', '?-9', 'PvmNoMem', '?-11', 'PvmBadMsg',
     &     '?-13', 'PvmSysErr', 'PvmNoBuf', 'PvmNoSuchBuf',
     &     'PvmNullGroup', 'PvmDupGroup', 'PvmNoGroup',
     &     'PvmNotInGroup', 'PvmNoInst', 'PvmHostFail',
     &     'PvmNoParent', 'PvmNotImpl', 'PvmDSysErr',
     &     'PvmBadVersion', 'PvmOutOfRes', 'PvmDupHost',
     &     'PvmCantStart', 'PvmAlready', 'PvmNoTask', 'PvmNotFound',
     &     'PvmExists', 'PvmHostrNMstr', 'PvmParentNotSet',
     &     'PvmIPLoopback'/
      if (n .le. 0 .and. n .ge. -36) then
         ecode = names(-n)
      else
         ecode = inum(n)
      endif
      end

c     An integer as text.
      character*16 function inum(n)
      implicit none
      integer n
      write (inum, '(i0)') n
      end

c     A real as text (fixed, 4 decimals).
      character*24 function rnum(x)
      implicit none
      double precision x
      write (rnum, '(f24.4)') x
      rnum = adjustl(rnum)
      end

c     A bufid or count: ">0" if positive, else its code.
      character*16 function pos(n)
      implicit none
      integer n
      character*16 ecode
      pos = '>0'
      if (n .le. 0) pos = ecode(n)
      end

c     Give tid t a name to print by from now on.
      subroutine tidnam(t, name)
      implicit none
      integer t
      character*(*) name
      integer ntid, tids(16)
      character*16 tnames(16)
      common /ftids/ ntid, tids, tnames
      if (ntid .lt. 16) then
         ntid = ntid + 1
         tids(ntid) = t
         tnames(ntid) = name
      endif
      end

c     A tid: its name, else its class, as probe.h's dp_tid; -99 (what
c     the probe puts in an output argument before a call) is "unset".
      character*16 function tname(t)
      implicit none
      integer t, i, lo
      integer ntid, tids(16)
      character*16 tnames(16), ecode
      common /ftids/ ntid, tids, tnames
      do 10 i = 1, ntid
         if (tids(i) .eq. t) then
            tname = tnames(i)
            return
         endif
   10 continue
      lo = iand(t, 262143)
      if (t .eq. 0) then
         tname = '0'
      else if (t .eq. -99) then
         tname = 'unset'
      else if (t .lt. 0 .and. t .gt. -64) then
         tname = ecode(t)
      else if (t .eq. -2147483647 - 1) then
         tname = 'TIDPVMD'
      else if (t .lt. 0 .and. lo .eq. 0) then
         tname = 'pvmd-addr'
      else if (t .gt. 0 .and. t .lt. 1073741824 .and. lo .eq. 0) then
         tname = 'host-tid'
      else if (iand(t, 1073741824) .ne. 0) then
         tname = 'mcast-addr'
      else
         tname = 'task-tid'
      endif
      end

c     A value that may be a tid or a plain number, as dp_val.
      character*16 function vval(v)
      implicit none
      integer v
      character*16 ecode, tname
      if (v .gt. -64 .and. v .lt. 262144 .and. v .ne. 0) then
         vval = ecode(v)
      else
         vval = tname(v)
      endif
      end

c     The record of a call that gives one code.
      subroutine rc(c, what, n)
      implicit none
      character*(*) c, what
      integer n
      character*16 ecode
      call rec(c, what // ' = ' // ecode(n))
      end

c     Drop what arrives within 100 ms (between cases).
      subroutine drain()
      implicit none
      integer buf
   10 call pvmftrecv(-1, -1, 0, 100000, buf)
      if (buf .gt. 0) goto 10
      end

c     The next message within sec seconds, as a record.
      subroutine nextmsg(c, sec)
      implicit none
      include 'fpvm3.h'
      character*(*) c
      integer sec, buf, bytes, tag, src, info, v
      character*16 ecode, inum, tname
      call pvmftrecv(-1, -1, sec, 0, buf)
      if (buf .eq. 0) then
         call rec(c, 'nothing within ' // trim(inum(sec)) // ' s')
         return
      else if (buf .lt. 0) then
         call rc(c, 'trecv', buf)
         return
      endif
      call pvmfbufinfo(buf, bytes, tag, src, info)
      v = 0
      if (bytes .ge. 4) call pvmfunpack(INTEGER4, v, 1, 1, info)
      call rec(c, 'tag ' // trim(inum(tag)) // ' from ' //
     &     trim(tname(src)) // ', ' // trim(inum(bytes)) //
     &     ' bytes, int ' // trim(tname(v)))
      end

c     ------------------------------------------------------------
c     The probe.
c     ------------------------------------------------------------
      subroutine master(me)
      implicit none
      include 'fpvm3.h'
      integer me, old, host, child
      character*16 ecode
      character*1024 self
      character*64 hname
      common /fids/ host, child
      common /fstr/ self, hname

      call pvmfsetopt(PVMAUTOERR, 0, old)
      if (me .le. 0) then
         call rc('mytid', 'pvmfmytid', me)
         return
      endif
      call rec('mytid', 'me is a task tid')
      call rec('setopt-autoerr', 'old value ' // ecode(old))
      call tidnam(me, 'me')
      call pvmftidtohost(me, host)
      call tidnam(host, 'host1')
      call tidnam(262128 + host, 'notask')
      call get_command_argument(0, self)
      child = 0
      call identity(me, host)
      call config()
      call spawns()
c     the child answers: it is connected before pvmftasks looks at it
      call echo()
      call tasks(me)
      call options()
      call packs()
      call strings()
      call counts()
      call strides()
      call direct(me)
      call bufs(me)
      call mbox()
      call hosts()
      call limits()
      call glimits()
      call groups(me)
      call reduces()
      call notify()
      call perrs()
      call pvmfexit(old)
      end

c     Identity: mytid, parent, tidtohost, pstat, siblings.
      subroutine identity(me, host)
      implicit none
      include 'fpvm3.h'
      integer me, host, t, n, s
      character*16 tname, inum, ecode
      call pvmfmytid(t)
      call rec('mytid-again', 'same: ' // trim(inum(abs(me - t))))
      call pvmfparent(t)
      call rec('parent', 'pvmfparent = ' // tname(t))
      call pvmftidtohost(0, t)
      call rec('tidtohost-0', '= ' // tname(t))
      call pvmftidtohost(-1, t)
      call rec('tidtohost-neg', '= ' // tname(t))
      call pvmftidtohost(host + 262128, t)
      call rec('tidtohost-notask', '= ' // tname(t))
      call pvmftidtohost(host, t)
      call rec('tidtohost-host', '= ' // tname(t))
      call pvmfpstat(me, t)
      call rc('pstat-me', 'pvmfpstat(me)', t)
      call pvmfpstat(host + 262128, t)
      call rc('pstat-notask', 'pvmfpstat(notask)', t)
      n = -99
      s = -99
      call pvmfsiblings(n, -1, s)
      call rec('siblings-count', 'ntids ' // trim(inum(n)) //
     &     ', sibling ' // ecode(s))
      call pvmfsiblings(n, 0, s)
      call rec('siblings-0', 'ntids ' // trim(inum(n)) //
     &     ', sibling ' // tname(s))
      s = -99
      call pvmfsiblings(n, 5, s)
      call rec('siblings-5', 'ntids ' // trim(inum(n)) //
     &     ', sibling ' // tname(s))
      end

c     pvmfconfig, one host per call: three calls in a row, a restart
c     (nhost = -1), and name/arch into variables too short and long.
      subroutine config()
      implicit none
      include 'fpvm3.h'
      integer host, child, k, nhost, narch, dtid, speed, info
      character*1024 self
      character*64 hname
      character*16 arch
      character*4 name4
      character*3 arch3
      character*8 c
      common /fids/ host, child
      common /fstr/ self, hname
      nhost = 0
      do 10 k = 1, 3
         write (c, '(a,i0)') 'config-', k
         call config1(c, nhost)
   10 continue
      nhost = -1
      call config1('config-restart', nhost)
      nhost = -1
      hname = '?'
      call pvmfconfig(nhost, narch, dtid, hname, arch, speed, info)
      call pvmfconfig(nhost, narch, dtid, name4, arch3, speed, info)
      call rec('config-short', 'name4 is a prefix: ' //
     &     merge('yes', 'no ', name4 .eq. hname(1:4)) //
     &     ', arch3 [' // arch3 // ']')
      end

c     One pvmfconfig call and its record.
      subroutine config1(c, nhost)
      implicit none
      include 'fpvm3.h'
      character*(*) c
      integer nhost, narch, dtid, speed, info
      character*16 arch, vval, inum, tname
      character*64 name
      narch = -99
      dtid = -99
      speed = -99
      info = -99
      name = '?'
      arch = '?'
      call pvmfconfig(nhost, narch, dtid, name, arch, speed, info)
      call rec(c, 'info ' // trim(vval(info)) // ', nhost ' //
     &     trim(inum(nhost)) // ', narch ' // trim(inum(narch)) //
     &     ', dtid ' // trim(tname(dtid)) // ', arch [' //
     &     trim(arch) // '], speed ' // trim(inum(speed)) //
     &     ', name ' // merge('set  ', 'unset', name .ne. '?'))
      end

c     pvmfspawn: trailing blanks and blank strings in task and where.
      subroutine spawns()
      implicit none
      include 'fpvm3.h'
      integer host, child, tids(2), numt
      character*1024 self
      character*64 hname
      character*40 nofile
      common /fids/ host, child
      common /fstr/ self, hname
      nofile = 'f_probe_no_such_program'
c     self is blank-padded to 1024 characters
      call pvmfspawn(self, PVMTASKDEFAULT, '*', 1, tids, numt)
      if (numt .eq. 1) then
         child = tids(1)
         call tidnam(child, 'child')
      endif
      call spawn1('spawn-child', self, PVMTASKDEFAULT, '*', 0)
      call spawn1('spawn-nofile', nofile, PVMTASKDEFAULT, ' ', 1)
      call spawn1('spawn-nofile-star', nofile, PVMTASKDEFAULT, '*', 1)
      call spawn1('spawn-nofile-host-blank', nofile, PVMTASKHOST,
     &     ' ', 1)
      call spawn1('spawn-nofile-host-star', nofile, PVMTASKHOST,
     &     '*', 1)
      call spawn1('spawn-nohost', nofile, PVMTASKHOST, 'nosuchhost',
     &     1)
      call spawn1('spawn-host-padded', nofile, PVMTASKHOST, hname, 1)
      call spawn1('spawn-arch-padded', nofile, PVMTASKARCH,
     &     'LINUX64    ', 1)
      call spawn1('spawn-arch-bad', nofile, PVMTASKARCH, 'NOSUCHARCH',
     &     1)
      call spawn1('spawn-task-blank', ' ', PVMTASKDEFAULT, ' ', 1)
      call spawn1('spawn-task-300', repeat('x', 300), PVMTASKDEFAULT,
     &     ' ', 1)
      call spawn1('spawn-task-5000', repeat('x', 5000),
     &     PVMTASKDEFAULT, ' ', 1)
      call spawn1('spawn-where-300', nofile, PVMTASKHOST,
     &     repeat('h', 300), 1)
      call spawn1('spawn-count0', nofile, PVMTASKDEFAULT, ' ', 0)
      call spawn1('spawn-count-1', nofile, PVMTASKDEFAULT, ' ', -1)
      end

c     One pvmfspawn call (never of a real program but the first) and
c     its record; n = 0 records the child spawned before.
      subroutine spawn1(c, task, flag, where, n)
      implicit none
      character*(*) c, task, where
      integer flag, n, tids(2), numt, host, child
      character*16 ecode, tname
      common /fids/ host, child
      if (n .eq. 0) then
         call rec(c, 'child is ' // tname(child))
         return
      endif
      tids(1) = 1
      call pvmfspawn(task, flag, where, n, tids, numt)
      call rec(c, 'numt ' // trim(ecode(numt)) // ', tids(1) ' //
     &     ecode(tids(1)))
      end

c     pvmftasks, one task per call: of me, of the child, of all (one
c     call more than there are tasks), of nobody.
      subroutine tasks(me)
      implicit none
      include 'fpvm3.h'
      integer me, host, child, n, k
      character*1024 self
      character*64 hname
      character*16 c
      common /fids/ host, child
      common /fstr/ self, hname
      n = 0
      call tasks1('tasks-me', me, n)
      n = 0
      call tasks1('tasks-child', child, n)
      n = 0
      call tasks1('tasks-all-1', 0, n)
      do 10 k = 2, n + 1
         write (c, '(a,i0)') 'tasks-all-', k
         call tasks1(c, 0, n)
   10 continue
      n = 0
      call tasks1('tasks-host', host, n)
      n = 0
      call tasks1('tasks-notask', host + 262128, n)
      n = -1
      call tasks1('tasks-restart', me, n)
      end

c     One pvmftasks call and its record: the a.out name as its class.
      subroutine tasks1(c, where, n)
      implicit none
      include 'fpvm3.h'
      character*(*) c
      integer where, n, tid, ptid, dtid, flag, info
      character*1024 self, aout
      character*64 hname
      character*16 vval, inum, tname
      character*9 cls
      common /fstr/ self, hname
      tid = -99
      ptid = -99
      dtid = -99
      flag = -99
      info = -99
      aout = '?'
      call pvmftasks(where, n, tid, ptid, dtid, flag, aout, info)
      cls = 'other'
      if (aout .eq. '?') cls = 'unset'
      if (aout .eq. ' ') cls = 'blank'
      if (aout .eq. self) cls = 'self-path'
      call rec(c, 'info ' // trim(vval(info)) // ', ntask ' //
     &     trim(inum(n)) // ', tid ' // trim(tname(tid)) //
     &     ', ptid ' // trim(tname(ptid)) // ', dtid ' //
     &     trim(tname(dtid)) // ', flag ' // trim(inum(flag)) //
     &     ', aout ' // cls)
      end

c     pvmfgetopt of every option, pvmfsetopt's old value and errors.
      subroutine options()
      implicit none
      include 'fpvm3.h'
      integer k, v, old
      character*16 c, vval, ecode
      do 10 k = 1, 25
         write (c, '(a,i0)') 'getopt-', k
         call pvmfgetopt(k, v)
         call rec(c, '= ' // vval(v))
   10 continue
      call pvmfgetopt(99, v)
      call rc('getopt-bad', 'pvmfgetopt(99)', v)
      call pvmfsetopt(99, 1, old)
      call rc('setopt-bad', 'pvmfsetopt(99, 1)', old)
      call pvmfsetopt(PVMROUTE, 99, old)
      call rc('setopt-route-bad', 'pvmfsetopt(ROUTE, 99)', old)
      call pvmfsetopt(PVMROUTE, PVMDONTROUTE, old)
      call pvmfgetopt(PVMROUTE, v)
      call rec('setopt-route', 'old ' // trim(ecode(old)) //
     &     ', now ' // ecode(v))
      call pvmfsetopt(PVMROUTE, old, v)
      call pvmfsetopt(PVMFRAGSIZE, 10, old)
      call rc('setopt-frag-small', 'pvmfsetopt(FRAGSIZE, 10)', old)
      call pvmfsetopt(PVMAUTOERR, 0, old)
      call rc('setopt-autoerr-again', 'pvmfsetopt(AUTOERR, 0)', old)
      end

c     ------------------------------------------------------------
c     Packing.  The active send buffer goes to me and comes back as
c     the active receive buffer (selfrt).
c     ------------------------------------------------------------

c     Send the active send buffer to myself with tag; receive it; the
c     record part "N bytes" of what arrived.
      subroutine selfrt(tag, txt)
      implicit none
      integer tag, me, info, buf, bytes, t, src
      character*(*) txt
      character*16 inum, ecode
      call pvmfmytid(me)
      call pvmfsend(me, tag, info)
      if (info .lt. 0) then
         txt = 'send ' // ecode(info)
         return
      endif
      call pvmftrecv(me, tag, 5, 0, buf)
      if (buf .le. 0) then
         txt = 'recv ' // ecode(buf)
         return
      endif
      call pvmfbufinfo(buf, bytes, t, src, info)
      txt = trim(inum(bytes)) // ' bytes'
      end

c     A new send buffer of the default encoding.
      subroutine newbuf()
      implicit none
      include 'fpvm3.h'
      integer buf
      call pvmfinitsend(PVMDATADEFAULT, buf)
      end

c     The record of one pack/unpack round trip.
      subroutine prt(c, ipk, t, iupk, vals)
      implicit none
      character*(*) c, t, vals
      integer ipk, iupk
      character*16 ecode
      call rec(c, 'pk ' // trim(ecode(ipk)) // ', ' // trim(t) //
     &     ', upk ' // trim(ecode(iupk)) // ', got ' // vals)
      end

c     Every type code, each round trip on its own.
      subroutine packs()
      implicit none
      include 'fpvm3.h'
      integer*1 b(4), b2(4)
      integer*2 i2(3), j2(3)
      integer i4(3), j4(3), ipk, iupk
      character*80 t, v
      data b /-128, -1, 0, 127/
      data i2 /-32768, 1, 32767/
      call newbuf()
      call pvmfpack(BYTE1, b, 4, 1, ipk)
      call selfrt(41, t)
      call pvmfunpack(BYTE1, b2, 4, 1, iupk)
      write (v, '(4(i0,1x))') b2
      call prt('pack-byte1', ipk, t, iupk, v)
      call newbuf()
      call pvmfpack(INTEGER2, i2, 3, 1, ipk)
      call selfrt(42, t)
      call pvmfunpack(INTEGER2, j2, 3, 1, iupk)
      write (v, '(3(i0,1x))') j2
      call prt('pack-integer2', ipk, t, iupk, v)
      i4(1) = -2147483647 - 1
      i4(2) = -1
      i4(3) = 123456789
      call newbuf()
      call pvmfpack(INTEGER4, i4, 3, 1, ipk)
      call selfrt(43, t)
      call pvmfunpack(INTEGER4, j4, 3, 1, iupk)
      write (v, '(3(i0,1x))') j4
      call prt('pack-integer4', ipk, t, iupk, v)
      call packr()
      call packbad()
      end

c     The real, complex and 8-byte integer types.
      subroutine packr()
      implicit none
      include 'fpvm3.h'
      real r4(3), s4(3)
      complex c8(2), d8(2)
      double precision r8(2), s8(2)
      complex*16 c16(2), d16(2)
      integer*8 i8(2), j8(2)
      integer ipk, iupk
      character*80 t, v
      data r4 /1.5, -0.25, 1024.125/
      data c8 /(1.5, -2.5), (0.125, 8.0)/
      data r8 /0.1d0, -2.5d10/
      data c16 /(0.1d0, -7.25d0), (2.5d10, -1d-3)/
      data i8 /1099511627779_8, -4611686018427387904_8/
      call newbuf()
      call pvmfpack(REAL4, r4, 3, 1, ipk)
      call selfrt(44, t)
      call pvmfunpack(REAL4, s4, 3, 1, iupk)
      write (v, '(3(f0.4,1x))') s4
      call prt('pack-real4', ipk, t, iupk, v)
      call newbuf()
      call pvmfpack(COMPLEX8, c8, 2, 1, ipk)
      call selfrt(45, t)
      call pvmfunpack(COMPLEX8, d8, 2, 1, iupk)
      write (v, '(4(f0.4,1x))') d8
      call prt('pack-complex8', ipk, t, iupk, v)
      call newbuf()
      call pvmfpack(REAL8, r8, 2, 1, ipk)
      call selfrt(46, t)
      call pvmfunpack(REAL8, s8, 2, 1, iupk)
      write (v, '(2(es22.15,1x))') s8
      call prt('pack-real8', ipk, t, iupk, v)
      call newbuf()
      call pvmfpack(COMPLEX16, c16, 2, 1, ipk)
      call selfrt(47, t)
      call pvmfunpack(COMPLEX16, d16, 2, 1, iupk)
      write (v, '(4(es10.3,1x))') d16
      call prt('pack-complex16', ipk, t, iupk, v)
      call newbuf()
      call pvmfpack(INTEGER8, i8, 2, 1, ipk)
      call selfrt(48, t)
      call pvmfunpack(INTEGER8, j8, 2, 1, iupk)
      write (v, '(2(i0,1x))') j8
      call prt('pack-integer8', ipk, t, iupk, v)
      end

c     Type codes that do not exist; a type unpacked as another.
      subroutine packbad()
      implicit none
      include 'fpvm3.h'
      integer x(2), info, iupk
      double precision d
      character*80 t
      character*16 ecode
      x(1) = 7
      x(2) = 8
      call newbuf()
      call pvmfpack(9, x, 1, 1, info)
      call rc('pack-type-9', 'pvmfpack(9)', info)
      call pvmfpack(99, x, 1, 1, info)
      call rc('pack-type-99', 'pvmfpack(99)', info)
      call pvmfpack(-1, x, 1, 1, info)
      call rc('pack-type-neg', 'pvmfpack(-1)', info)
      call pvmfpack(INTEGER4, x, 1, 1, info)
      call selfrt(49, t)
      call pvmfunpack(99, x, 1, 1, iupk)
      call rc('unpack-type-99', 'pvmfunpack(99)', iupk)
      call pvmfunpack(REAL8, d, 1, 1, iupk)
      call rec('unpack-int-as-real8', trim(t) // ', upk ' //
     &     ecode(iupk))
      end

c     STRING: no length travels; unpacking fills exactly nitem
c     characters of the variable, whatever its length.
      subroutine strings()
      implicit none
      include 'fpvm3.h'
      integer ipk, iupk, i1, i2, i3, k
      integer*1 b(4)
      character*80 t
      character*12 s
      character*8 s8
      character*16 inum
      call newbuf()
      call pvmfpack(STRING, 'hello', 5, 1, ipk)
      call selfrt(51, t)
      s = '############'
      call pvmfunpack(STRING, s, 5, 1, iupk)
      call prt('str-into-longer', ipk, t, iupk, '[' // s // ']')
      s8 = 'abc'
      call newbuf()
      call pvmfpack(STRING, s8, 8, 1, ipk)
      call selfrt(52, t)
      s = '############'
      call pvmfunpack(STRING, s, 8, 1, iupk)
      call prt('str-padded-var', ipk, t, iupk, '[' // s // ']')
      call newbuf()
      call pvmfpack(STRING, s8, len_trim(s8), 1, ipk)
      call selfrt(53, t)
      s = '############'
      call pvmfunpack(STRING, s, 3, 1, iupk)
      call prt('str-len-trim', ipk, t, iupk, '[' // s // ']')
      call newbuf()
      call pvmfpack(STRING, 'hello', 5, 1, ipk)
      call selfrt(54, t)
      s = '############'
      call pvmfunpack(STRING, s, 3, 1, i1)
      call pvmfunpack(STRING, s(4:), 2, 1, i2)
      call pvmfunpack(STRING, s(6:), 1, 1, i3)
c     s(5:5) comes from the pad after the 5 bytes: undefined
      call rec('str-in-parts', trim(t) // ', upk ' //
     &     trim(inum(i1)) // ' ' // trim(inum(i2)) // ' ' //
     &     trim(inum(i3)) // ', got [' // s(1:4) // '?' // s(6:) //
     &     ']')
      call newbuf()
      call pvmfpack(STRING, 'ABCD', 4, 1, ipk)
      call selfrt(55, t)
      call pvmfunpack(BYTE1, b, 4, 1, iupk)
      write (s, '(4(i0,1x))') b
      call prt('str-as-bytes', ipk, t, iupk, s)
      call newbuf()
      call pvmfpack(STRING, 'abcdef', 3, 2, ipk)
      call selfrt(56, t)
      s = '############'
      call pvmfunpack(STRING, s, 3, 1, iupk)
      call prt('str-stride-2', ipk, t, iupk, '[' // s // ']')
      call newbuf()
      call pvmfpack(STRING, 'xyz', 3, 1, ipk)
      k = 7
      call pvmfpack(INTEGER4, k, 1, 1, i1)
      call selfrt(57, t)
      s = '############'
      k = 0
      call pvmfunpack(STRING, s, 3, 1, iupk)
      call pvmfunpack(INTEGER4, k, 1, 1, i1)
      call prt('str-then-int', ipk, t, iupk, '[' // s // '] ' //
     &     trim(inum(k)) // ' ' // inum(i1))
      call strings2()
      end

c     STRING from an INTEGER4 (the encoding's byte order shows), and
c     STRING counts of 0 and -1.
      subroutine strings2()
      implicit none
      include 'fpvm3.h'
      integer ipk, iupk, k, bytes, tag, src, info, buf
      character*80 t
      character*12 s
      character*16 ecode, inum
      k = 1094861636
      call newbuf()
      call pvmfpack(INTEGER4, k, 1, 1, ipk)
      call selfrt(58, t)
      s = '############'
      call pvmfunpack(STRING, s, 4, 1, iupk)
      call prt('str-from-int', ipk, t, iupk, '[' // s // ']')
      call newbuf()
      call pvmfpack(STRING, 'abc', 0, 1, ipk)
      call pvmfgetsbuf(buf)
      call pvmfbufinfo(buf, bytes, tag, src, info)
      call rec('str-pack-0', 'pk ' // trim(ecode(ipk)) // ', ' //
     &     trim(inum(bytes)) // ' bytes')
      call newbuf()
      call pvmfpack(STRING, 'abc', -1, 1, ipk)
      call pvmfgetsbuf(buf)
      call pvmfbufinfo(buf, bytes, tag, src, info)
      call rec('str-pack-neg', 'pk ' // trim(ecode(ipk)) // ', ' //
     &     trim(inum(bytes)) // ' bytes')
      call newbuf()
      call pvmfpack(STRING, 'abc', 3, 1, ipk)
      call selfrt(59, t)
      s = '############'
      call pvmfunpack(STRING, s, 0, 1, iupk)
      call pvmfunpack(STRING, s, -1, 1, k)
      call rec('str-unpack-0-neg', 'upk 0: ' // trim(ecode(iupk)) //
     &     ', upk -1: ' // trim(ecode(k)) // ', got [' // s // ']')
c     the 4th byte is the encoding's pad after 'abc': undefined
      call pvmfunpack(STRING, s, 4, 1, iupk)
      call rec('str-unpack-past-end', 'upk ' // trim(ecode(iupk)) //
     &     ', got [' // s(1:3) // '?' // s(5:) // ']')
      call pvmfunpack(STRING, s, 1, 1, iupk)
      call rc('str-unpack-after-pad', 'pvmfunpack(STRING, 1)', iupk)
      end

c     Counts of 0 and -1, strides of 0 and -1, on INTEGER4 and REAL8:
c     what the pack says and how many bytes the buffer then holds.
      subroutine counts()
      implicit none
      include 'fpvm3.h'
      integer x(5)
      double precision d(2)
      data x /1, 2, 3, 4, 5/
      data d /1d0, 2d0/
      call count1('count-int-0', INTEGER4, x, 0, 1)
      call count1('count-int-neg', INTEGER4, x, -1, 1)
      call count1('count-real8-0', REAL8, d, 0, 1)
      call count1('count-real8-neg', REAL8, d, -1, 1)
      call count1('stride-int-0', INTEGER4, x, 3, 0)
      call count1('stride-int-neg', INTEGER4, x(5), 3, -1)
      call count1('stride-byte-0', BYTE1, x, 3, 0)
      call count1('count-byte-0', BYTE1, x, 0, 1)
      end

c     One pack into a new buffer and its record.
      subroutine count1(c, what, x, n, std)
      implicit none
      character*(*) c
      integer what, x(*), n, std, ipk, buf, bytes, tag, src, info
      character*16 ecode, inum
      call newbuf()
      call pvmfpack(what, x, n, std, ipk)
      call pvmfgetsbuf(buf)
      call pvmfbufinfo(buf, bytes, tag, src, info)
      call rec(c, 'pk ' // trim(ecode(ipk)) // ', ' //
     &     trim(inum(bytes)) // ' bytes')
      end

c     Strides on pack and on unpack.
      subroutine strides()
      implicit none
      include 'fpvm3.h'
      integer x(6), y(6), ipk, iupk, k
      double precision d(4), e(4)
      complex*16 z(3), w(3)
      character*80 t, v
      data x /1, 2, 3, 4, 5, 6/
      data d /1d0, 2d0, 3d0, 4d0/
      data z /(1d0, 2d0), (3d0, 4d0), (5d0, 6d0)/
      call newbuf()
      call pvmfpack(INTEGER4, x, 3, 2, ipk)
      call selfrt(61, t)
      do 10 k = 1, 6
         y(k) = 0
   10 continue
      call pvmfunpack(INTEGER4, y, 3, 2, iupk)
      write (v, '(6(i0,1x))') y
      call prt('stride-int-2-2', ipk, t, iupk, v)
      call newbuf()
      call pvmfpack(INTEGER4, x(5), 3, -1, ipk)
      call selfrt(62, t)
      y(1) = 0
      y(2) = 0
      y(3) = 0
      if (ipk .ge. 0) call pvmfunpack(INTEGER4, y, 3, 1, iupk)
      write (v, '(3(i0,1x))') y(1), y(2), y(3)
      call prt('stride-int-neg-trip', ipk, t, iupk, v)
      call newbuf()
      call pvmfpack(REAL8, d, 2, 3, ipk)
      call selfrt(63, t)
      e(1) = 0
      e(2) = 0
      call pvmfunpack(REAL8, e, 2, 1, iupk)
      write (v, '(2(f0.1,1x))') e(1), e(2)
      call prt('stride-real8-3', ipk, t, iupk, v)
      call newbuf()
      call pvmfpack(COMPLEX16, z, 2, 2, ipk)
      call selfrt(64, t)
      w(1) = (0d0, 0d0)
      w(2) = (0d0, 0d0)
      call pvmfunpack(COMPLEX16, w, 2, 1, iupk)
      write (v, '(4(f0.1,1x))') w(1), w(2)
      call prt('stride-complex16-2', ipk, t, iupk, v)
      end

c     pvmfpsend/pvmfprecv to myself.
      subroutine direct(me)
      implicit none
      include 'fpvm3.h'
      integer me, x(3), y(5), info, atid, atag, alen
      double precision d(2), e(2)
      character*12 s
      character*80 v
      data x /10, -20, 30/
      data d /0.5d0, -1.5d0/
      y(1) = 0
      y(2) = 0
      y(3) = 0
      call pvmfpsend(me, 71, x, 3, INTEGER4, info)
      call pvmfprecv(me, 71, y, 5, INTEGER4, atid, atag, alen, info)
      write (v, '(3(i0,1x))') y(1), y(2), y(3)
      call precv1('psend-int', info, atid, atag, alen, v)
      call pvmfpsend(me, 72, d, 2, REAL8, info)
      call pvmfprecv(me, 72, e, 2, REAL8, atid, atag, alen, info)
      write (v, '(2(f0.2,1x))') e
      call precv1('psend-real8', info, atid, atag, alen, v)
      y(1) = 0
      y(2) = 0
      y(3) = 0
      call pvmfpsend(me, 73, x, 3, INTEGER4, info)
      call pvmfprecv(me, 73, y, 2, INTEGER4, atid, atag, alen, info)
      write (v, '(3(i0,1x))') y(1), y(2), y(3)
      call precv1('precv-shorter', info, atid, atag, alen, v)
      s = '############'
      call pvmfpsend(me, 74, 'hello', 5, BYTE1, info)
      call pvmfprecv(me, 74, s, 12, BYTE1, atid, atag, alen, info)
      call precv1('psend-chars', info, atid, atag, alen,
     &     '[' // s // ']')
      call pvmfpsend(me, 75, x, 3, 99, info)
      call rc('psend-type-99', 'pvmfpsend(type 99)', info)
      call pvmfpsend(me, 76, x, 1, INTEGER4, info)
      call pvmfprecv(me, 76, d, 1, REAL8, atid, atag, alen, info)
      call precv1('precv-other-type', info, atid, atag, alen, '-')
      call drain()
      end

c     The record of one pvmfprecv.
      subroutine precv1(c, info, atid, atag, alen, v)
      implicit none
      character*(*) c, v
      integer info, atid, atag, alen
      character*16 ecode, inum, tname
      call rec(c, 'info ' // trim(ecode(info)) // ', atid ' //
     &     trim(tname(atid)) // ', atag ' // trim(inum(atag)) //
     &     ', alen ' // trim(inum(alen)) // ', got ' // v)
      end

c     Buffers: pvmfbufinfo, no active buffer, receive without data.
      subroutine bufs(me)
      implicit none
      include 'fpvm3.h'
      integer me, b, old, info, bytes, tag, src, k
      character*16 ecode, inum, tname
      call pvmfbufinfo(9999, bytes, tag, src, info)
      call rc('bufinfo-none', 'pvmfbufinfo(9999)', info)
      call pvmfbufinfo(0, bytes, tag, src, info)
      call rc('bufinfo-0', 'pvmfbufinfo(0)', info)
      call pvmfbufinfo(-1, bytes, tag, src, info)
      call rc('bufinfo-neg', 'pvmfbufinfo(-1)', info)
      call newbuf()
      k = 5
      call pvmfpack(INTEGER4, k, 1, 1, info)
      call pvmfsend(me, 81, info)
      call pvmfrecv(-1, 81, b)
      call pvmfbufinfo(b, bytes, tag, src, info)
      call rec('bufinfo-recv', 'info ' // trim(ecode(info)) //
     &     ', bytes ' // trim(inum(bytes)) // ', tag ' //
     &     trim(inum(tag)) // ', src ' // tname(src))
      call pvmffreebuf(9999, info)
      call rc('freebuf-none', 'pvmffreebuf(9999)', info)
      call pvmfsetsbuf(0, old)
      call pvmfpack(INTEGER4, k, 1, 1, info)
      call rc('pack-no-sbuf', 'pvmfpack without a send buffer', info)
      call pvmfsetsbuf(old, k)
      call pvmfsetrbuf(0, old)
      call pvmfunpack(INTEGER4, k, 1, 1, info)
      call rc('unpack-no-rbuf', 'pvmfunpack without a receive buffer',
     &     info)
      call pvmfsetrbuf(old, k)
      call pvmftrecv(-1, 12345, 0, 200000, b)
      call rc('trecv-timeout', 'pvmftrecv(0.2 s)', b)
      call pvmfnrecv(-1, 12345, b)
      call rc('nrecv-none', 'pvmfnrecv', b)
      call pvmfprobe(-1, 12345, b)
      call rc('probe-none', 'pvmfprobe', b)
      call pvmfinitsend(99, b)
      call rc('initsend-bad', 'pvmfinitsend(99)', b)
      call pvmfmkbuf(PVMDATARAW, b)
      call pvmfsetsbuf(b, old)
      call pvmfgetsbuf(k)
      call rec('setsbuf-getsbuf', 'same ' //
     &     merge('yes', 'no ', k .eq. b .and. b .gt. 0))
      call pvmfsetsbuf(old, k)
      call pvmffreebuf(b, info)
      call rc('freebuf-mkbuf', 'pvmffreebuf(mkbuf)', info)
      end

c     The child echoes four INTEGER4 (it was spawned from a path with
c     trailing blanks).
      subroutine echo()
      implicit none
      include 'fpvm3.h'
      integer host, child, x(4), y(5), info, buf
      character*80 v
      common /fids/ host, child
      data x /4, 3, 2, 1/
      if (child .le. 0) then
         call rec('child-echo', 'no child')
         return
      endif
      call newbuf()
      call pvmfpack(INTEGER4, x, 4, 1, info)
      call pvmfsend(child, 78, info)
      call pvmftrecv(child, 79, 10, 0, buf)
      if (buf .le. 0) then
         call rc('child-echo', 'trecv', buf)
         return
      endif
      call pvmfunpack(INTEGER4, y, 5, 1, info)
      write (v, '(5(i0,1x))') y
      call rec('child-echo', 'got ' // v)
      end

c     The mailbox: names with trailing blanks, blank and long names.
      subroutine mbox()
      implicit none
      include 'fpvm3.h'
      integer buf, idx, info, k
      character*16 ecode, inum, pos
      call newbuf()
      k = 4242
      call pvmfpack(INTEGER4, k, 1, 1, info)
      call pvmfgetsbuf(buf)
      call pvmfputinfo('fbox', buf, PVMMBOXDEFAULT, idx)
      call rc('mbox-put', 'pvmfputinfo(fbox)', idx)
      call pvmfputinfo('fbox     ', buf, PVMMBOXDEFAULT, idx)
      call rc('mbox-put-padded', 'pvmfputinfo(fbox + blanks)', idx)
      call pvmfrecvinfo('fbox      ', 0, PVMMBOXDEFAULT, buf)
      k = 0
      if (buf .gt. 0) call pvmfunpack(INTEGER4, k, 1, 1, info)
      call rec('mbox-recv-padded', 'bufid ' // trim(pos(buf)) //
     &     ', int ' // inum(k))
      call pvmfrecvinfo('fnobox', 0, PVMMBOXDEFAULT, buf)
      call rc('mbox-recv-none', 'pvmfrecvinfo(fnobox)', buf)
      call pvmfgetsbuf(buf)
      call pvmfputinfo(' ', buf, PVMMBOXDEFAULT, idx)
      call rc('mbox-put-blank', 'pvmfputinfo(blank)', idx)
      call pvmfrecvinfo(' ', 0, PVMMBOXDEFAULT, buf)
      call rc('mbox-recv-blank', 'pvmfrecvinfo(blank)', buf)
      call pvmfgetsbuf(buf)
      call pvmfputinfo(repeat('m', 300), buf, PVMMBOXDEFAULT, idx)
      call rc('mbox-put-300', 'pvmfputinfo(300 characters)', idx)
      call pvmfdelinfo(repeat('m', 300), 0, 0, info)
      call rc('mbox-del-300', 'pvmfdelinfo(300 characters)', info)
      call pvmfputinfo('fmulti', buf, PVMMBOXMULTIINSTANCE, idx)
      call pvmfputinfo('fmulti  ', buf, PVMMBOXMULTIINSTANCE, k)
      call rec('mbox-put-multi', 'indices ' // trim(ecode(idx)) //
     &     ' ' // ecode(k))
      call mboxinfo()
      call pvmfdelinfo('fbox  ', 0, PVMMBOXDEFAULT, info)
      call rc('mbox-del-padded', 'pvmfdelinfo(fbox + blanks)', info)
      call pvmfdelinfo('fbox', 0, PVMMBOXDEFAULT, info)
      call rc('mbox-del-again', 'pvmfdelinfo(fbox)', info)
      call pvmfdelinfo('fmulti', 0, PVMMBOXDEFAULT, info)
      call pvmfdelinfo('fmulti', 1, PVMMBOXDEFAULT, k)
      call rec('mbox-del-multi', 'info ' // trim(ecode(info)) //
     &     ' ' // ecode(k))
      end

c     pvmfgetmboxinfo of one class by its name with trailing blanks.
      subroutine mboxinfo()
      implicit none
      include 'fpvm3.h'
      integer ncl, nent, idx(4), own(4), flg(4), info
      character*16 name, ecode, inum
      ncl = 0
      nent = -99
      info = -99
      name = '?'
      call pvmfgetmboxinfo('fbox   ', name, ncl, nent, idx, own,
     &     flg, info)
      call rec('mboxinfo-1', 'info ' // trim(ecode(info)) //
     &     ', nclasses ' // trim(inum(ncl)) // ', name [' //
     &     trim(name) // '], nentries ' // trim(inum(nent)) //
     &     ', index ' // inum(idx(1)))
      nent = -99
      info = -99
      name = '?'
      call pvmfgetmboxinfo('fbox   ', name, ncl, nent, idx, own,
     &     flg, info)
      call rec('mboxinfo-2', 'info ' // trim(ecode(info)) //
     &     ', nclasses ' // trim(inum(ncl)) // ', name [' //
     &     trim(name) // '], nentries ' // trim(inum(nent)))
      end

c     Hosts: names with trailing blanks, blank names.
      subroutine hosts()
      implicit none
      include 'fpvm3.h'
      integer host, child, info
      character*1024 self
      character*64 hname
      common /fids/ host, child
      common /fstr/ self, hname
      call pvmfmstat(hname, info)
      call rc('mstat-padded', 'pvmfmstat(my host + blanks)', info)
      call pvmfmstat('nosuchhost', info)
      call rc('mstat-nohost', 'pvmfmstat(nosuchhost)', info)
      call pvmfmstat(' ', info)
      call rc('mstat-blank', 'pvmfmstat(blank)', info)
      call pvmfarchcode('LINUX64     ', info)
      call rc('archcode-padded', 'pvmfarchcode(LINUX64 + blanks)',
     &     info)
      call pvmfarchcode('NOSUCHARCH', info)
      call rc('archcode-bad', 'pvmfarchcode(NOSUCHARCH)', info)
      call pvmfarchcode(' ', info)
      call rc('archcode-blank', 'pvmfarchcode(blank)', info)
      call pvmfaddhost(repeat('h', 257), info)
      call rc('addhost-257', 'pvmfaddhost(257 characters)', info)
      call pvmfaddhost(' ', info)
      call rc('addhost-blank', 'pvmfaddhost(blank)', info)
      call pvmfdelhost('nosuchhost   ', info)
      call rc('delhost-nohost', 'pvmfdelhost(nosuchhost)', info)
      end

c     The longest strings taken: 256 characters (trailing blanks not
c     counted); one more is PvmBadParam.
      subroutine limits()
      implicit none
      include 'fpvm3.h'
      integer info, buf
      character*300 short
      character*16 pos
      short = 'f_probe_no_such_program'
      call spawn1('spawn-task-in-300', short, PVMTASKDEFAULT, ' ', 1)
      call spawn1('spawn-task-256', repeat('x', 256), PVMTASKDEFAULT,
     &     ' ', 1)
      call spawn1('spawn-task-257', repeat('x', 257), PVMTASKDEFAULT,
     &     ' ', 1)
      call spawn1('spawn-where-256', short, PVMTASKHOST,
     &     repeat('h', 256), 1)
      call spawn1('spawn-where-257', short, PVMTASKHOST,
     &     repeat('h', 257), 1)
      call pvmfmstat(repeat('h', 256), info)
      call rc('mstat-256', 'pvmfmstat(256 characters)', info)
      call pvmfmstat(repeat('h', 257), info)
      call rc('mstat-257', 'pvmfmstat(257 characters)', info)
      call pvmfarchcode(repeat('a', 256), info)
      call rc('archcode-256', 'pvmfarchcode(256 characters)', info)
      call pvmfarchcode(repeat('a', 257), info)
      call rc('archcode-257', 'pvmfarchcode(257 characters)', info)
      call pvmfdelhost(repeat('h', 257), info)
      call rc('delhost-257', 'pvmfdelhost(257 characters)', info)
      call newbuf()
      call pvmfgetsbuf(buf)
      call pvmfputinfo(repeat('m', 256), buf, PVMMBOXDEFAULT, info)
      call rc('mbox-put-256', 'pvmfputinfo(256 characters)', info)
      call pvmfrecvinfo(repeat('m', 256), 0, PVMMBOXDEFAULT, buf)
      call rec('mbox-recv-256', 'bufid ' // pos(buf))
      call pvmfrecvinfo(repeat('m', 257), 0, PVMMBOXDEFAULT, buf)
      call rc('mbox-recv-257', 'pvmfrecvinfo(257 characters)', buf)
      call pvmfdelinfo(repeat('m', 257), 0, 0, info)
      call rc('mbox-del-257', 'pvmfdelinfo(257 characters)', info)
      call pvmfdelinfo(repeat('m', 256), 0, 0, info)
      call rc('mbox-del-256', 'pvmfdelinfo(256 characters)', info)
      end

c     Group names: 31 characters at most (more is PvmBadParam, though
c     the C calls take them); trailing blanks are not counted.
      subroutine glimits()
      implicit none
      include 'fpvm3.h'
      external PvmSum
      integer info, x(1)
      character*40 g
      x(1) = 1
      g = repeat('g', 31)
      call pvmfjoingroup(g, info)
      call rc('join-31-in-40', 'pvmfjoingroup(31 characters)', info)
      call pvmfgsize(g, info)
      call rc('gsize-31', 'pvmfgsize(31 characters)', info)
      call pvmfjoingroup(repeat('g', 32), info)
      call rc('join-32', 'pvmfjoingroup(32 characters)', info)
      call pvmfgsize(repeat('g', 32), info)
      call rc('gsize-32', 'pvmfgsize(32 characters)', info)
      call pvmfgettid(repeat('g', 32), 0, info)
      call rc('gettid-32', 'pvmfgettid(32 characters)', info)
      call pvmfbarrier(repeat('g', 32), 1, info)
      call rc('barrier-32', 'pvmfbarrier(32 characters)', info)
      call pvmfbcast(repeat('g', 32), 97, info)
      call rc('bcast-32', 'pvmfbcast(32 characters)', info)
      call pvmfreduce(PvmSum, x, 1, INTEGER4, 98, repeat('g', 32), 0,
     &     info)
      call rc('reduce-32', 'pvmfreduce(32 characters)', info)
      call pvmfgather(x, x, 1, INTEGER4, 98, repeat('g', 32), 0, info)
      call rc('gather-32', 'pvmfgather(32 characters)', info)
      call pvmffreezegroup(repeat('g', 32), 1, info)
      call rc('freeze-32', 'pvmffreezegroup(32 characters)', info)
      call pvmflvgroup(repeat('g', 32), info)
      call rc('lvgroup-32', 'pvmflvgroup(32 characters)', info)
      call pvmflvgroup(g, info)
      call rc('lvgroup-31', 'pvmflvgroup(31 characters)', info)
      call drain()
      end

c     Groups (of one member): names with trailing blanks, blank and
c     long names, gather and scatter.
      subroutine groups(me)
      implicit none
      include 'fpvm3.h'
      integer me, info, k, x(3), y(3)
      character*16 tname, ecode
      character*80 v
      data x /7, 8, 9/
      call pvmfjoingroup('fgrp', k)
      call rc('join', 'pvmfjoingroup(fgrp)', k)
      call pvmfjoingroup('fgrp     ', k)
      call rc('join-padded', 'pvmfjoingroup(fgrp + blanks)', k)
      call pvmfjoingroup(' ', k)
      call rc('join-blank', 'pvmfjoingroup(blank)', k)
      call pvmfjoingroup(repeat('g', 300), k)
      call rc('join-300', 'pvmfjoingroup(300 characters)', k)
      call pvmfgsize('fgrp   ', k)
      call rc('gsize-padded', 'pvmfgsize(fgrp + blanks)', k)
      call pvmfgetinst('fgrp   ', me, k)
      call rc('getinst-padded', 'pvmfgetinst(fgrp + blanks, me)', k)
      call pvmfgettid('fgrp   ', 0, k)
      call rec('gettid-padded', 'pvmfgettid(fgrp + blanks, 0) = ' //
     &     tname(k))
      call pvmfgettid('fgrp', 5, k)
      call rc('gettid-noinst', 'pvmfgettid(fgrp, 5)', k)
      call pvmfgettid('fnogrp', 0, k)
      call rc('gettid-nogroup', 'pvmfgettid(fnogrp, 0)', k)
      call pvmfgettid(' ', 0, k)
      call rc('gettid-blank', 'pvmfgettid(blank, 0)', k)
      call pvmfbarrier('fgrp  ', 1, info)
      call rc('barrier-padded', 'pvmfbarrier(fgrp + blanks, 1)', info)
      call pvmfbcast('fgrp  ', 91, info)
      call rc('bcast-alone', 'pvmfbcast(fgrp + blanks)', info)
      call drain()
      y(1) = 0
      y(2) = 0
      y(3) = 0
      call pvmfgather(y, x, 3, INTEGER4, 92, 'fgrp ', 0, info)
      write (v, '(3(i0,1x))') y
      call rec('gather-alone', 'info ' // trim(ecode(info)) //
     &     ', got ' // v)
      y(1) = 0
      y(2) = 0
      y(3) = 0
      call pvmfscatter(y, x, 3, INTEGER4, 93, 'fgrp ', 0, info)
      write (v, '(3(i0,1x))') y
      call rec('scatter-alone', 'info ' // trim(ecode(info)) //
     &     ', got ' // v)
      end

c     pvmfreduce on a group of one, with the EXTERNAL functions of
c     libfpvm3 and one of the probe's own; then the functions called
c     directly; then leaving the group.
      subroutine reduces()
      implicit none
      include 'fpvm3.h'
      external PvmMax, PvmMin, PvmSum, PvmProduct, fuser
      integer x(3), info, k
      double precision d(2)
      character*80 v
      character*16 ecode
      data x /3, -7, 11/
      data d /2.5d0, -0.5d0/
      call red1('reduce-max-int', PvmMax, x, 3, INTEGER4, 0)
      call red1('reduce-min-int', PvmMin, x, 3, INTEGER4, 0)
      call red1('reduce-sum-int', PvmSum, x, 3, INTEGER4, 0)
      call red1('reduce-product-int', PvmProduct, x, 3, INTEGER4, 0)
      call red1('reduce-user-int', fuser, x, 3, INTEGER4, 0)
      call red1('reduce-sum-string', PvmSum, x, 3, STRING, 0)
      call red1('reduce-sum-byte', PvmSum, x, 3, BYTE1, 0)
      call red1('reduce-max-complex8', PvmMax, x, 1, COMPLEX8, 0)
      call red1('reduce-sum-count0', PvmSum, x, 0, INTEGER4, 0)
      call red1('reduce-sum-count-1', PvmSum, x, -1, INTEGER4, 0)
      call red1('reduce-sum-root5', PvmSum, x, 3, INTEGER4, 5)
      call red1('reduce-sum-root-1', PvmSum, x, 3, INTEGER4, -1)
      call pvmfreduce(PvmMax, d, 2, REAL8, 94, 'fgrp', 0, info)
      write (v, '(2(f0.2,1x))') d
      call rec('reduce-max-real8', 'info ' // trim(ecode(info)) //
     &     ', got ' // v)
      call pvmfreduce(PvmSum, x, 3, INTEGER4, 95, 'fnogrp', 0, info)
      call rc('reduce-nogroup', 'pvmfreduce(fnogrp)', info)
      call direct2()
      call pvmflvgroup('fgrp   ', info)
      call rc('lvgroup-padded', 'pvmflvgroup(fgrp + blanks)', info)
      call pvmflvgroup('fgrp', info)
      call rc('lvgroup-again', 'pvmflvgroup(fgrp)', info)
      call pvmfgsize('fgrp', k)
      call rc('gsize-after', 'pvmfgsize(fgrp)', k)
      call drain()
      end

c     One pvmfreduce into fgrp and its record.
      subroutine red1(c, f, x, n, type, root)
      implicit none
      character*(*) c
      external f
      integer x(3), y(3), n, type, root, info
      character*16 ecode
      character*80 v
      y(1) = x(1)
      y(2) = x(2)
      y(3) = x(3)
      call pvmfreduce(f, y, n, type, 96, 'fgrp', root, info)
      write (v, '(3(i0,1x))') y
      call rec(c, 'info ' // trim(ecode(info)) // ', got ' // v)
      call drain()
      end

c     A reduce function of the probe's own: x = x - y.
      subroutine fuser(type, x, y, n, info)
      implicit none
      integer type, x(*), y(*), n, info, k
      do 10 k = 1, n
         x(k) = x(k) - y(k)
   10 continue
      info = 0
      end

c     The EXTERNAL reduce functions called directly: x = f(x, y).
      subroutine direct2()
      implicit none
      include 'fpvm3.h'
      external PvmMax, PvmMin, PvmSum, PvmProduct
      call fn1('fn-max-int', PvmMax, INTEGER4)
      call fn1('fn-min-int', PvmMin, INTEGER4)
      call fn1('fn-sum-int', PvmSum, INTEGER4)
      call fn1('fn-product-int', PvmProduct, INTEGER4)
      call fn1('fn-max-real8', PvmMax, REAL8)
      call fn1('fn-min-real8', PvmMin, REAL8)
      call fn1('fn-sum-real8', PvmSum, REAL8)
      call fn1('fn-product-real8', PvmProduct, REAL8)
      call fn1('fn-sum-complex8', PvmSum, COMPLEX8)
      call fn1('fn-max-complex8', PvmMax, COMPLEX8)
      call fn1('fn-sum-string', PvmSum, STRING)
      call fn1('fn-sum-byte', PvmSum, BYTE1)
      call fn1('fn-sum-integer2', PvmSum, INTEGER2)
      call fn1('fn-sum-bad', PvmSum, 99)
      end

c     f(type, x, y, 2, info) on x = (1, -5), y = (4, -2) of that type
c     (complex: one, x = (1, -5), y = (4, -6)).
      subroutine fn1(c, f, type)
      implicit none
      include 'fpvm3.h'
      character*(*) c
      external f
      integer type, info, x(2), y(2)
      integer*2 x2(2), y2(2)
      double precision d(2), e(2)
      complex z, w
      character*16 ecode
      character*80 v
      info = -99
      if (type .eq. REAL8) then
         d(1) = 1d0
         d(2) = -5d0
         e(1) = 4d0
         e(2) = -2d0
         call f(type, d, e, 2, info)
         write (v, '(2(f0.1,1x))') d
      else if (type .eq. COMPLEX8) then
         z = (1.0, -5.0)
         w = (4.0, -6.0)
         call f(type, z, w, 1, info)
         write (v, '(2(f0.1,1x))') z
      else if (type .eq. INTEGER2) then
         x2(1) = 1
         x2(2) = -5
         y2(1) = 4
         y2(2) = -2
         call f(type, x2, y2, 2, info)
         write (v, '(2(i0,1x))') x2
      else
         x(1) = 1
         x(2) = -5
         y(1) = 4
         y(2) = -2
         call f(type, x, y, 2, info)
         write (v, '(2(i0,1x))') x
      endif
      call rec(c, 'info ' // trim(ecode(info)) // ', x ' // v)
      end

c     pvmfnotify: of a task that does not exist, a bad kind, then the
c     child's exit (it is told to go).
      subroutine notify()
      implicit none
      include 'fpvm3.h'
      integer host, child, t(1), info, buf
      common /fids/ host, child
      t(1) = host + 262128
      call pvmfnotify(PVMTASKEXIT, 55, 1, t, info)
      call rc('notify-exit-notask', 'pvmfnotify', info)
      call nextmsg('notify-exit-notask', 1)
      call pvmfnotify(99, 55, 1, t, info)
      call rc('notify-bad-what', 'pvmfnotify(99)', info)
      call pvmfnotify(PVMTASKEXIT, 55, 0, t, info)
      call rc('notify-count0', 'pvmfnotify(count 0)', info)
      call drain()
      if (child .le. 0) return
      t(1) = child
      call pvmfnotify(PVMTASKEXIT, 56, 1, t, info)
      call rc('notify-exit-child', 'pvmfnotify', info)
      call newbuf()
      call pvmfsend(child, 77, info)
      call nextmsg('notify-exit-child', 10)
      call pvmfpstat(child, info)
      call rc('pstat-child-gone', 'pvmfpstat(child)', info)
      call pvmfkill(child, info)
      call rc('kill-child-gone', 'pvmfkill(child)', info)
      call pvmftrecv(-1, -1, 0, 100000, buf)
      end

c     pvmfperror after a failed call: its text goes to stderr (with
c     the message trimmed or not).
      subroutine perrs()
      implicit none
      integer info, bytes, tag, src
      call pvmfbufinfo(9999, bytes, tag, src, info)
      call pvmfperror('f_probe says   ', info)
      call rc('perror', 'pvmfperror', info)
      call pvmfperror(' ', info)
      call rc('perror-blank', 'pvmfperror(blank)', info)
      call pvmfperror(repeat('p', 300) // 'E  ', info)
      call rc('perror-long', 'pvmfperror(303 characters)', info)
      end
