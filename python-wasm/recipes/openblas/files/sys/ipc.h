/* Cove: WASI has no System V IPC. OpenBLAS's driver/others/memory.c includes <sys/ipc.h>
 * although the build sets NO_SYSV_IPC (so that nothing of it is used): an empty header. */
#ifndef COVE_SYS_IPC_H
#define COVE_SYS_IPC_H
#endif
