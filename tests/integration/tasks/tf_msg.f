c
c     tf_msg.f: the task-level Fortran bindings (libfpvm3), master and
c     workers in one program.
c
c     Run as "tf_msg <absolute path of tf_msg>": the master spawns two
c     copies of that file (which, having a parent, become workers) and
c     checks: identity, pvmfconfig/pvmftasks cycles, host and error
c     calls with blank-padded and too-long strings, pvmfpack/unpack
c     of every type (exact values, echoed back), stride, bufinfo,
c     trecv (timeout and sec = -1), nrecv, probe, psend/precv, mcast,
c     siblings, contexts, a Fortran message handler, the mailbox,
c     buffer calls, getminfo/setminfo, pkmesg/upkmesg, notify, kill.
c
      program tfmsg
      implicit none
      include 'fpvm3.h'
      integer me, ptid
      character*1024 path

      call tfinit()
      call pvmfmytid(me)
      call pvmfparent(ptid)
      if (ptid .gt. 0) then
         call worker(me, ptid)
         call pvmfexit(ptid)
         stop
      endif
      call tfok(me .gt. 0, 'pvmfmytid gives a tid')
      call tfeq(ptid, PvmNoParent, 'pvmfparent without a parent')
      call get_command_argument(1, path)
      if (path .eq. ' ') then
         call tfok(.false., 'usage: tf_msg <path of tf_msg>')
      else
         call master(me, path)
      endif
      call tfdone('tf_msg')
      end

c     ------------------------------------------------------------
c     The test data: one array of each type, with extreme values.
c     ------------------------------------------------------------
      subroutine fill(str, b1, i2, i4, r4, c8, r8, c16, i8)
      implicit none
      character*11 str
      integer*1 b1(4)
      integer*2 i2(3)
      integer*4 i4(6)
      real*4 r4(3)
      complex*8 c8(2)
      real*8 r8(3)
      complex*16 c16(2)
      integer*8 i8(3)
      str = 'Hello, PVM!'
      b1(1) = int(-128, 1)
      b1(2) = int(-1, 1)
      b1(3) = int(0, 1)
      b1(4) = int(127, 1)
      i2(1) = int(-32768, 2)
      i2(2) = int(1, 2)
      i2(3) = int(32767, 2)
      i4(1) = -huge(0) - 1
      i4(2) = -1
      i4(3) = 0
      i4(4) = 1
      i4(5) = huge(0)
      i4(6) = 123456789
      r4(1) = 1.5
      r4(2) = -0.25
      r4(3) = 1024.125
      c8(1) = (1.5, -2.5)
      c8(2) = (0.125, 8.0)
      r8(1) = 1d0 / 3d0
      r8(2) = -2.5d300
      r8(3) = 1d-300
      c16(1) = cmplx(1d0 / 3d0, -7.25d0, kind=8)
      c16(2) = cmplx(2.5d100, -1d-100, kind=8)
      i8(1) = 2_8**40 + 3_8
      i8(2) = -(2_8**62)
      i8(3) = 42_8
      end

c     Pack every array in a fixed order, then i4 with stride 2.
      subroutine pkall(str, b1, i2, i4, r4, c8, r8, c16, i8, info)
      implicit none
      include 'fpvm3.h'
      character*11 str
      integer*1 b1(4)
      integer*2 i2(3)
      integer*4 i4(6)
      real*4 r4(3)
      complex*8 c8(2)
      real*8 r8(3)
      complex*16 c16(2)
      integer*8 i8(3)
      integer info, cc(10), k
      call pvmfpack(STRING, str, 11, 1, cc(1))
      call pvmfpack(BYTE1, b1, 4, 1, cc(2))
      call pvmfpack(INTEGER2, i2, 3, 1, cc(3))
      call pvmfpack(INTEGER4, i4, 6, 1, cc(4))
      call pvmfpack(REAL4, r4, 3, 1, cc(5))
      call pvmfpack(COMPLEX8, c8, 2, 1, cc(6))
      call pvmfpack(REAL8, r8, 3, 1, cc(7))
      call pvmfpack(COMPLEX16, c16, 2, 1, cc(8))
      call pvmfpack(INTEGER8, i8, 3, 1, cc(9))
      call pvmfpack(INTEGER4, i4, 3, 2, cc(10))
      info = 0
      do 10 k = 1, 10
         if (cc(k) .ne. 0 .and. info .eq. 0) info = cc(k)
   10 continue
      end

