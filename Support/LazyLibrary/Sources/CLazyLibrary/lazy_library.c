// See CLazyLibrary.h. One mutex for every library: a library is opened once
// per process, so the lock is taken a handful of times in a program's life
// (each function's pointer is cached by its wrapper after the first call).
#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
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
    if (capacity > 0) snprintf(message, capacity, "%s could not be loaded: %s", library->label, library->error);
    return -1;
}

void *lazy_library_symbol(lazy_library *library, const char *name, void **cache) {
    void *found = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (found != NULL) return found;
    char message[512];
    int length;
    if (openOnce(library) != opened) {
        length = snprintf(message, sizeof message, "%s could not be loaded (%s): %s\n", library->label, name,
                          library->error);
    } else if ((found = dlsym(library->handle, name)) == NULL) {
        length = snprintf(message, sizeof message, "%s could not be loaded (%s): the library lacks the function\n",
                          library->label, name);
    } else {
        __atomic_store_n(cache, found, __ATOMIC_RELEASE);
        return found;
    }
    if (length > 0) (void)!write(2, message, (size_t)length < sizeof message ? (size_t)length : sizeof message - 1);
    _exit(127);
}
