// See CLazyLibrary.h. One mutex for every library: a library is opened once
// per process, so the lock is taken a handful of times in a program's life
// (each function's pointer is cached by its wrapper after the first call).
// The exit takes that mutex for good, so no library is half opened while
// the process is torn down, and none is opened afterwards.
// pthread_mutex_clocklock (glibc 2.30): a timed lock on the monotonic clock.
#define _GNU_SOURCE
#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t openLock = PTHREAD_MUTEX_INITIALIZER;

enum { notTried = 0, opened = 1, failed = 2 };

/// Opens `library` once; returns its state after the attempt.
static int openOnce(lazy_library *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state != notTried) return state;
    pthread_mutex_lock(&openLock);
    state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == notTried) {
        // RTLD_LOCAL: the library's symbols stay out of the global scope, so
        // they never compete with the wrappers of the same names.
        void *handle = dlopen(library->file_name, RTLD_NOW | RTLD_LOCAL);
        if (handle != NULL) {
            library->handle = handle;
            state = opened;
        } else {
            const char *reason = dlerror();
            snprintf(library->error, sizeof library->error, "%s", reason != NULL ? reason : "unknown error");
            state = failed;
        }
        __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&openLock);
    return state;
}

int lazy_library_load(lazy_library *library, char *message, size_t capacity) {
    if (openOnce(library) == opened) return 0;
    if (capacity > 0) snprintf(message, capacity, "%s could not be loaded: %s (install the Debian package %s)", library->label,
                                  library->error, library->package);
    return -1;
}

void *lazy_library_symbol(lazy_library *library, const char *name, void **cache) {
    void *found = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (found != NULL) return found;
    char message[512];
    int length;
    if (openOnce(library) != opened) {
        length = snprintf(message, sizeof message, "%s could not be loaded (%s): %s (install the Debian package %s)\n",
                          library->label, name, library->error, library->package);
    } else if ((found = dlsym(library->handle, name)) == NULL) {
        length = snprintf(message, sizeof message, "%s could not be loaded (%s): the library lacks the function (install the Debian package %s of a newer release)\n",
                          library->label, name, library->package);
    } else {
        __atomic_store_n(cache, found, __ATOMIC_RELEASE);
        return found;
    }
    if (length > 0) (void)!write(2, message, (size_t)length < sizeof message ? (size_t)length : sizeof message - 1);
    _exit(127);
}

// MARK: - Work on other threads, and the exit

/// One work in progress (a singly linked list: a program has a few at once).
typedef struct work {
    long token;
    void (*stop)(void *context);
    void *context;
    struct work *next;
} work;

static pthread_mutex_t workLock = PTHREAD_MUTEX_INITIALIZER;
/// Signalled when a work ends; waits on the monotonic clock (set up once).
static pthread_cond_t workEnded;
static pthread_once_t workEndedOnce = PTHREAD_ONCE_INIT;
static work *running;
static long lastToken;
static int exiting;
/// Whether the works' stop functions were called (once).
static int stopped;

static void makeWorkEnded(void) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&workEnded, &attributes);
    pthread_condattr_destroy(&attributes);
}

long lazy_library_work_begin(void (*stop)(void *context), void *context) {
    pthread_once(&workEndedOnce, makeWorkEnded);
    work *item = malloc(sizeof *item);
    if (item == NULL) return 0;
    pthread_mutex_lock(&workLock);
    if (exiting) {
        pthread_mutex_unlock(&workLock);
        free(item);
        return 0;
    }
    item->token = ++lastToken;
    item->stop = stop;
    item->context = context;
    item->next = running;
    running = item;
    long token = item->token;
    pthread_mutex_unlock(&workLock);
    return token;
}

void lazy_library_work_end(long token) {
    pthread_once(&workEndedOnce, makeWorkEnded);
    pthread_mutex_lock(&workLock);
    for (work **link = &running; *link != NULL; link = &(*link)->next) {
        if ((*link)->token == token) {
            work *ended = *link;
            *link = ended->next;
            free(ended);
            break;
        }
    }
    pthread_cond_broadcast(&workEnded);
    pthread_mutex_unlock(&workLock);
}

/// `now + milliseconds` on the monotonic clock.
static struct timespec deadlineAfter(long milliseconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += milliseconds / 1000;
    deadline.tv_nsec += (milliseconds % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    return deadline;
}

/// Takes `openLock` for good, waiting for an open in progress until
/// `deadline` (CLOCK_MONOTONIC; pthread_mutex_clocklock is glibc 2.30+).
static int closeOpenings(const struct timespec *deadline) {
    return pthread_mutex_clocklock(&openLock, CLOCK_MONOTONIC, deadline) == 0;
}

/// Whether a work the exit waits for still runs: every work when the
/// works were asked to stop, else only those that end by themselves.
static int waitedForRuns(int stopsWork) {
    for (work *item = running; item != NULL; item = item->next) {
        if (stopsWork || item->stop == NULL) return 1;
    }
    return 0;
}

/// `lazy_library_prepare_exit`; with `stopsWork` 0 the works with a stop
/// function are neither stopped nor waited for (see `lazy_library_exit_now`).
static int prepare(long timeout_ms, int stopsWork) {
    pthread_once(&workEndedOnce, makeWorkEnded);
    struct timespec deadline = deadlineAfter(timeout_ms > 0 ? timeout_ms : 0);
    pthread_mutex_lock(&workLock);
    exiting = 1;
    if (stopsWork && !stopped) {
        stopped = 1;
        // Under the lock: a work cannot end (and free its context) while it is asked to stop.
        for (work *item = running; item != NULL; item = item->next) {
            if (item->stop != NULL) item->stop(item->context);
        }
    }
    while (waitedForRuns(stopsWork)) {
        if (pthread_cond_timedwait(&workEnded, &workLock, &deadline) == ETIMEDOUT) break;
    }
    int ended = !waitedForRuns(stopsWork);
    pthread_mutex_unlock(&workLock);
    // A second call finds the lock taken by the first, which ends the process.
    return closeOpenings(&deadline) && ended;
}

int lazy_library_prepare_exit(long timeout_ms) { return prepare(timeout_ms, 1); }

/// How long the exit waits for work to stop: libcurl's start-up or an
/// event loop closing its connections take milliseconds; a loaded machine
/// may take much longer, and a stuck one must still end.
enum { exitTimeoutMilliseconds = 10000 };

_Noreturn void lazy_library_exit(int status) {
    if (lazy_library_prepare_exit(exitTimeoutMilliseconds)) exit(status);
    fflush(NULL);
    _exit(status);
}

_Noreturn void lazy_library_exit_now(int status) {
    // The interrupted flow still runs on other threads: an event loop stopped
    // now would hand it a cancelled request, and it would act on that (drop
    // a share it was told to keep) in the moment before `_exit`.
    (void)prepare(exitTimeoutMilliseconds, 0);
    fflush(NULL);
    _exit(status);
}