c     Unpack what pkall packed; the strided part lands in i4s.
      subroutine upkall(str, b1, i2, i4, r4, c8, r8, c16, i8, i4s,
     &                  info)
      implicit none
      include 'fpvm3.h'
      character*11 str
      integer*1 b1(4)
      integer*2 i2(3)
      integer*4 i4(6), i4s(3)
      real*4 r4(3)
      complex*8 c8(2)
      real*8 r8(3)
      complex*16 c16(2)
      integer*8 i8(3)
      integer info, cc(10), k
      call pvmfunpack(STRING, str, 11, 1, cc(1))
      call pvmfunpack(BYTE1, b1, 4, 1, cc(2))
      call pvmfunpack(INTEGER2, i2, 3, 1, cc(3))
      call pvmfunpack(INTEGER4, i4, 6, 1, cc(4))
      call pvmfunpack(REAL4, r4, 3, 1, cc(5))
      call pvmfunpack(COMPLEX8, c8, 2, 1, cc(6))
      call pvmfunpack(REAL8, r8, 3, 1, cc(7))
      call pvmfunpack(COMPLEX16, c16, 2, 1, cc(8))
      call pvmfunpack(INTEGER8, i8, 3, 1, cc(9))
      call pvmfunpack(INTEGER4, i4s, 3, 1, cc(10))
      info = 0
      do 10 k = 1, 10
         if (cc(k) .ne. 0 .and. info .eq. 0) info = cc(k)
   10 continue
      end

c     Compare unpacked data with the originals: ok(k) per type
c     (1 STRING ... 9 INTEGER8, 10 the strided INTEGER4 items).
      subroutine cmpall(str, b1, i2, i4, r4, c8, r8, c16, i8, i4s, ok)
      implicit none
      character*11 str, xstr
      integer*1 b1(4), xb1(4)
      integer*2 i2(3), xi2(3)
      integer*4 i4(6), xi4(6), i4s(3)
      real*4 r4(3), xr4(3)
      complex*8 c8(2), xc8(2)
      real*8 r8(3), xr8(3)
      complex*16 c16(2), xc16(2)
      integer*8 i8(3), xi8(3)
      logical ok(10)
      call fill(xstr, xb1, xi2, xi4, xr4, xc8, xr8, xc16, xi8)
      ok(1) = str .eq. xstr
      ok(2) = all(b1 .eq. xb1)
      ok(3) = all(i2 .eq. xi2)
      ok(4) = all(i4 .eq. xi4)
      ok(5) = all(r4 .eq. xr4)
      ok(6) = all(c8 .eq. xc8)
      ok(7) = all(r8 .eq. xr8)
      ok(8) = all(c16 .eq. xc16)
      ok(9) = all(i8 .eq. xi8)
      ok(10) = i4s(1) .eq. xi4(1) .and. i4s(2) .eq. xi4(3) .and.
     &         i4s(3) .eq. xi4(5)
      end

c     ------------------------------------------------------------
c     Worker: answers the master's steps in order, then waits for
c     tag 90 (exit) or to be killed.
c     ------------------------------------------------------------
      subroutine worker(me, ptid)
      implicit none
      include 'fpvm3.h'
      integer me, ptid
      character*11 str
      integer*1 b1(4)
      integer*2 i2(3)
      integer*4 i4(6), i4s(3)
      real*4 r4(3)
      complex*8 c8(2)
      real*8 r8(3), d(5)
      complex*16 c16(2)
      integer*8 i8(3)
      logical ok(10)
      integer info, bufid, ntids, sib(2), nbad, k, myidx, v
      integer atid, atag, alen

