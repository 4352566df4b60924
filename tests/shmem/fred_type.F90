! fred_type.F90: the to_all reductions of one Fortran type, checked
! against a serial reference.  t-fshmem-reduce.sh compiles this file
! once per type, with -D:
!   FNAME      the name of the subroutine made here (red_int4 ...)
!   TNAME      the type's name, quoted ('int4' ...), for messages
!   FT, FK     the Fortran type and its kind (integer(4), 4 ...)
!   KIND_INT, KIND_REAL or KIND_CPLX
!   R_SUM ... R_XOR   the routines the type has (shmem_int4_sum_to_all ...)
! Each routine runs with nreduce 1, 3 and 1000 on every PE (PE_start 0,
! logPE_stride 0) and on the odd PEs (PE_start 1, logPE_stride 1).  The
! inputs are small integers (products of a few small factors), so every
! result is exact whatever the order of the operations, and the target
! must equal the reference exactly; elements past nreduce must be left
! alone.
subroutine FNAME(nerr)
  implicit none
  include 'shmem.fh'
  integer, intent(inout) :: nerr
  integer, parameter :: nmax = 1000
  integer, parameter :: OSUM = 1, OPROD = 2, OMAX = 3, OMIN = 4
  integer, parameter :: OAND = 5, OOR = 6, OXOR = 7
  FT, save :: src(nmax + 1), dst(nmax + 1), wrk(nmax / 2 + 1)
  integer, save :: psync(SHMEM_REDUCE_SYNC_SIZE)
  data psync /SHMEM_REDUCE_SYNC_SIZE * SHMEM_SYNC_VALUE/
  FT :: ref(nmax + 1), sentinel
  integer :: ns(3) = (/ 1, 3, 1000 /)
  integer :: me, npes

  me = my_pe()
  npes = num_pes()
  sentinel = conv(-99, 7)
#ifdef R_SUM
  call one(OSUM, 'sum')
#endif
#ifdef R_PROD
  call one(OPROD, 'prod')
#endif
#ifdef R_MAX
  call one(OMAX, 'max')
#endif
#ifdef R_MIN
  call one(OMIN, 'min')
#endif
#ifdef R_AND
  call one(OAND, 'and')
#endif
#ifdef R_OR
  call one(OOR, 'or')
#endif
#ifdef R_XOR
  call one(OXOR, 'xor')
#endif

contains

  ! A value of type FT from two small integers (b: the imaginary part).
  FT function conv(a, b)
    integer, intent(in) :: a, b
#if defined(KIND_INT)
    conv = int(a, FK) + 0 * b
#elif defined(KIND_REAL)
    conv = real(a, FK) + 0 * b
#else
    conv = cmplx(a, b, FK)
#endif
  end function conv

  ! PE p's source element i for operation op.
  FT function val(op, p, i)
    integer, intent(in) :: op, p, i
    integer :: k

    select case (op)
    case (OSUM)
      k = (p * 7 + i) * (1 - 2 * mod(i, 2))
      val = conv(k, p - i)
    case (OPROD)
      k = 1 + mod(p + i, 3)
      if (mod(p + 2 * i, 5) == 0) k = -k
#ifdef KIND_CPLX
      val = conv(1 + mod(p + i, 2), mod(p * i, 2))
#else
      val = conv(k, 0)
#endif
    case (OMAX, OMIN)
      val = conv(mod(p * 37 + i * 11, 101) - 50, 0)
#ifdef KIND_INT
    case (OAND)
      val = not(ishft(int(1, FK), mod(p + i, bit_size(val) - 1)))
    case (OOR)
      val = ishft(int(1, FK), mod(3 * p + i, bit_size(val) - 1))
    case (OXOR)
      val = ieor(int(p * 131 + i * 7, FK), ishft(int(p + i, FK), bit_size(val) - 9))
#endif
    case default
      val = sentinel
    end select
  end function val

  ! The reference: a op b.
  FT function comb(op, a, b)
    integer, intent(in) :: op
    FT, intent(in) :: a, b

    select case (op)
    case (OSUM)
      comb = a + b
    case (OPROD)
      comb = a * b
#ifndef KIND_CPLX
    case (OMAX)
      comb = max(a, b)
    case (OMIN)
      comb = min(a, b)
#endif
#ifdef KIND_INT
    case (OAND)
      comb = iand(a, b)
    case (OOR)
      comb = ior(a, b)
    case (OXOR)
      comb = ieor(a, b)
#endif
    case default
      comb = sentinel
    end select
  end function comb

  subroutine call_op(op, n, start, logs, size)
    integer, intent(in) :: op, n, start, logs, size

    select case (op)
#ifdef R_SUM
    case (OSUM)
      call R_SUM(dst, src, n, start, logs, size, wrk, psync)
#endif
#ifdef R_PROD
    case (OPROD)
      call R_PROD(dst, src, n, start, logs, size, wrk, psync)
#endif
#ifdef R_MAX
    case (OMAX)
      call R_MAX(dst, src, n, start, logs, size, wrk, psync)
#endif
#ifdef R_MIN
    case (OMIN)
      call R_MIN(dst, src, n, start, logs, size, wrk, psync)
#endif
#ifdef R_AND
    case (OAND)
      call R_AND(dst, src, n, start, logs, size, wrk, psync)
#endif
#ifdef R_OR
    case (OOR)
      call R_OR(dst, src, n, start, logs, size, wrk, psync)
#endif
#ifdef R_XOR
    case (OXOR)
      call R_XOR(dst, src, n, start, logs, size, wrk, psync)
#endif
    end select
  end subroutine call_op

  ! Every nreduce on both active sets; one PASS line, or a FAIL line
  ! for each wrong case.
  subroutine one(op, opname)
    integer, intent(in) :: op
    character(*), intent(in) :: opname
    integer :: iset, in, n, start, logs, size, stride, r, i, bad, cases

    cases = 0
    bad = 0
    do iset = 1, 2
      if (iset == 1) then
        start = 0
        logs = 0
        size = npes
      else
        start = 1
        logs = 1
        size = npes / 2
      end if
      stride = 2 ** logs
      do in = 1, 3
        n = ns(in)
        if (size > 0 .and. me >= start .and. mod(me - start, stride) == 0 &
            .and. (me - start) / stride < size) then
          do i = 1, nmax + 1
            src(i) = val(op, me, i)
            dst(i) = sentinel
            ref(i) = val(op, start, i)
          end do
          do r = 1, size - 1
            do i = 1, n
              ref(i) = comb(op, ref(i), val(op, start + r * stride, i))
            end do
          end do
          ref(n + 1:) = sentinel
          call call_op(op, n, start, logs, size)
          cases = cases + 1
          do i = 1, nmax + 1
            if (dst(i) /= ref(i)) then
              write (*, '(a,i0,4a,4(1x,i0),a,i0)', advance='no') 'FAIL: PE ', &
                  me, ' ', TNAME, ' ', opname, n, start, logs, size, ' element ', i
              print *, ' got', dst(i), ' want', ref(i)
              bad = bad + 1
              exit
            end if
          end do
        end if
        call shmem_barrier_all()
      end do
    end do
    if (bad == 0) then
      print '(a,i0,4a,i0,a)', 'PASS: PE ', me, ' ', TNAME, ' ', opname, cases, &
          ' cases exact'
    end if
    nerr = nerr + bad
  end subroutine one
end subroutine FNAME
