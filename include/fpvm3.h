c
c     fpvm3.h: constants of the PVM 3.4.6 Fortran interface (pvm4).
c
c     Put   include 'fpvm3.h'   in every program unit that calls the
c     pvmf* subroutines.  The file is fixed-form Fortran 77: comments
c     have c in column 1, statements start in column 7, continuation
c     lines carry & in column 6, and no line goes past column 72.
c
c     Names and values are those of PVM 3.4.6's fpvm3.h; the C names
c     in pvm3.h have the same values, with one exception: PvmDupEntry
c     is -33 (PvmExists) here but -8 (PvmDenied) in C.
c     tests/abi/compare_fortran_constants.sh checks this file against
c     an installed PVM fpvm3.h.
c

c     ------------------------------------------------------------
c     flag argument of pvmfspawn (may be added together)
c     ------------------------------------------------------------
      integer PVMTASKDEFAULT, PVMTASKHOST, PVMTASKARCH,
     &        PVMTASKDEBUG, PVMTASKTRACE, PVMMPPFRONT,
     &        PVMHOSTCOMPL, PVMNOSPAWNPARENT
      parameter (PVMTASKDEFAULT   =  0,
     &           PVMTASKHOST      =  1,
     &           PVMTASKARCH      =  2,
     &           PVMTASKDEBUG     =  4,
     &           PVMTASKTRACE     =  8,
     &           PVMMPPFRONT      = 16,
     &           PVMHOSTCOMPL     = 32,
     &           PVMNOSPAWNPARENT = 64)

c     the same flags under their PVM 3.3 names
      integer PVMHOST, PVMARCH, PVMDEBUG, PVMTRACE
      parameter (PVMHOST  = 1,
     &           PVMARCH  = 2,
     &           PVMDEBUG = 4,
     &           PVMTRACE = 8)

c     ------------------------------------------------------------
c     encoding argument of pvmfinitsend and pvmfmkbuf
c     ------------------------------------------------------------
      integer PVMDATADEFAULT, PVMDATARAW, PVMDATAINPLACE,
     &        PVMDATATRACE
      parameter (PVMDATADEFAULT = 0,
     &           PVMDATARAW     = 1,
     &           PVMDATAINPLACE = 2,
     &           PVMDATATRACE   = 4)

c     the same encodings under their PVM 3.3 names
      integer PVMDEFAULT, PVMRAW, PVMINPLACE
      parameter (PVMDEFAULT = 0,
     &           PVMRAW     = 1,
     &           PVMINPLACE = 2)

c     ------------------------------------------------------------
c     what argument of pvmfnotify; add PVMNOTIFYCANCEL to cancel
c     ------------------------------------------------------------
      integer PVMTASKEXIT, PVMHOSTDELETE, PVMHOSTADD,
     &        PVMROUTEADD, PVMROUTEDELETE, PVMNOTIFYCANCEL
      parameter (PVMTASKEXIT     =   1,
     &           PVMHOSTDELETE   =   2,
     &           PVMHOSTADD      =   3,
     &           PVMROUTEADD     =   4,
     &           PVMROUTEDELETE  =   5,
     &           PVMNOTIFYCANCEL = 256)

c     ------------------------------------------------------------
c     data types: what argument of pvmfpack and pvmfunpack, and
c     type argument of pvmfpsend, pvmfprecv, pvmfreduce,
c     pvmfgather and pvmfscatter
c     ------------------------------------------------------------
      integer STRING, BYTE1, INTEGER2, INTEGER4, REAL4,
     &        COMPLEX8, REAL8, COMPLEX16, INTEGER8
      parameter (STRING    = 0,
     &           BYTE1     = 1,
     &           INTEGER2  = 2,
     &           INTEGER4  = 3,
     &           REAL4     = 4,
     &           COMPLEX8  = 5,
     &           REAL8     = 6,
     &           COMPLEX16 = 7,
     &           INTEGER8  = 8)

c     ------------------------------------------------------------
c     what argument of pvmfsetopt and pvmfgetopt
c     (PVMS... = this task itself, the others = its children)
c     ------------------------------------------------------------
      integer PVMROUTE, PVMDEBUGMASK, PVMAUTOERR, PVMOUTPUTTID,
     &        PVMOUTPUTCODE, PVMTRACETID, PVMTRACECODE,
     &        PVMTRACEBUFFER, PVMTRACEOPTIONS, PVMFRAGSIZE,
     &        PVMRESVTIDS, PVMSOUTPUTTID, PVMSOUTPUTCODE,
     &        PVMSTRACETID, PVMSTRACECODE, PVMSTRACEBUFFER,
     &        PVMSTRACEOPTIONS, PVMSHOWTIDS, PVMPOLLTYPE,
     &        PVMPOLLTIME, PVMOUTPUTCTX, PVMTRACECTX,
     &        PVMSOUTPUTCTX, PVMSTRACECTX, PVMNORESET
      parameter (PVMROUTE         =  1,
     &           PVMDEBUGMASK     =  2,
     &           PVMAUTOERR       =  3,
     &           PVMOUTPUTTID     =  4,
     &           PVMOUTPUTCODE    =  5,
     &           PVMTRACETID      =  6,
     &           PVMTRACECODE     =  7,
     &           PVMTRACEBUFFER   =  8,
     &           PVMTRACEOPTIONS  =  9,
     &           PVMFRAGSIZE      = 10,
     &           PVMRESVTIDS      = 11,
     &           PVMSOUTPUTTID    = 12,
     &           PVMSOUTPUTCODE   = 13)
      parameter (PVMSTRACETID     = 14,
     &           PVMSTRACECODE    = 15,
     &           PVMSTRACEBUFFER  = 16,
     &           PVMSTRACEOPTIONS = 17,
     &           PVMSHOWTIDS      = 18,
     &           PVMPOLLTYPE      = 19,
     &           PVMPOLLTIME      = 20,
     &           PVMOUTPUTCTX     = 21,
     &           PVMTRACECTX      = 22,
     &           PVMSOUTPUTCTX    = 23,
     &           PVMSTRACECTX     = 24,
     &           PVMNORESET       = 25)