c     hello: my tid and what pvmfsiblings says
      call pvmfsiblings(ntids, -1, k)
      call pvmfsiblings(ntids, 0, sib(1))
      call pvmfsiblings(ntids, 1, sib(2))
      call pvmfsiblings(ntids, 2, k)
      myidx = 0
      if (sib(2) .eq. me) myidx = 1
      call pvmfinitsend(PVMDATADEFAULT, bufid)
      call pvmfpack(INTEGER4, me, 1, 1, info)
      call pvmfpack(INTEGER4, ntids, 1, 1, info)
      call pvmfpack(INTEGER4, sib, 2, 1, info)
      call pvmfpack(INTEGER4, k, 1, 1, info)
      call pvmfsend(ptid, 1, info)

c     tag 10: every type; check and echo (failures first)
      call pvmfrecv(ptid, 10, bufid)
      call upkall(str, b1, i2, i4, r4, c8, r8, c16, i8, i4s, info)
      call cmpall(str, b1, i2, i4, r4, c8, r8, c16, i8, i4s, ok)
      nbad = 0
      if (info .ne. 0) nbad = 100
      do 10 k = 1, 10
         if (.not. ok(k)) nbad = nbad + 1
   10 continue
      call pvmfinitsend(PVMDATADEFAULT, bufid)
      call pvmfpack(INTEGER4, nbad, 1, 1, info)
      call pkall(str, b1, i2, i4, r4, c8, r8, c16, i8, info)
      call pvmfsend(ptid, 11, info)

c     tag 20: psend/precv of five REAL8, sent back doubled
      call pvmfprecv(ptid, 20, d, 5, REAL8, atid, atag, alen, info)
      do 20 k = 1, 5
         d(k) = 2 * d(k)
   20 continue
      call pvmfpsend(ptid, 21, d, 5, REAL8, info)
      call pvmfinitsend(PVMDATADEFAULT, bufid)
      call pvmfpack(INTEGER4, atid, 1, 1, info)
      call pvmfpack(INTEGER4, atag, 1, 1, info)
      call pvmfpack(INTEGER4, alen, 1, 1, info)
      call pvmfsend(ptid, 22, info)

c     tag 30: a multicast value; reply value + my sibling index
      call pvmfrecv(ptid, 30, bufid)
      call pvmfunpack(INTEGER4, v, 1, 1, info)
      v = v + myidx
      call pvmfinitsend(PVMDATADEFAULT, bufid)
      call pvmfpack(INTEGER4, v, 1, 1, info)
      call pvmfsend(ptid, 31, info)

c     tag 90: leave
      call pvmfrecv(ptid, 90, bufid)
      end

c     ------------------------------------------------------------
c     The message handler: counts calls, keeps the value it got.
c     ------------------------------------------------------------
      integer function fhand(bufid)
      implicit none
      include 'fpvm3.h'
      integer bufid, info
      integer ncalls, lastv, lastb
      common /hand/ ncalls, lastv, lastb
      ncalls = ncalls + 1
      lastb = bufid
      call pvmfunpack(INTEGER4, lastv, 1, 1, info)
      fhand = 0
      end

c     ------------------------------------------------------------
c     Master
c     ------------------------------------------------------------
      subroutine master(me, path)
      implicit none
      include 'fpvm3.h'
      integer me
      character*(*) path
      integer tids(2), numt, info, old, dtid, d2, k

      call pvmfsetopt(PVMAUTOERR, 0, old)
      call tfeq(old, 1, 'pvmfsetopt(PvmAutoErr) returns the old value')
      call pvmftidtohost(me, dtid)
      call pvmftidtoh(me, d2)
      call tfok(dtid .gt. 0 .and. dtid .lt. me,
     &          'pvmftidtohost gives the host part')
      call tfeq(d2, dtid, 'pvmftidtoh (documented name) agrees')

      call hosts(dtid)
      call misc()
      call bufs(me)
      call ctxmhf(me)
      call mbox(me)

