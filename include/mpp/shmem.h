/* mpp/shmem.h: the older spelling of <shmem.h>, kept for old programs. */
#ifndef PVMSHMEM_MPP_SHMEM_H
#define PVMSHMEM_MPP_SHMEM_H
#include "../shmem.h"
#endif
