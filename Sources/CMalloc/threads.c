// The helper threads' start (see `Helpers` in RoutesModel's Concurrency.swift): a detached
// thread, started off the processor of the thread that starts it.
#define _GNU_SOURCE
#include "shim.h"

#include <pthread.h>

int routes_start_thread(void *(*body)(void *), void *context) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, body, context) != 0) return 0;
    pthread_detach(thread);
    return 1;
}

#if defined(__linux__) && defined(__GLIBC__)
#include <sched.h>

int routes_current_cpu(void) { return sched_getcpu(); }

void routes_thread_leave_cpu(int busy) {
    if (busy < 0 || sched_getcpu() != busy) return;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    if (CPU_COUNT(&allowed) < 2 || !CPU_ISSET(busy, &allowed)) return;
    cpu_set_t others = allowed;
    CPU_CLR(busy, &others);
    // Moved at once; then free to go anywhere again.
    if (sched_setaffinity(0, sizeof others, &others) == 0) {
        (void)sched_setaffinity(0, sizeof allowed, &allowed);
    }
}

long long routes_thread_affinity(void) {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    long long bits = 0;
    for (int cpu = 0; cpu < 63; cpu++) if (CPU_ISSET(cpu, &allowed)) bits |= 1LL << cpu;
    return bits;
}

#else
long long routes_thread_affinity(void) { return -1; }
int routes_current_cpu(void) { return -1; }
void routes_thread_leave_cpu(int busy) { (void)busy; }
#endif