c     spawn errors, then the two workers
      call pvmfcatchout(1, info)
      call tfeq(info, 0, 'pvmfcatchout on')
      call pvmfcatchout(0, info)
      call tfeq(info, 0, 'pvmfcatchout off')
      call pvmfspawn('/nonexistent/tf_msg', PVMTASKDEFAULT, ' ', 1,
     &               tids, numt)
      call tfok(numt .lt. 1 .and. tids(1) .lt. 0,
     &          'pvmfspawn of a missing file starts nothing')
      tids(1) = 0
      tids(2) = 0
      call pvmfspawn(path, PVMTASKDEFAULT, '*', 2, tids, numt)
      call tfeq(numt, 2, 'pvmfspawn(where = *) of 2 workers')
      if (numt .ne. 2) return
      call pvmfnotify(PVMTASKEXIT, 99, 2, tids, info)
      call tfeq(info, 0, 'pvmfnotify(PvmTaskExit) on the workers')

      call hello(me, tids)
      call tasks(me, tids)
      call types(tids)
      call pscall(me, tids)
      call mcast(tids)

c     the end: worker 1 exits, worker 2 is killed; both notifies come
      call pvmfpstat(tids(1), info)
      call tfeq(info, PvmOk, 'pvmfpstat of a running worker')
      call pvmfinitsend(PVMDATADEFAULT, k)
      call pvmfsend(tids(1), 90, info)
      call pvmfkill(tids(2), info)
      call tfeq(info, 0, 'pvmfkill of worker 2')
      call exits(tids)
      call pvmfpstat(tids(2), info)
      call tfeq(info, PvmNoTask, 'pvmfpstat of the killed worker')
      end

c     pvmfconfig cycles, mstat/archcode with padded, unknown and
c     too-long strings, hostsync.
      subroutine hosts(dtid)
      implicit none
      include 'fpvm3.h'
      integer dtid
      integer nhost, narch, hdtid, speed, info, st, cod, k
      integer s, us, ds, dus
      character*256 hname, harch, h2
      character*300 long

      nhost = -1
      call pvmfconfig(nhost, narch, hdtid, hname, harch, speed, info)
