c
c     freduce.f: pvmfreduce in Fortran: PvmSum and PvmMax.
c
c     Started from the shell (or by the console's spawn), with the
c     number of members as its argument (default 4), the program joins
c     the group 'freduce' (instance 0), starts the other members as
c     copies of itself (pvmfspawn passes no arguments), and sends each
c     of them the size of the group.  Every member takes a share of
c     k = 1..1000 and computes how many numbers it has, their sum, and
c     the square root of its largest k, in REAL*8.  pvmfreduce adds the
c     counts and sums (PvmSum) and takes the largest root (PvmMax) at
c     instance 0, which prints them and the values they must have.
c     (The counts and sums are whole numbers, exact in REAL*8.)
c
c       ./freduce 4
c
      program freduce
      implicit none
      include 'fpvm3.h'
      integer top, tagn
      parameter (top = 1000, tagn = 30)
      integer mytid, ptid, nmem, inst, info, numt, tids(63)
      integer lo, hi, k
      double precision s(2), xmax(1), want
      character*16 arg
      external PvmSum, PvmMax

      call pvmfmytid(mytid)
      call pvmfparent(ptid)
      if (ptid .lt. 0) then
c        The first task: no parent.
         nmem = 4
         if (command_argument_count() .ge. 1) then
            call get_command_argument(1, arg)
            read (arg, *) nmem
         endif
         if (nmem .lt. 1 .or. nmem .gt. 64) then
            write (*, '(a)') 'usage: freduce [1..64]'
            call pvmfexit(info)
            stop 2
         endif
c        The members' output comes here, marked with their tids.
         call pvmfcatchout(1, info)
         call pvmfjoingroup('freduce', inst)
         if (nmem .gt. 1) then
            call pvmfspawn('freduce', PVMTASKDEFAULT, '*', nmem - 1,
     &                     tids, numt)
            if (numt .ne. nmem - 1) then
               write (*, '(a, i3, a)') 'freduce: started ', numt,
     &                                 ' members'
               call pvmfexit(info)
               stop 1
            endif
            call pvmfinitsend(PVMDEFAULT, info)
            call pvmfpack(INTEGER4, nmem, 1, 1, info)
            call pvmfmcast(nmem - 1, tids, tagn, info)
         endif
      else
c        A member started by the first task.
         call pvmfrecv(ptid, tagn, info)
         call pvmfunpack(INTEGER4, nmem, 1, 1, info)
         call pvmfjoingroup('freduce', inst)
      endif
c     Wait until all nmem members have joined.
      call pvmfbarrier('freduce', nmem, info)

      lo = 1 + inst * (top / nmem)
      hi = (inst + 1) * (top / nmem)
      if (inst .eq. nmem - 1) hi = top
      s(1) = hi - lo + 1
      s(2) = 0
      do k = lo, hi
         s(2) = s(2) + k
      end do
      xmax(1) = sqrt(dble(hi))
      write (*, '(a, i0, a, i0, a, i0, a, i0)') 'member ', inst,
     &      ' of ', nmem, ': k = ', lo, '..', hi
      flush (6)

      call pvmfreduce(PvmSum, s, 2, REAL8, 40, 'freduce', 0, info)
      call pvmfreduce(PvmMax, xmax, 1, REAL8, 41, 'freduce', 0, info)

      if (inst .eq. 0) then
         want = sqrt(dble(top))
         write (*, '(a, i0, a, i0, a)') 'count    = ', nint(s(1)),
     &         ' (expected ', top, ')'
         write (*, '(a, i0, a, i0, a)') 'sum      = ', nint(s(2)),
     &         ' (expected ', top * (top + 1) / 2, ')'
         write (*, '(a, f0.10, a, f0.10, a)') 'max root = ', xmax(1),
     &         ' (expected ', want, ')'
         if (nint(s(1)) .eq. top .and.
     &       nint(s(2)) .eq. top * (top + 1) / 2 .and.
     &       abs(xmax(1) - want) .lt. 1d-12) then
            write (*, '(a)') 'freduce: all correct'
         else
            write (*, '(a)') 'freduce: WRONG'
         endif
         flush (6)
      endif

c     Leave only when every member is done with the reduces.
      call pvmfbarrier('freduce', nmem, info)
      call pvmflvgroup('freduce', info)
      call pvmfexit(info)
      end
