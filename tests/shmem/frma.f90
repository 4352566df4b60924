! frma.f90: puts, gets, SHPALLOC'd arrays, broadcasts and collects, and
! the INTEGER*4/INTEGER*8 atomics under contention (t-fshmem-rma.sh).
! Each PE prints PASS:/FAIL: lines and ends with status 1 on a failure.
! Needs -fcray-pointer (SHPALLOC returns a Cray pointer).
program frma
  implicit none
  include 'shmem.fh'
  integer, parameter :: n = 16, k = 2000
  integer(4), save :: a4(n), b4(3 * n)
  integer(8), save :: a8(n), b8(2 * n)
  real(4), save :: r4(n)
  real(8), save :: r8(n)
  complex(4), save :: c4(n)
  logical, save :: l4(n)
  character(len=n), save :: ch
  integer(4), save :: cnt4 = 0, done = 0, lock = 0, plain = 0
  integer(8), save :: cnt8 = 0
  integer, save :: psync(SHMEM_COLLECT_SYNC_SIZE)
  data psync /SHMEM_COLLECT_SYNC_SIZE * SHMEM_SYNC_VALUE/
  integer(4), save :: coll(64 * 8)
  integer(4), save :: src4(n)
  integer(8), save :: src8(n)
  integer(4) :: heap(1), heap2(1)
  pointer (ph, heap)
  pointer (ph2, heap2)
  integer :: me, np, right, left, i, err, nerr, j, m, pos
  integer(4) :: got4, old

  call start_pes(0)
  me = my_pe()
  np = num_pes()
  right = mod(me + 1, np)
  left = mod(me + np - 1, np)
  nerr = 0

  ! ---- puts of every family to the right neighbour ----
  do i = 1, n
    src4(i) = 1000 * me + i
    src8(i) = 2_8**40 * me + i
  end do
  call shmem_put4(a4, src4, n / 2, right)
  call shmem_put32(a4(n / 2 + 1), src4(n / 2 + 1), n / 2, right)
  call shmem_put8(a8, src8, n / 4, right)
  call shmem_put64(a8(n / 4 + 1), src8(n / 4 + 1), n / 4, right)
  call shmem_put128(a8(n / 2 + 1), src8(n / 2 + 1), n / 4, right)
  call shmem_real_put(r4, real(src4, 4), n, right)
  call shmem_double_put(r8, real(src8, 8), n, right)
  call shmem_complex_put(c4, cmplx(src4, -src4, 4), n, right)
  call shmem_logical_put(l4, mod(src4, 2) == 0, n, right)
  call shmem_character_put(ch, repeat(achar(65 + me), n), n, right)
  call shmem_barrier_all()
  call expect(all(a4 == src4 - 1000 * (me - left)), 'put4/put32 from the left')
  call expect(all(a8 == src8 - 2_8**40 * (me - left)), 'put8/put64/put128 from the left')
  call expect(all(r4 == real(a4, 4)), 'real_put')
  call expect(all(r8 == real(a8, 8)), 'double_put')
  call expect(all(c4 == cmplx(a4, -a4, 4)), 'complex_put')
  call expect(all(l4 .eqv. mod(a4, 2) == 0), 'logical_put')
  call expect(ch == repeat(achar(65 + left), n), 'character_put')
  call shmem_barrier_all()

  ! ---- gets from the right neighbour, and integer_put/putmem ----
  call shmem_integer_put(b4, src4, n, right)
  call shmem_putmem(b4(n + 1), src4, 4 * n, right)
  call shmem_barrier_all()
  call expect(all(b4(1:n) == a4) .and. all(b4(n + 1:2 * n) == a4), 'integer_put, putmem')
  call shmem_get4(b4, a4, n, right)
  call expect(all(b4(1:n) == src4), 'get4 of what I put')
  call shmem_get64(b8, a8, n, right)
  call expect(all(b8(1:n) == src8), 'get64 of what I put')
  call shmem_integer_get(b4(n + 1), a4, n, right)
  call shmem_getmem(b4(2 * n + 1), a4, 4 * n, right)
  call expect(all(b4(n + 1:2 * n) == src4) .and. all(b4(2 * n + 1:) == src4), &
      'integer_get, getmem')
  call shmem_barrier_all()

  ! ---- strided: every 2nd source element into every 3rd target ----
  b4 = -1
  call shmem_barrier_all()
  call shmem_iput4(b4, src4, 3, 2, n / 2, right)
  call shmem_barrier_all()
  call expect(all(b4(1:3 * (n / 2):3) == src4(1:n:2) - 1000 * (me - left)) .and. &
      count(b4 /= -1) == n / 2, 'iput4 strides 3 and 2')
  b8 = 0
  call shmem_iget64(b8, a8, 2, 1, n, right)
  call expect(all(b8(1:2 * n:2) == src8) .and. all(b8(2:2 * n:2) == 0), 'iget64 strides 2 and 1')
  call shmem_barrier_all()

  ! ---- SHPALLOC ----
  call shpalloc(ph, 100, err, 0)
  call expect(err == 0, 'shpalloc 100 words')
  call shpalloc(ph2, 100, err, 0)
  call expect(err == 0 .and. ph2 - ph >= 400, 'shpalloc counts 32-bit words')
  heap(1:100) = -1
  call shmem_barrier_all()
  call shmem_put4(heap, src4, n, right)
  call shmem_int4_add(heap(100), me + 1, right)
  call shmem_barrier_all()
  call expect(all(heap(1:n) == src4 - 1000 * (me - left)) .and. heap(100) == left, &
      'puts and atomics into shpalloc''d arrays')
  call shpalloc(ph2, 0, err, 0)
  call expect(err == -1, 'shpalloc of 0 words: errcode -1')
  call shpdeallc(loc(a4), err, 0)
  call expect(err == -3, 'shpdeallc of a static array: errcode -3')
  call shpdeallc(ph, err, 0)
  call expect(err == 0, 'shpdeallc')

  ! ---- broadcast and collects ----
  b4 = 0
  call shmem_broadcast4(b4, src4, n, 1, 0, 0, np, psync)
  call shmem_barrier_all()
  if (me == 1) then
    call expect(all(b4 == 0), 'broadcast4 leaves the root''s target alone')
  else
    call expect(all(b4(1:n) == src4 - 1000 * (me - 1)), 'broadcast4 from PE 1')
  end if
  call shmem_barrier_all()
  call shmem_fcollect64(coll, src8, 2, 0, 0, np, psync)
  call shmem_barrier_all()
  err = 0
  do j = 0, np - 1
    if (any(transfer(coll(4 * j + 1:4 * j + 4), src8(1:2)) /= (/ 2_8**40 * j + 1, 2_8**40 * j + 2 /))) err = 1
  end do
  call expect(err == 0, 'fcollect64 of 2 elements')
  call shmem_barrier_all()
  ! collect4: PE j gives j + 1 elements
  call shmem_collect4(coll, src4, me + 1, 0, 0, np, psync)
  call shmem_barrier_all()
  err = 0
  pos = 0
  do j = 0, np - 1
    do m = 1, j + 1
      pos = pos + 1
      if (coll(pos) /= 1000 * j + m) err = 1
    end do
  end do
  call expect(err == 0, 'collect4 of me+1 elements')
  call shmem_barrier_all()

  ! ---- atomics under contention: every PE on PE 0's counters ----
  do i = 1, k
    call shmem_int4_inc(cnt4, 0)
    got4 = shmem_int4_finc(cnt4, 0)
    got4 = shmem_int4_fadd(cnt4, 2, 0)
    call shmem_int4_add(cnt4, 3, 0)
    call shmem_int8_inc(cnt8, 0)
    call shmem_int8_add(cnt8, 2_8**33, 0)
    if (shmem_int8_finc(cnt8, 0) < 0 .or. shmem_int8_fadd(cnt8, 2_8**34, 0) < 0) nerr = nerr + 1
  end do
  ! a lock from CSWAP and SWAP around a get-add-put of a plain counter
  do i = 1, k / 10
    do while (shmem_int4_cswap(lock, 0, me + 1, 0) /= 0)
    end do
    call shmem_get4(got4, plain, 1, 0)
    call shmem_put4(plain, got4 + 1, 1, 0)
    call shmem_quiet()
    old = shmem_int4_swap(lock, 0, 0)
    if (old /= me + 1) nerr = nerr + 1
  end do
  call shmem_int4_add(done, 1, 0)
  if (me == 0) then
    call shmem_int4_wait_until(done, SHMEM_CMP_GE, np)
    call expect(cnt4 == 7 * k * np, 'int4 inc/finc/fadd/add: exact count')
    call expect(cnt8 == int(k, 8) * np * (2 + 2_8**33 + 2_8**34), 'int8 inc/finc/fadd/add: exact count')
    call expect(plain == (k / 10) * np, 'cswap/swap lock: no update lost')
  end if
  call expect(nerr == 0, 'fetched values and lock owners')
  call shmem_barrier_all()
  print '(a,i0,a)', 'PE ', me, ': done'
  if (nerr /= 0) stop 1

contains

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(*), intent(in) :: what

    if (cond) then
      print '(a,i0,2a)', 'PASS: PE ', me, ': ', what
    else
      print '(a,i0,2a)', 'FAIL: PE ', me, ': ', what
      nerr = nerr + 1
    end if
  end subroutine expect
end program frma
