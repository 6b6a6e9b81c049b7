/* A stand-in for a System V semaphore build of LMDB (mdb.master/1.0 on Apple platforms). */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/sem.h>
int routelog_sysv_probe(key_t key) {
    struct sembuf op = { 0, -1, SEM_UNDO };
    int id = semget(key, 2, IPC_CREAT | 0600);
    if (id < 0 || semop(id, &op, 1) < 0) return -1;
    return semctl(id, 0, IPC_RMID);
}
