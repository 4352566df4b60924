c
c     fex_sumax.f: the Fortran examples of the sum and max to_all pages
c     (OpenSHMEM/SGI man pages, Example 1 of each), as one program:
c     FOO, FOOSUM, FOOMAX and PWRK in a COMMON block, PSYNC set by a
c     DATA statement, the sum and then the max of FOO over the even PEs
c     (PE_start 0, logPE_stride 1, PE_size N/2).  Where the pages are
c     not portable Fortran this follows them in spirit:
c       - NUM_PES() stands for N$PES, and MY_PE is declared by shmem.fh
c         (not INTRINSIC, which only Cray's compiler allows);
c       - FOO is REAL, so the calls are SHMEM_REAL4_SUM_TO_ALL and
c         SHMEM_REAL4_MAX_TO_ALL (the pages call INT4 and REAL8 ones);
c       - FOO is set to MY_PE()+1 (the pages leave it 0), and a barrier
c         separates the two calls, which share PSYNC and PWRK (the pages
c         require that pSync is not reused while a PE may still be in
c         the previous call).
c     t-fshmem-example.sh runs it on 4 and 8 PEs and checks each line.
c
      PROGRAM FEXSUMAX
      INCLUDE 'mpp/shmem.fh'
      INTEGER PSYNC(SHMEM_REDUCE_SYNC_SIZE)
      DATA PSYNC /SHMEM_REDUCE_SYNC_SIZE*SHMEM_SYNC_VALUE/
      PARAMETER (NR=1)
      REAL FOO, FOOSUM, FOOMAX
      REAL PWRK(MAX(NR/2+1,SHMEM_REDUCE_MIN_WRKDATA_SIZE))
      COMMON /COM/ FOO, FOOSUM, FOOMAX, PWRK

      CALL START_PES(0)
      FOO = REAL(MY_PE() + 1)
      IF ( MOD(MY_PE(),2) .EQ. 0) THEN
        CALL SHMEM_REAL4_SUM_TO_ALL(FOOSUM, FOO, NR, 0, 1, NUM_PES()/2,
     &       PWRK, PSYNC)
        PRINT 10, 'Sum', MY_PE(), FOOSUM
      ENDIF
      CALL SHMEM_BARRIER_ALL()
      IF ( MOD(MY_PE(),2) .EQ. 0) THEN
        CALL SHMEM_REAL4_MAX_TO_ALL(FOOMAX, FOO, NR, 0, 1, NUM_PES()/2,
     &       PWRK, PSYNC)
        PRINT 10, 'Max', MY_PE(), FOOMAX
      ENDIF
   10 FORMAT (A, ' on PE ', I0, ' is ', F0.1)
      END
