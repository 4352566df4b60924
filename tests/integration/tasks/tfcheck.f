c
c     tfcheck.f: checks for the Fortran task programs, the Fortran
c     side of tcheck.h.  A check prints one line on stdout,
c     "PASS: what" or "FAIL: what: got x, want y"; lib.sh's
c     run_checks counts these lines.  Spawned children print nothing
c     that counts: they send their results to the parent.
c

c     tfinit: start counting.
      subroutine tfinit()
      implicit none
      integer npass, nfail
      common /tfcnt/ npass, nfail
      npass = 0
      nfail = 0
      end

c     tfok: a PASS line if cond holds, else a FAIL line.
      subroutine tfok(cond, what)
      implicit none
      logical cond
      character*(*) what
      integer npass, nfail
      common /tfcnt/ npass, nfail
      if (cond) then
         write (*, '(a, a)') 'PASS: ', trim(what)
         npass = npass + 1
      else
         write (*, '(a, a)') 'FAIL: ', trim(what)
         nfail = nfail + 1
      endif
      flush (6)
      end

c     tfeq: integer equality; names both values when they differ.
      subroutine tfeq(got, want, what)
      implicit none
      integer got, want
      character*(*) what
      integer npass, nfail
      common /tfcnt/ npass, nfail
      if (got .eq. want) then
         write (*, '(a, a, a, i0)') 'PASS: ', trim(what), ' = ', want
         npass = npass + 1
      else
         write (*, '(a, a, a, i0, a, i0)') 'FAIL: ', trim(what),
     &        ': got ', got, ', want ', want
         nfail = nfail + 1
      endif
      flush (6)
      end

c     tfnfail: the number of failed checks so far.
      integer function tfnfail()
      implicit none
      integer npass, nfail
      common /tfcnt/ npass, nfail
      tfnfail = nfail
      end

c     tfdone: leave PVM, print the summary, stop (status 1 on failure).
      subroutine tfdone(name)
      implicit none
      character*(*) name
      integer npass, nfail, info
      common /tfcnt/ npass, nfail
      call pvmfexit(info)
      write (*, '(a, a, a, i0, a, i0, a)') '(', name, ': ', npass,
     &     ' checks passed, ', nfail, ' failed)'
      flush (6)
      if (nfail .ne. 0 .or. npass .eq. 0) stop 1
      end
