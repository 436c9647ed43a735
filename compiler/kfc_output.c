/* SPDX-License-Identifier: MIT */
/* mkstemp, fchmod, fileno, stat, umask, sigaction are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "kfc_output.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Interrupted writes. While a temporary file exists, SIGINT, SIGTERM and
 * SIGHUP remove it and then end the process as the signal would have
 * (default action, re-raised): a killed kfc leaves no stray file. A
 * signal handler reaches only static storage, so the one temporary path
 * in progress is published here; the handler calls only unlink, sigaction
 * and raise (async-signal-safe). The path is published after the file
 * exists and withdrawn, with the signals blocked, before it is renamed or
 * removed.
 */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define CLEANUP_SIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])
static const char *volatile pending_temp;
static struct sigaction previous[CLEANUP_SIGNALS];

static void remove_pending_and_reraise(int sig)
{
    const char *path = pending_temp;
    if (path)
        unlink(path);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

static void block_cleanup_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
        sigaddset(&set, cleanup_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* Creates the temporary file (mkstemp) and publishes its path, with the
 * signals blocked in between: a signal that arrives while the file is being
 * created is handled once it exists. Returns mkstemp's descriptor. */
static int create_and_publish(char *path)
{
    sigset_t old;
    block_cleanup_signals(&old);
    int fd = mkstemp(path);
    int err = errno;
    if (fd >= 0) {
        pending_temp = path;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_pending_and_reraise;
        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < CLEANUP_SIGNALS; i++) {
            sigaction(cleanup_signals[i], NULL, &previous[i]);
            /* A signal the caller ignores (nohup) stays ignored. */
            if (previous[i].sa_handler != SIG_IGN)
                sigaction(cleanup_signals[i], &sa, NULL);
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return fd;
}

/* Withdraws the path and restores the handlers; the signals stay blocked
 * (in *old, the mask to restore) until the caller has renamed or removed
 * the file. */
static void withdraw_temp(sigset_t *old)
{
    block_cleanup_signals(old);
    if (pending_temp) {
        pending_temp = NULL;
        for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
            if (previous[i].sa_handler != SIG_IGN)
                sigaction(cleanup_signals[i], &previous[i], NULL);
    }
}

/* The temporary file: a short name in the output's directory (so the
 * rename stays within one file system), whatever the output name's length
 * up to NAME_MAX. */
static char *temp_name_for(const char *path)
{
    static const char name[] = ".kfc-XXXXXX";
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    char *temp = malloc(dir + sizeof name);
    if (temp) {
        memcpy(temp, path, dir);
        memcpy(temp + dir, name, sizeof name);
    }
    return temp;
}

static int is_stdout(const kfc_output *out)
{
    return strcmp(out->path, "-") == 0;
}

static kfc_status io_error(kfc_output *out, kfc_diag *diag, const char *what, int err)
{
    kfc_status st = kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot %s: %s", what, strerror(err));
    if (diag)
        diag->file = is_stdout(out) ? "<stdout>" : out->path;
    return st;
}

kfc_status kfc_output_open(kfc_output *out, const char *path, kfc_diag *diag)
{
    out->file = NULL;
    out->path = path;
    out->temp_path = NULL;
    out->error = 0;
    if (is_stdout(out)) {
        out->file = stdout;
        return KFC_OK;
    }
    struct stat existing;
    if (stat(path, &existing) == 0 && !S_ISREG(existing.st_mode)) {
        out->file = fopen(path, "wb");
        return out->file ? KFC_OK : io_error(out, diag, "open for writing", errno);
    }

    out->temp_path = temp_name_for(path);
    if (!out->temp_path)
        return kfc_fail_nomem(diag);
    int fd = create_and_publish(out->temp_path);
    if (fd < 0) {
        int err = errno;
        free(out->temp_path);
        out->temp_path = NULL;
        return io_error(out, diag, "create", err);
    }
    /* mkstemp makes the file private (0600); the output gets the mode any
     * new file would. Reading the umask means setting it, and back. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(out->file = fdopen(fd, "wb"))) {
        int err = errno;
        close(fd);
        sigset_t signals;
        withdraw_temp(&signals);
        remove(out->temp_path);
        sigprocmask(SIG_SETMASK, &signals, NULL);
        free(out->temp_path);
        out->temp_path = NULL;
        return io_error(out, diag, "create", err);
    }
    return KFC_OK;
}

int kfc_output_write(void *user, const void *data, size_t size)
{
    kfc_output *out = user;
    if (out->error)
        return 1;
    errno = 0;
    if (size && fwrite(data, 1, size, out->file) != size) {
        out->error = errno ? errno : EIO;
        return 1;
    }
    return 0;
}

kfc_status kfc_output_commit(kfc_output *out, kfc_diag *diag)
{
    if (!out->file)
        return io_error(out, diag, "write", EBADF);
    int err = out->error;
    errno = 0;
    if (!err && fflush(out->file) != 0)
        err = errno ? errno : EIO;
    if (!err && ferror(out->file))
        err = EIO;
    if (is_stdout(out)) {
        out->file = NULL;
        return err ? io_error(out, diag, "write", err) : KFC_OK;
    }
    /* fclose reports write errors that only show when the data reaches the
     * file system (a full disk on NFS, say). */
    errno = 0;
    if (fclose(out->file) != 0 && !err)
        err = errno ? errno : EIO;
    out->file = NULL;
    sigset_t mask;
    withdraw_temp(&mask);
    if (!err && out->temp_path && rename(out->temp_path, out->path) != 0)
        err = errno;
    if (err)
        kfc_output_abort(out);
    sigprocmask(SIG_SETMASK, &mask, NULL);
    if (err)
        return io_error(out, diag, "write", err);
    free(out->temp_path);
    out->temp_path = NULL;
    return KFC_OK;
}

kfc_status kfc_output_write_failed(kfc_output *out, kfc_diag *diag)
{
    int err = out->error ? out->error : EIO;
    kfc_output_abort(out);
    return io_error(out, diag, "write", err);
}

void kfc_output_abort(kfc_output *out)
{
    if (out->file && out->file != stdout)
        fclose(out->file);
    out->file = NULL;
    if (out->temp_path) {
        sigset_t mask;
        withdraw_temp(&mask);
        remove(out->temp_path);
        sigprocmask(SIG_SETMASK, &mask, NULL);
        free(out->temp_path);
        out->temp_path = NULL;
    }
}
