/* No wait inside the host outlasts a slice: the call's wall-clock deadline holds while guest
 * code waits.
 *
 * wasmtime checks its epoch deadline only while wasm runs; a guest blocked inside the host's
 * poll_oneoff (select.select, select.poll, selectors, time.sleep, anything that waits on a clock)
 * sees no deadline until the host returns, and holds a worker thread meanwhile. This wrapper
 * (the linker's --wrap redirects libc's own calls here; no function pointer leads to the import:
 * python-wasm/check_link.py `table`) hands the host at most POLL_SLICE_NS of waiting at a time,
 * so wasm runs, and the epoch deadline is checked, at least that often. Between slices it
 * returns at once, with no events (a timeout, to the caller), when the host has asked the
 * interpreter to stop (cove_interrupt), so the soft deadline reaches Python promptly.
 *
 * Every clock subscription's end is taken on the monotonic clock when the call starts
 * (relative, absolute realtime or monotonic, and any other clock as relative); every slice
 * asks the host again with what is left, and one more clock subscription of one slice bounds
 * waits on descriptors too. Subscriptions are copied out of guest memory once, with userdata
 * replaced by their index, and events are returned with the caller's userdata; a clock event
 * before its subscription's end is a slice ending, not an event.
 *
 * Upstream, CPython's own WASI port blocks in poll_oneoff for the whole wait (python/cpython
 * gh-95146 made time.sleep use it); Cove slices sleeps for the same reason as this, in its
 * cpython-time-wasi.patch, which stays as the first line for time.sleep.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wasi/api.h>

#define POLL_SLICE_NS 50000000ull /* 50 ms */

extern int cove_interrupt_pending(void); /* cove_driver.c */

__wasi_errno_t __real___wasi_poll_oneoff(const __wasi_subscription_t *, __wasi_event_t *,
                                         __wasi_size_t, __wasi_size_t *);

static __wasi_timestamp_t
now_ns(__wasi_clockid_t clock)
{
    __wasi_timestamp_t t = 0;
    (void)__wasi_clock_time_get(clock, 1, &t);
    return t;
}

__wasi_errno_t
__wrap___wasi_poll_oneoff(const __wasi_subscription_t *in, __wasi_event_t *out, __wasi_size_t n,
                          __wasi_size_t *nevents)
{
    if (n == 0 || n >= (SIZE_MAX / sizeof(__wasi_subscription_t)) - 1) {
        return __real___wasi_poll_oneoff(in, out, n, nevents); /* answered at once */
    }
    __wasi_subscription_t *subs = malloc((n + 1) * sizeof *subs);
    __wasi_event_t *events = malloc((n + 1) * sizeof *events);
    __wasi_timestamp_t *ends = malloc(n * sizeof *ends);
    __wasi_userdata_t *userdata = malloc(n * sizeof *userdata);
    __wasi_errno_t err = 0;
    if (subs == NULL || events == NULL || ends == NULL || userdata == NULL) {
        err = __WASI_ERRNO_NOMEM;
        goto done;
    }
    memcpy(subs, in, n * sizeof *subs);
    __wasi_timestamp_t start = now_ns(__WASI_CLOCKID_MONOTONIC);
    for (__wasi_size_t i = 0; i < n; i++) {
        userdata[i] = subs[i].userdata;
        subs[i].userdata = i;
        ends[i] = 0;
        if (subs[i].u.tag != __WASI_EVENTTYPE_CLOCK) {
            continue;
        }
        __wasi_subscription_clock_t *c = &subs[i].u.u.clock;
        __wasi_timestamp_t wait = c->timeout;
        if (c->flags & __WASI_SUBCLOCKFLAGS_SUBSCRIPTION_CLOCK_ABSTIME) {
            __wasi_timestamp_t now = c->id == __WASI_CLOCKID_MONOTONIC ? start : now_ns(c->id);
            wait = c->timeout > now ? c->timeout - now : 0;
        }
        ends[i] = wait > UINT64_MAX - start ? UINT64_MAX : start + wait;
        c->id = __WASI_CLOCKID_MONOTONIC;
        c->flags = 0;
    }
    /* One more clock of one slice: bounds a wait on descriptors alone. */
    memset(&subs[n], 0, sizeof subs[n]);
    subs[n].userdata = n;
    subs[n].u.tag = __WASI_EVENTTYPE_CLOCK;
    subs[n].u.u.clock.id = __WASI_CLOCKID_MONOTONIC;
    subs[n].u.u.clock.timeout = POLL_SLICE_NS;
    for (;;) {
        __wasi_timestamp_t now = now_ns(__WASI_CLOCKID_MONOTONIC);
        for (__wasi_size_t i = 0; i < n; i++) {
            if (subs[i].u.tag == __WASI_EVENTTYPE_CLOCK) {
                __wasi_timestamp_t left = ends[i] > now ? ends[i] - now : 0;
                subs[i].u.u.clock.timeout = left < POLL_SLICE_NS ? left : POLL_SLICE_NS;
            }
        }
        __wasi_size_t got = 0;
        err = __real___wasi_poll_oneoff(subs, events, n + 1, &got);
        if (err != 0) {
            goto done;
        }
        now = now_ns(__WASI_CLOCKID_MONOTONIC);
        __wasi_size_t kept = 0;
        for (__wasi_size_t k = 0; k < got && k <= n; k++) {
            __wasi_userdata_t i = events[k].userdata;
            if (i >= n) {
                continue; /* the slice's own clock */
            }
            if (subs[i].u.tag == __WASI_EVENTTYPE_CLOCK && events[k].error == 0 && ends[i] > now) {
                continue; /* a slice of a longer wait ended */
            }
            out[kept] = events[k];
            out[kept].userdata = userdata[i];
            kept++;
        }
        if (kept > 0 || cove_interrupt_pending()) {
            *nevents = kept;
            goto done;
        }
    }
done:
    free(subs);
    free(events);
    free(ends);
    free(userdata);
    return err;
}