c     info = 1: one host returned (PVM 3.4.6's convention)
      call tfeq(info, 1, 'pvmfconfig info')
      call tfeq(nhost, 1, 'pvmfconfig nhost')
      call tfeq(narch, 1, 'pvmfconfig narch')
      call tfeq(hdtid, dtid, 'pvmfconfig dtid is my host')
      call tfok(hname .ne. ' ' .and. harch .ne. ' ' .and.
     &          speed .gt. 0, 'pvmfconfig name, arch, speed set')
      call tfok(len_trim(hname) .lt. 256 .and.
     &          hname(256:256) .eq. ' ',
     &          'pvmfconfig name is blank-padded')
c     a new cycle starts after the last host
      h2 = 'x'
      call pvmfconfig(nhost, narch, k, h2, harch, speed, info)
      call tfok(info .eq. 1 .and. nhost .eq. 1 .and. h2 .eq. hname,
     &          'pvmfconfig starts a new cycle')
      call pvmfmstat(hname, st)
      call tfeq(st, PvmOk, 'pvmfmstat(blank-padded host name)')
      call pvmfmstat('no.such.host.invalid', st)
      call tfeq(st, PvmNoHost, 'pvmfmstat(unknown host)')
      do 10 k = 1, 300
         long(k:k) = 'x'
   10 continue
      call pvmfmstat(long, st)
      call tfeq(st, PvmBadParam, 'pvmfmstat(300-char name)')
      call pvmfarchcode(harch, cod)
      call tfok(cod .gt. 0, 'pvmfarchcode(my arch) > 0')
      call pvmfarchcode('NOSUCHARCH', cod)
      call tfeq(cod, PvmNotFound, 'pvmfarchcode(unknown arch)')
      call pvmfhostsync(dtid, s, us, ds, dus, info)
      call tfok(info .eq. 0 .and. s .gt. 1000000000 .and.
     &          abs(ds) .le. 1, 'pvmfhostsync of my host')
      end

c     options, errors, sleep
      subroutine misc()
      implicit none
      include 'fpvm3.h'
      integer v, old, info
      call pvmfgetopt(PVMROUTE, v)
      call tfok(v .ge. 1 .and. v .le. 3, 'pvmfgetopt(PvmRoute)')
      call pvmfserror(0, old)
      call tfeq(old, 0, 'pvmfserror returns PvmAutoErr')
      call pvmfadvise(v, info)
      call tfeq(info, 0, 'pvmfadvise(current route)')
      call pvmfgetopt(12345, v)
      call tfeq(v, PvmBadParam, 'pvmfgetopt(bad option)')
      call pvmfperror('tf_msg: pvmfperror works', info)
      call tfeq(info, 0, 'pvmfperror')
      call pvmfsleep(1)
      call tfok(.true., 'pvmfsleep(1) returns')
      end

c     buffers: mkbuf/setsbuf/getsbuf/freebuf, minfo, pkmesg/upkmesg
      subroutine bufs(me)
      implicit none
      include 'fpvm3.h'
      integer me
      integer b, old, cur, info, v, nb, rb, k
      integer len, ctx, tag, wid, enc, crc, src, dst

      call pvmfmkbuf(PVMDATADEFAULT, b)
      call tfok(b .gt. 0, 'pvmfmkbuf')
      call pvmfsetsbuf(b, old)
      call pvmfgetsbuf(cur)
      call tfeq(cur, b, 'pvmfsetsbuf / pvmfgetsbuf')
      v = 5
      call pvmfpack(INTEGER4, v, 1, 1, info)
c     pkmesg: b packed whole into a new message to myself (a new
c     send buffer: pvmfinitsend would free b, the active one)
      call pvmfmkbuf(PVMDATADEFAULT, k)
      call pvmfsetsbuf(k, old)
      call tfeq(old, b, 'pvmfsetsbuf returns the old buffer')
      call pvmfpkmesg(b, info)
      call tfeq(info, 0, 'pvmfpkmesg')
      call pvmfsend(me, 42, info)
      call pvmffreebuf(b, info)
      call tfeq(info, 0, 'pvmffreebuf')
      call pvmffreebuf(b, info)
      call tfeq(info, PvmNoSuchBuf, 'pvmffreebuf twice')
      call pvmftrecv(me, 42, 10, 0, rb)
      call tfok(rb .gt. 0, 'message with a packed message arrives')
      if (rb .le. 0) return
      call pvmfgetrbuf(cur)
      call tfeq(cur, rb, 'pvmfgetrbuf is the received buffer')
      call pvmfupkmesg(0, nb)
      call tfok(nb .gt. 0, 'pvmfupkmesg gives a new buffer')
      call pvmfsetrbuf(nb, old)
      call tfeq(old, rb, 'pvmfsetrbuf returns the old buffer')
      v = 0
      call pvmfunpack(INTEGER4, v, 1, 1, info)
      call tfeq(v, 5, 'value inside the packed message')
c     getminfo / setminfo on the received buffer
      call pvmfgetminfo(rb, len, ctx, tag, wid, enc, crc, src, dst,
     &                  info)
      call tfok(info .eq. 0 .and. tag .eq. 42 .and. src .eq. me
     &          .and. ctx .eq. 0, 'pvmfgetminfo tag, src, ctx')
      call pvmfsetminfo(rb, ctx, 43, wid, src, dst, info)
      call pvmfbufinfo(rb, len, tag, src, info)
      call tfok(info .eq. 0 .and. tag .eq. 43 .and. src .eq. me,
     &          'pvmfsetminfo changed the tag (pvmfbufinfo)')
      call pvmfbufinfo(-5, len, tag, src, info)
      call tfeq(info, PvmBadParam, 'pvmfbufinfo(-5)')
      call pvmfpack(12, v, 1, 1, info)
      call tfeq(info, PvmBadParam, 'pvmfpack(unknown type)')
      end

c     contexts and a Fortran message handler
      subroutine ctxmhf(me)
      implicit none
      include 'fpvm3.h'
      integer me
      integer ctx, old, cur, info, b, v, mhid
      integer ncalls, lastv, lastb
      common /hand/ ncalls, lastv, lastb
      integer fhand
      external fhand

      call pvmfnewcontext(ctx)
      call tfok(ctx .gt. 0, 'pvmfnewcontext')
      call pvmfsetcontext(ctx, old)
      call tfeq(old, 0, 'pvmfsetcontext returns the base context')
      call pvmfgetcontext(cur)
      call tfeq(cur, ctx, 'pvmfgetcontext')
      call pvmfinitsend(PVMDATADEFAULT, b)
      v = 4040
      call pvmfpack(INTEGER4, v, 1, 1, info)
      call pvmfsend(me, 40, info)
      call pvmfsetcontext(0, old)
      call pvmftrecv(-1, 40, 0, 300000, b)
      call tfeq(b, 0, 'context 0 does not see the new context')
      call pvmfsetcontext(ctx, old)
      call pvmftrecv(-1, 40, 5, 0, b)
      v = 0
      call pvmfunpack(INTEGER4, v, 1, 1, info)
      call tfok(b .gt. 0 .and. v .eq. 4040,
     &          'the new context sees its message')
      call pvmfsetcontext(0, old)
      call pvmffreecontext(ctx, info)
      call tfeq(info, 0, 'pvmffreecontext')

      ncalls = 0
      lastv = 0
      call pvmfaddmhf(me, 41, 0, 0, fhand, mhid)
      call tfok(mhid .ge. 0, 'pvmfaddmhf')
      call pvmfinitsend(PVMDATADEFAULT, b)
      v = 4141
      call pvmfpack(INTEGER4, v, 1, 1, info)
      call pvmfsend(me, 41, info)
      call pvmftrecv(-1, 58, 1, 0, b)
      call tfeq(ncalls, 1, 'Fortran handler called once')
      call tfeq(lastv, 4141, 'Fortran handler got its message')
      call pvmfdelmhf(mhid, info)
      call tfeq(info, 0, 'pvmfdelmhf')
      call pvmfdelmhf(mhid, info)
      call tfok(info .lt. 0, 'pvmfdelmhf twice fails')
      end

c     the mailbox: put, recv, getmboxinfo (one class per call), del
      subroutine mbox(me)
      implicit none
      include 'fpvm3.h'
      integer me
      integer b, info, idx, v, ncl, nent, ix(4), ow(4), fl(4)
      character*40 name

      call pvmfinitsend(PVMDATADEFAULT, b)
      v = 99
      call pvmfpack(INTEGER4, v, 1, 1, info)
      call pvmfputinfo('tf_msg class   ', b, PVMMBOXDEFAULT, idx)
      call tfeq(idx, 0, 'pvmfputinfo index')
      call pvmfrecvinfo('tf_msg class', 0, PVMMBOXDEFAULT, b)
      v = 0
      call pvmfunpack(INTEGER4, v, 1, 1, info)
      call tfok(b .gt. 0 .and. v .eq. 99, 'pvmfrecvinfo')
      ncl = -1
      call pvmfgetmboxinfo('tf_msg class', name, ncl, nent, ix, ow,
     &                     fl, info)
      call tfok(info .eq. 0 .and. ncl .eq. 1 .and.
     &          name .eq. 'tf_msg class' .and. nent .eq. 1 .and.
     &          ix(1) .eq. 0 .and. ow(1) .eq. me,
     &          'pvmfgetmboxinfo: one class, one entry, mine')
      call pvmfgetmboxinfo('tf_msg class', name, ncl, nent, ix, ow,
     &                     fl, info)
      call tfeq(info, PvmNotFound, 'pvmfgetmboxinfo after the last')
      call pvmfdelinfo('tf_msg class', 0, PVMMBOXDEFAULT, info)
      call tfok(info .ge. 0, 'pvmfdelinfo')
      call pvmfrecvinfo('tf_msg class', 0, PVMMBOXDEFAULT, b)
      call tfeq(b, PvmNotFound, 'pvmfrecvinfo after pvmfdelinfo')
      end

c     hellos: siblings as the workers see them
      subroutine hello(me, tids)
      implicit none
      include 'fpvm3.h'
      integer me, tids(2)
      integer k, b, info, w(5), j
      character*40 what
      do 10 k = 1, 2
         call pvmftrecv(tids(k), 1, 30, 0, b)
         call pvmfunpack(INTEGER4, w, 5, 1, info)
         write (what, '(a, i0)') 'hello from worker ', k
         call tfok(b .gt. 0 .and. w(1) .eq. tids(k), what)
         call tfeq(w(2), 2, 'pvmfsiblings count')
         j = 0
         if (w(3) .eq. tids(1) .and. w(4) .eq. tids(2)) j = 1
         call tfeq(j, 1, 'pvmfsiblings(0), (1) are the workers')
         call tfeq(w(5), PvmNoTask, 'pvmfsiblings(bad index)')
   10 continue
      end

c     pvmftasks cycle: both workers, with me as parent
      subroutine tasks(me, tids)
      implicit none
      include 'fpvm3.h'
      integer me, tids(2)
      integer ntask, tid, ptid, dtid, flag, info, k, n, found
      character*512 aout
      ntask = -1
      found = 0
      n = 1
      k = 0
   10 if (k .lt. n) then
         call pvmftasks(0, ntask, tid, ptid, dtid, flag, aout, info)
c        info = 1: one task returned (PVM 3.4.6's convention)
         if (info .ne. 1) goto 20
         n = ntask
         k = k + 1
         if ((tid .eq. tids(1) .or. tid .eq. tids(2)) .and.
     &       ptid .eq. me .and. index(aout, 'tf_msg') .gt. 0) then
            found = found + 1
         endif
         goto 10
      endif
   20 call tfeq(info, 1, 'pvmftasks info')
      call tfok(n .ge. 3, 'pvmftasks sees at least 3 tasks')
      call tfeq(found, 2, 'pvmftasks: both workers, parent, a.out')
      end

c     every type to both workers and back
      subroutine types(tids)
      implicit none
      include 'fpvm3.h'
      integer tids(2)
      character*11 str
      integer*1 b1(4)
      integer*2 i2(3)
      integer*4 i4(6), i4s(3)
      real*4 r4(3)
      complex*8 c8(2)
      real*8 r8(3)
      complex*16 c16(2)
      integer*8 i8(3)
      logical ok(10)
      integer b, info, k, w, nbad, bytes, tag, src
      character*60 what
      character*9 tname(10)
      data tname /'STRING', 'BYTE1', 'INTEGER2', 'INTEGER4', 'REAL4',
     &     'COMPLEX8', 'REAL8', 'COMPLEX16', 'INTEGER8', 'stride 2'/

      call fill(str, b1, i2, i4, r4, c8, r8, c16, i8)
      call pvmfinitsend(PVMDATADEFAULT, b)
      call pkall(str, b1, i2, i4, r4, c8, r8, c16, i8, info)
      call tfeq(info, 0, 'pvmfpack of every type')
      call pvmfsend(tids(1), 10, info)
      call pvmfsend(tids(2), 10, info)
      call tfeq(info, 0, 'pvmfsend')

c     nothing with tag 55: a timed receive times out
      call pvmftrecv(-1, 55, 0, 200000, b)
      call tfeq(b, 0, 'pvmftrecv times out')
      call pvmfnrecv(-1, 56, b)
      call tfeq(b, 0, 'pvmfnrecv finds nothing')

      do 30 w = 1, 2
         if (w .eq. 1) then
c           blocking timed receive (sec = -1)
            call pvmftrecv(tids(1), 11, -1, 0, b)
         else
c           wait with probe, then receive
            do 10 k = 1, 300
               call pvmfprobe(tids(2), 11, b)
               if (b .gt. 0) goto 15
               call pvmftrecv(-1, 57, 0, 100000, b)
   10       continue
   15       call tfok(b .gt. 0, 'pvmfprobe finds the echo')
            call pvmfrecv(tids(2), 11, b)
         endif
         call pvmfbufinfo(b, bytes, tag, src, info)
         write (what, '(a, i0)') 'pvmfbufinfo of the echo of worker ',
     &        w
         call tfok(info .eq. 0 .and. bytes .gt. 100 .and.
     &             tag .eq. 11 .and. src .eq. tids(w), what)
         call pvmfunpack(INTEGER4, nbad, 1, 1, info)
         write (what, '(a, i0, a)') 'worker ', w,
     &        ' found every type intact'
         call tfeq(nbad, 0, what)
         str = ' '
         b1 = 0
         i2 = 0
         i4 = 0
         r4 = 0
         c8 = 0
         r8 = 0
         c16 = 0
         i8 = 0
         i4s = 0
         call upkall(str, b1, i2, i4, r4, c8, r8, c16, i8, i4s, info)
         call tfeq(info, 0, 'pvmfunpack of every type')
         call cmpall(str, b1, i2, i4, r4, c8, r8, c16, i8, i4s, ok)
         do 20 k = 1, 10
            write (what, '(a, a, a, i0)') 'exact round trip of ',
     &           trim(tname(k)), ' via worker ', w
            call tfok(ok(k), what)
   20    continue
         call pvmfunpack(INTEGER4, k, 1, 1, info)
         call tfeq(info, PvmNoData, 'pvmfunpack past the end')
   30 continue
      end

c     psend / precv both ways
      subroutine pscall(me, tids)
      implicit none
      include 'fpvm3.h'
      integer me, tids(2)
      real*8 d(5), e(5)
      integer k, w, info, atid, atag, alen, b, r(3), good
      do 10 k = 1, 5
         d(k) = k + 0.125d0 * k
   10 continue
      call pvmfpsend(tids(1), 20, d, 5, REAL8, info)
      call tfeq(info, 0, 'pvmfpsend')
      call pvmfpsend(tids(2), 20, d, 5, REAL8, info)
      do 30 w = 1, 2
         e = 0
         call pvmfprecv(tids(w), 21, e, 5, REAL8, atid, atag, alen,
     &                  info)
         good = 0
         do 20 k = 1, 5
            if (e(k) .eq. 2 * d(k)) good = good + 1
   20    continue
         call tfok(info .eq. 0 .and. atid .eq. tids(w) .and.
     &             atag .eq. 21 .and. good .eq. 5,
     &             'pvmfprecv: doubled values, tid and tag')
         call pvmftrecv(tids(w), 22, 30, 0, b)
         call pvmfunpack(INTEGER4, r, 3, 1, info)
         call tfok(b .gt. 0 .and. r(1) .eq. me .and. r(2) .eq. 20
     &             .and. r(3) .eq. 40,
     &             'worker pvmfprecv: tid, tag, 40 bytes')
   30 continue
      end

c     multicast: each worker answers value + its sibling index
      subroutine mcast(tids)
      implicit none
      include 'fpvm3.h'
      integer tids(2)
      integer b, info, v, w, src, tag, bytes, got(2)
      call pvmfinitsend(PVMDATADEFAULT, b)
      v = 700
      call pvmfpack(INTEGER4, v, 1, 1, info)
      call pvmfmcast(2, tids, 30, info)
      call tfeq(info, 0, 'pvmfmcast')
      got(1) = 0
      got(2) = 0
      do 10 w = 1, 2
         call pvmftrecv(-1, 31, 30, 0, b)
         if (b .le. 0) goto 10
         call pvmfbufinfo(b, bytes, tag, src, info)
         call pvmfunpack(INTEGER4, v, 1, 1, info)
         if (src .eq. tids(1)) got(1) = v
         if (src .eq. tids(2)) got(2) = v
   10 continue
      call tfok(got(1) .eq. 700 .and. got(2) .eq. 701,
     &          'both workers got the multicast')
      end

c     the two TaskExit notifies
      subroutine exits(tids)
      implicit none
      include 'fpvm3.h'
      integer tids(2)
      integer k, b, info, t, seen(2)
      seen(1) = 0
      seen(2) = 0
      do 10 k = 1, 2
         call pvmftrecv(-1, 99, 30, 0, b)
         if (b .le. 0) goto 10
         call pvmfunpack(INTEGER4, t, 1, 1, info)
         if (t .eq. tids(1)) seen(1) = seen(1) + 1
         if (t .eq. tids(2)) seen(2) = seen(2) + 1
   10 continue
      call tfok(seen(1) .eq. 1 .and. seen(2) .eq. 1,
     &          'PvmTaskExit notify for each worker')
      end
