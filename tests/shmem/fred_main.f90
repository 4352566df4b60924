! fred_main.f90: runs fred_type.F90's checks for every Fortran type of
! the to_all reductions (t-fshmem-reduce.sh).  Ends with status 1 when a
! check failed.
program fred
  implicit none
  include 'shmem.fh'
  integer :: nerr

  call start_pes(0)
  nerr = 0
  call red_int4(nerr)
  call red_int8(nerr)
  call red_real4(nerr)
  call red_real8(nerr)
  call red_real16(nerr)
  call red_comp4(nerr)
  call red_comp8(nerr)
  print '(a,i0,a,i0,a)', 'PE ', my_pe(), ': ', nerr, ' failures'
  if (nerr /= 0) stop 1
end program fred