c     values for PVMROUTE
      integer PVMDONTROUTE, PVMALLOWDIRECT, PVMROUTEDIRECT
      parameter (PVMDONTROUTE   = 1,
     &           PVMALLOWDIRECT = 2,
     &           PVMROUTEDIRECT = 3)

c     values for PVMTRACEOPTIONS and PVMSTRACEOPTIONS
      integer PVMTRACEFULL, PVMTRACETIME, PVMTRACECOUNT
      parameter (PVMTRACEFULL  = 1,
     &           PVMTRACETIME  = 2,
     &           PVMTRACECOUNT = 3)

c     values for PVMPOLLTYPE
      integer PVMPOLLCONSTANT, PVMPOLLSLEEP
      parameter (PVMPOLLCONSTANT = 1,
     &           PVMPOLLSLEEP    = 2)

c     ------------------------------------------------------------
c     flags argument of pvmfputinfo, pvmfrecvinfo, pvmfdelinfo
c     ------------------------------------------------------------
      integer PVMMBOXDEFAULT, PVMMBOXPERSISTENT,
     &        PVMMBOXMULTIINSTANCE, PVMMBOXOVERWRITABLE,
     &        PVMMBOXFIRSTAVAIL, PVMMBOXREADANDDELETE,
     &        PVMMBOXWAITFORINFO
      parameter (PVMMBOXDEFAULT       =  0,
     &           PVMMBOXPERSISTENT    =  1,
     &           PVMMBOXMULTIINSTANCE =  2,
     &           PVMMBOXOVERWRITABLE  =  4,
     &           PVMMBOXFIRSTAVAIL    =  8,
     &           PVMMBOXREADANDDELETE = 16,
     &           PVMMBOXWAITFORINFO   = 32)

c     ------------------------------------------------------------
c     error codes returned in info (and other) arguments;
c     -1, -9, -11 and -13 are not used
c     ------------------------------------------------------------
      integer PvmOk, PvmBadParam, PvmMismatch, PvmOverflow,
     &        PvmNoData, PvmNoHost, PvmNoFile, PvmDenied,
     &        PvmNoMem, PvmBadMsg, PvmSysErr, PvmNoBuf,
     &        PvmNoSuchBuf, PvmNullGroup, PvmDupGroup,
     &        PvmNoGroup, PvmNotInGroup, PvmNoInst,
     &        PvmHostFail, PvmNoParent, PvmNotImpl,
     &        PvmDSysErr, PvmBadVersion, PvmOutOfRes,
     &        PvmDupHost, PvmCantStart, PvmAlready, PvmNoTask,
     &        PvmNotFound, PvmExists, PvmHostrNMstr,
     &        PvmParentNotSet, PvmIPLoopback
      parameter (PvmOk           =   0,
     &           PvmBadParam     =  -2,
     &           PvmMismatch     =  -3,
     &           PvmOverflow     =  -4,
     &           PvmNoData       =  -5,
     &           PvmNoHost       =  -6,
     &           PvmNoFile       =  -7,
     &           PvmDenied       =  -8,
     &           PvmNoMem        = -10,
     &           PvmBadMsg       = -12,
     &           PvmSysErr       = -14,
     &           PvmNoBuf        = -15,
     &           PvmNoSuchBuf    = -16,
     &           PvmNullGroup    = -17,
     &           PvmDupGroup     = -18,
     &           PvmNoGroup      = -19,
     &           PvmNotInGroup   = -20)
      parameter (PvmNoInst       = -21,
     &           PvmHostFail     = -22,
     &           PvmNoParent     = -23,
     &           PvmNotImpl      = -24,
     &           PvmDSysErr      = -25,
     &           PvmBadVersion   = -26,
     &           PvmOutOfRes     = -27,
     &           PvmDupHost      = -28,
     &           PvmCantStart    = -29,
     &           PvmAlready      = -30,
     &           PvmNoTask       = -31,
     &           PvmNotFound     = -32,
     &           PvmExists       = -33,
     &           PvmHostrNMstr   = -34,
     &           PvmParentNotSet = -35,
     &           PvmIPLoopback   = -36)

c     PVM 3.3 names: PvmNoEntry = PvmNotFound, PvmDupEntry =
c     PvmExists (in C PvmDupEntry is PvmDenied, -8)
      integer PvmNoEntry, PvmDupEntry
      parameter (PvmNoEntry  = -32,
     &           PvmDupEntry = -33)
