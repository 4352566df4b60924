c
c     tf_group.f: the Fortran group bindings (libfpvm3 over libgpvm3).
c
c     Run as "tf_group <absolute path of tf_group> <n>": the master
c     joins group 'fgroup' (instance 0), spawns n-1 copies of the
c     program (they have a parent, so they become members too), and
c     every member then does the same sequence of group calls:
c     barrier, gsize/getinst/gettid, pvmfreduce with the EXTERNAL
c     functions PvmSum, PvmProduct, PvmMax, PvmMin over several types
c     and roots, a user subroutine (bitwise or), a user subroutine
c     that fails, PvmSum on BYTE1 (an error on every member), gather,
c     scatter, bcast; then freezegroup and the reduces once more.
c     The values are chosen so every result is exact.  Each member
c     checks what it can see (the root checks a reduce's result);
c     workers send their failure count to the master at the end.
c
      program tfgrp
      implicit none
      include 'fpvm3.h'
      integer me, ptid, n, info, tids(64), numt, k, b, nf
      integer tfnfail
      character*1024 path
      character*16 arg
      character*40 what

      call tfinit()
      call pvmfmytid(me)
      call pvmfparent(ptid)
      if (ptid .gt. 0) then
         n = 0
         call member(me, n)
         call pvmflvgroup('fgroup', info)
         call tfeq(info, 0, 'pvmflvgroup')
c        report to the master (its tid: my parent)
         call pvmfinitsend(PVMDATADEFAULT, b)
         nf = tfnfail()
         call pvmfpack(INTEGER4, nf, 1, 1, info)
         call pvmfsend(ptid, 70, info)
         call pvmfexit(info)
         stop
      endif

      call get_command_argument(1, path)
      call get_command_argument(2, arg)
      n = 0
      read (arg, *, err=5) n
    5 if (path .eq. ' ' .or. n .lt. 1 .or. n .gt. 65) then
         call tfok(.false., 'usage: tf_group <path of tf_group> <n>')
         call tfdone('tf_group')
         stop
      endif
      call pvmfsetopt(PVMAUTOERR, 0, k)
      call errors(me)

      call pvmfjoingroup('fgroup   ', k)
      call tfeq(k, 0, 'master joins fgroup as instance 0')
      if (n .gt. 1) then
         call pvmfspawn(path, PVMTASKDEFAULT, ' ', n - 1, tids, numt)
         call tfeq(numt, n - 1, 'pvmfspawn of the other members')
         if (numt .ne. n - 1) then
            call tfdone('tf_group')
            stop
         endif
c        the group size, so the first barrier can name it
         call pvmfinitsend(PVMDATADEFAULT, b)
         call pvmfpack(INTEGER4, n, 1, 1, info)
         call pvmfmcast(n - 1, tids, 50, info)
      endif
      call member(me, n)
      do 10 k = 1, n - 1
         call pvmftrecv(-1, 70, 60, 0, b)
         nf = -1
         if (b .gt. 0) call pvmfunpack(INTEGER4, nf, 1, 1, info)
         write (what, '(a, i0, a)') 'member report ', k,
     &        ': no failed checks'
         call tfeq(nf, 0, what)
   10 continue
      call pvmflvgroup('fgroup', info)
      call tfeq(info, 0, 'pvmflvgroup')
      call pvmfgsize('fgroup', k)
      call tfeq(k, PvmNoGroup, 'the emptied group is gone')
      call tfdone('tf_group')
      end

c     Errors that need no other member.
      subroutine errors(me)
      implicit none
      include 'fpvm3.h'
      integer me, k, j
      character*300 long
      call pvmfjoingroup('    ', k)
      call tfeq(k, PvmNullGroup, 'pvmfjoingroup(blank name)')
      do 10 j = 1, 300
         long(j:j) = 'g'
   10 continue
      call pvmfjoingroup(long, k)
      call tfeq(k, PvmBadParam, 'pvmfjoingroup(300-char name)')
      call pvmfgetinst('no such group', me, k)
      call tfeq(k, PvmNoGroup, 'pvmfgetinst(unknown group)')
      call pvmflvgroup('no such group', k)
      call tfeq(k, PvmNoGroup, 'pvmflvgroup(unknown group)')
      end

c     What every member does.  n: the group size (0 in workers: they
c     learn it after the first barrier).
      subroutine member(me, n)
      implicit none
      include 'fpvm3.h'
      integer me, n
      integer inst, info, k, t, size, b, v

      if (n .eq. 0) then
         call pvmfjoingroup('fgroup', inst)
         call tfok(inst .gt. 0, 'worker joins with instance > 0')
      else
         call pvmfgetinst('fgroup', me, inst)
         call tfeq(inst, 0, 'pvmfgetinst(master)')
      endif
c     everybody in: count -1 is not safe while members join, so the
c     first barrier waits for the group size sent by the master
      if (n .eq. 0) then
         call pvmfrecv(-1, 50, b)
         call pvmfunpack(INTEGER4, n, 1, 1, info)
      endif
      call pvmfbarrier('fgroup', n, info)
      call tfeq(info, 0, 'pvmfbarrier(n)')
      call pvmfgsize('fgroup', size)
      call tfeq(size, n, 'pvmfgsize')
      do 10 k = 0, n - 1
         call pvmfgettid('fgroup', k, t)
         call pvmfgetinst('fgroup', t, v)
         call tfok(t .gt. 0 .and. v .eq. k, 'pvmfgettid/pvmfgetinst')
   10 continue
      call pvmfgettid('fgroup', n + 5, t)
      call tfeq(t, PvmNoInst, 'pvmfgettid(no such instance)')
      call pvmfjoingroup('fgroup', k)
      call tfeq(k, PvmDupGroup, 'pvmfjoingroup twice')

      call reduces(inst, n, 1)
      call colls(inst, n)
      call pvmffreezegroup('fgroup', n, info)
      call tfok(info .ge. 0, 'pvmffreezegroup')
      call reduces(inst, n, 2)

      call pvmfbarrier('fgroup', -1, info)
      call tfeq(info, 0, 'pvmfbarrier(-1)')
      end

c     The value member i holds at position j for the max/min tests.
      integer function mmval(i, j)
      implicit none
      integer i, j
      mmval = mod(i * 7 + j * 3, 11) - 5
      end

c     User reduce function: bitwise or of INTEGER4.
      subroutine bitor(dtype, x, y, num, info)
      implicit none
      include 'fpvm3.h'
      integer dtype, num, info, x(num), y(num), k
      if (dtype .ne. INTEGER4) then
         info = PvmBadParam
         return
      endif
      do 10 k = 1, num
         x(k) = ior(x(k), y(k))
   10 continue
      info = PvmOk
      end

c     User reduce function that always fails.
      subroutine badop(dtype, x, y, num, info)
      implicit none
      include 'fpvm3.h'
      integer dtype, num, info, x(num), y(num)
      info = PvmMismatch
      end

c     One round of reduces; round 2 runs on the frozen group.
      subroutine reduces(inst, n, round)
      implicit none
      include 'fpvm3.h'
      integer inst, n, round
      external PvmSum, PvmProduct, PvmMax, PvmMin, bitor, badop
      integer mmval
      integer i4(5), w4(5), j, i, k, w, info, last, tag, good
      integer*2 i2(5)
      integer*8 i8(5)
      real*4 r4(5), w5(5)
      real*8 r8(5)
      complex*16 z(5)
      integer*1 b1(5)
      character*60 what

      last = n - 1
      tag = 100 * round

c     INTEGER4 PvmSum, root 0: sum of (i+1)*j = j*n*(n+1)/2
      do 10 j = 1, 5
         i4(j) = (inst + 1) * j
   10 continue
      call pvmfreduce(PvmSum, i4, 5, INTEGER4, tag + 1, 'fgroup', 0,
     &                info)
      call tfeq(info, 0, 'pvmfreduce PvmSum INTEGER4')
      if (inst .eq. 0) then
         good = 0
         do 11 j = 1, 5
            if (i4(j) .eq. j * n * (n + 1) / 2) good = good + 1
   11    continue
         call tfeq(good, 5, 'PvmSum INTEGER4 at root 0: exact')
      endif

c     REAL8 PvmProduct, root n-1: product of j*2**i
      do 20 j = 1, 5
         r8(j) = dble(j) * 2d0**inst
   20 continue
      call pvmfreduce(PvmProduct, r8, 5, REAL8, tag + 2, 'fgroup',
     &                last, info)
      call tfeq(info, 0, 'pvmfreduce PvmProduct REAL8')
      if (inst .eq. last) then
         good = 0
         do 21 j = 1, 5
            if (r8(j) .eq. dble(j)**n * 2d0**(n * (n - 1) / 2))
     &         good = good + 1
   21    continue
         call tfeq(good, 5, 'PvmProduct REAL8 at root n-1: exact')
      endif

c     INTEGER4 PvmMax, root 0, and PvmMin, root n-1
      do 30 j = 1, 5
         i4(j) = mmval(inst, j)
         w4(j) = mmval(inst, j)
   30 continue
      call pvmfreduce(PvmMax, i4, 5, INTEGER4, tag + 3, 'fgroup', 0,
     &                info)
      call tfeq(info, 0, 'pvmfreduce PvmMax INTEGER4')
      call pvmfreduce(PvmMin, w4, 5, INTEGER4, tag + 4, 'fgroup', last,
     &                info)
      call tfeq(info, 0, 'pvmfreduce PvmMin INTEGER4')
      if (inst .eq. 0) then
         good = 0
         do 32 j = 1, 5
            k = mmval(0, j)
            do 31 i = 1, n - 1
               k = max(k, mmval(i, j))
   31       continue
            if (i4(j) .eq. k) good = good + 1
   32    continue
         call tfeq(good, 5, 'PvmMax INTEGER4 at root 0: exact')
      endif
      if (inst .eq. last) then
         good = 0
         do 34 j = 1, 5
            k = mmval(0, j)
            do 33 i = 1, n - 1
               k = min(k, mmval(i, j))
   33       continue
            if (w4(j) .eq. k) good = good + 1
   34    continue
         call tfeq(good, 5, 'PvmMin INTEGER4 at root n-1: exact')
      endif

c     REAL4 PvmMax and PvmMin, root 0: quarters
      do 40 j = 1, 5
         r4(j) = real(mmval(inst, j)) / 4.0
         w5(j) = r4(j)
   40 continue
      call pvmfreduce(PvmMax, r4, 5, REAL4, tag + 5, 'fgroup', 0, info)
      call tfeq(info, 0, 'pvmfreduce PvmMax REAL4')
      call pvmfreduce(PvmMin, w5, 5, REAL4, tag + 6, 'fgroup', 0, info)
      call tfeq(info, 0, 'pvmfreduce PvmMin REAL4')
      if (inst .eq. 0) then
         good = 0
         do 42 j = 1, 5
            k = mmval(0, j)
            i = mmval(0, j)
            do 41 w = 1, n - 1
               k = max(k, mmval(w, j))
               i = min(i, mmval(w, j))
   41       continue
            if (r4(j) .eq. real(k) / 4.0 .and.
     &          w5(j) .eq. real(i) / 4.0) good = good + 1
   42    continue
         call tfeq(good, 5, 'PvmMax/PvmMin REAL4 at root 0: exact')
      endif

c     INTEGER2 and INTEGER8 PvmSum, COMPLEX16 PvmSum, root 0
      do 50 j = 1, 5
         i2(j) = int(inst * 10 + j, 2)
         i8(j) = 2_8**40 * inst + j
         z(j) = cmplx(inst + j, -inst * j, kind=8)
   50 continue
      call pvmfreduce(PvmSum, i2, 5, INTEGER2, tag + 7, 'fgroup', 0,
     &                info)
      call tfeq(info, 0, 'pvmfreduce PvmSum INTEGER2')
      call pvmfreduce(PvmSum, i8, 5, INTEGER8, tag + 8, 'fgroup', 0,
     &                info)
      call tfeq(info, 0, 'pvmfreduce PvmSum INTEGER8')
      call pvmfreduce(PvmSum, z, 5, COMPLEX16, tag + 9, 'fgroup', 0,
     &                info)
      call tfeq(info, 0, 'pvmfreduce PvmSum COMPLEX16')
      if (inst .eq. 0) then
         good = 0
         do 51 j = 1, 5
            if (i2(j) .eq. 10 * n * (n - 1) / 2 + n * j) good = good+1
            if (i8(j) .eq. 2_8**40 * (n * (n - 1) / 2) + n * j)
     &         good = good + 1
            if (z(j) .eq. cmplx(n * (n - 1) / 2 + n * j,
     &          -j * n * (n - 1) / 2, kind=8)) good = good + 1
   51    continue
         call tfeq(good, 15,
     &        'PvmSum INTEGER2/INTEGER8/COMPLEX16 at root 0: exact')
      endif

c     a user subroutine, root n-1: or of ishft(j, 8) + 2**i
      do 60 j = 1, 5
         i4(j) = ishft(j, 8) + 2**mod(inst, 8)
   60 continue
      call pvmfreduce(bitor, i4, 5, INTEGER4, tag + 10, 'fgroup', last,
     &                info)
      call tfeq(info, 0, 'pvmfreduce user subroutine')
      if (inst .eq. last) then
         k = 0
         do 61 i = 0, n - 1
            k = ior(k, 2**mod(i, 8))
   61    continue
         good = 0
         do 62 j = 1, 5
            if (i4(j) .eq. ior(ishft(j, 8), k)) good = good + 1
   62    continue
         call tfeq(good, 5, 'user subroutine at root n-1: exact')
      endif

c     a user subroutine that fails: the root sees the error
      if (n .gt. 1) then
         call pvmfreduce(badop, i4, 5, INTEGER4, tag + 11, 'fgroup', 0,
     &                   info)
         if (inst .eq. 0) then
            call tfok(info .lt. 0,
     &           'failing user subroutine: error at the root')
         endif
      endif

c     PvmSum does not take BYTE1: an error on every member
      do 70 j = 1, 5
         b1(j) = int(j, 1)
   70 continue
      call pvmfreduce(PvmSum, b1, 5, BYTE1, tag + 12, 'fgroup', 0,
     &                info)
      write (what, '(a, i0)') 'PvmSum on BYTE1 refused, round ', round
      call tfeq(info, PvmBadParam, what)
      end

c     gather, scatter, bcast (root / sender: instance 0)
      subroutine colls(inst, n)
      implicit none
      include 'fpvm3.h'
      integer inst, n
      integer g(3), res(3 * 65), s(3 * 65), mine(3)
      integer j, k, info, good, b, v, t, src, bytes, tag

      do 10 j = 1, 3
         g(j) = 100 * inst + j
   10 continue
      call pvmfgather(res, g, 3, INTEGER4, 200, 'fgroup', 0, info)
      call tfeq(info, 0, 'pvmfgather')
      if (inst .eq. 0) then
         good = 0
         do 12 k = 0, n - 1
            do 11 j = 1, 3
               if (res(3 * k + j) .eq. 100 * k + j) good = good + 1
   11       continue
   12    continue
         call tfeq(good, 3 * n, 'pvmfgather at root 0: exact')
      endif

      do 20 k = 1, 3 * n
         s(k) = 1000 + k
   20 continue
      call pvmfscatter(mine, s, 3, INTEGER4, 201, 'fgroup', 0, info)
      call tfeq(info, 0, 'pvmfscatter')
      good = 0
      do 21 j = 1, 3
         if (mine(j) .eq. 1000 + 3 * inst + j) good = good + 1
   21 continue
      call tfeq(good, 3, 'pvmfscatter: my slice')

      if (n .lt. 2) return
      if (inst .eq. 0) then
         call pvmfinitsend(PVMDATADEFAULT, b)
         v = 4711
         call pvmfpack(INTEGER4, v, 1, 1, info)
         call pvmfbcast('fgroup', 202, info)
         call tfeq(info, 0, 'pvmfbcast')
c        not to the sender
         call pvmftrecv(-1, 202, 0, 300000, b)
         call tfeq(b, 0, 'pvmfbcast does not reach the sender')
      else
         call pvmfgettid('fgroup', 0, t)
         call pvmftrecv(t, 202, 30, 0, b)
         v = 0
         if (b .gt. 0) call pvmfunpack(INTEGER4, v, 1, 1, info)
         call pvmfbufinfo(b, bytes, tag, src, info)
         call tfok(v .eq. 4711 .and. src .eq. t,
     &             'pvmfbcast received from instance 0')
      endif
      end
