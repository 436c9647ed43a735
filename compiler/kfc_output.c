/* SPDX-License-Identifier: MIT */
/* mkstemp, fchmod, fchown, fileno, lstat, realpath, umask, sigaction, kill,
 * opendir and unlinkat are POSIX (realpath XSI), not C11. */
#define _XOPEN_SOURCE 700

#include "kfc_output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfc_text.h"

/*
 * Interrupted writes. While a temporary file exists, every signal whose
 * default action ends the process and that can be caught removes it and
 * then ends the process as the signal would have (the earlier action
 * restored, the signal raised again; a fault re-raised that way still
 * reaches a sanitizer's or debugger's handler): a killed kfc leaves no stray
 * file. A signal handler reaches only static storage, so the outputs whose
 * temporary files exist (several, while a run's outputs wait to be renamed
 * together) are published here, in a list through kfc_output.next_pending;
 * the handler calls only unlink, sigaction and raise (async-signal-safe).
 * An output is published after its file exists and withdrawn, with the
 * signals blocked, before the file is renamed or removed; the list changes
 * only with the signals blocked.
 */
static const int fixed_signals[] = {
    SIGHUP,    SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU,   SIGXFSZ,
    SIGABRT,   SIGBUS, SIGFPE,  SIGILL,  SIGSEGV, SIGSYS,  SIGTRAP, SIGPROF, SIGVTALRM,
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};
/* Those, and the real-time signals (they end a process too), listed once
 * before any handler is installed. */
#define MAX_SIGNALS 128
static int cleanup_signals[MAX_SIGNALS];
static size_t cleanup_count;
static kfc_output *volatile pending;
static struct sigaction previous[MAX_SIGNALS];

static void list_signals(void)
{
    if (cleanup_count)
        return;
    for (size_t i = 0; i < sizeof fixed_signals / sizeof fixed_signals[0]; i++)
        cleanup_signals[cleanup_count++] = fixed_signals[i];
#ifdef SIGRTMIN
    for (int sig = SIGRTMIN; sig <= SIGRTMAX && cleanup_count < MAX_SIGNALS; sig++)
        cleanup_signals[cleanup_count++] = sig;
#endif
}
#define CLEANUP_SIGNALS cleanup_count

static void remove_pending_and_reraise(int sig)
{
    for (kfc_output *out = pending; out; out = out->next_pending)
        unlink(out->temp_path);
    pending = NULL;
    for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
        if (cleanup_signals[i] == sig)
            sigaction(sig, &previous[i], NULL);
    raise(sig);
}

static void block_cleanup_signals(sigset_t *old)
{
    list_signals();
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
        sigaddset(&set, cleanup_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* Creates out's temporary file (mkstemp) and publishes it, with the
 * signals blocked in between: a signal that arrives while the file is being
 * created is handled once it exists. The handlers are installed with the
 * first file published. Returns mkstemp's descriptor. */
static int create_and_publish(kfc_output *out)
{
    sigset_t old;
    block_cleanup_signals(&old);
    int fd = mkstemp(out->temp_path);
    int err = errno;
    if (fd >= 0) {
        if (!pending) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = remove_pending_and_reraise;
            sigemptyset(&sa.sa_mask);
            for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
                sigaddset(&sa.sa_mask, cleanup_signals[i]);
            for (size_t i = 0; i < CLEANUP_SIGNALS; i++) {
                sigaction(cleanup_signals[i], NULL, &previous[i]);
                /* A signal the caller ignores (nohup) stays ignored. */
                if (previous[i].sa_handler != SIG_IGN)
                    sigaction(cleanup_signals[i], &sa, NULL);
            }
        }
        out->next_pending = pending;
        pending = out;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return fd;
}

/* Withdraws `out` (if published) and, with the last file, restores the
 * handlers; the signals stay blocked (in *old, the mask to restore) until
 * the caller has renamed or removed the file. */
static void withdraw_temp(kfc_output *out, sigset_t *old)
{
    block_cleanup_signals(old);
    kfc_output *volatile *link = &pending;
    while (*link && *link != out)
        link = &(*link)->next_pending;
    if (!*link)
        return;
    *link = out->next_pending;
    out->next_pending = NULL;
    if (!pending)
        for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
            if (previous[i].sa_handler != SIG_IGN)
                sigaction(cleanup_signals[i], &previous[i], NULL);
}

/* The temporary names: ".kfc-HOST-PID-XXXXXX", HOST this machine's name (its
 * letters, digits, '.' and '-'; at most 32 of them), PID the writing process. */
static const char temp_prefix[] = ".kfc-";

static void host_name(char out[33])
{
    char host[256];
    size_t n = 0;
    if (gethostname(host, sizeof host) != 0)
        host[0] = '\0';
    host[sizeof host - 1] = '\0';
    for (const char *p = host; *p && n < 32; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '.' || *p == '-')
            out[n++] = *p;
    out[n] = '\0';
}

/* The temporary file: a short name in the directory of `target` (so the
 * rename stays within one file system), whatever its name's length up to
 * NAME_MAX. */
static char *temp_name_for(const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
    char name[80], host[33];
    host_name(host);
    snprintf(name, sizeof name, "%s%s-%ld-XXXXXX", temp_prefix, host, (long)getpid());
    char *temp = malloc(dir + strlen(name) + 1);
    if (temp) {
        memcpy(temp, target, dir);
        strcpy(temp + dir, name);
    }
    return temp;
}

/* The process id in a temporary name this machine's kfc made, or 0 when
 * `name` is not one. */
static long temp_owner(const char *name, const char *host)
{
    const size_t p = sizeof temp_prefix - 1, h = strlen(host), n = strlen(name);
    if (n < p + h + 1 + 1 + 7 || strncmp(name, temp_prefix, p) != 0 ||
        strncmp(name + p, host, h) != 0 || name[p + h] != '-' || name[n - 7] != '-')
        return 0;
    long pid = 0;
    for (size_t i = p + h + 1; i < n - 7; i++) {
        if (name[i] < '0' || name[i] > '9' || pid > 99999999)
            return 0;
        pid = pid * 10 + (name[i] - '0');
    }
    return pid;
}

/*
 * Removes, from the directory `temp` is in, the temporary files that a kfc
 * killed beyond catching (SIGKILL, a crash of the machine) left: names made
 * on this machine, regular files of our user, whose process no longer runs.
 * A live process's file, another machine's (a shared folder), another
 * user's, or a name that only looks like ours stays.
 */
static void remove_stale_temps(const char *temp)
{
    const char *slash = strrchr(temp, '/');
    char *dir = slash ? malloc((size_t)(slash - temp) + 2) : NULL;
    if (slash && !dir)
        return;
    if (dir) {
        memcpy(dir, temp, (size_t)(slash - temp) + 1);
        dir[slash - temp + 1] = '\0';
    }
    DIR *d = opendir(dir ? dir : ".");
    free(dir);
    if (!d)
        return;
    const long self = (long)getpid();
    char host[33];
    host_name(host);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long pid = temp_owner(e->d_name, host);
        struct stat st;
        if (pid <= 0 || pid == self || (long)(pid_t)pid != pid)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* running, or not ours to ask about */
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid())
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
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

static void forget(kfc_output *out)
{
    free(out->temp_path);
    out->temp_path = NULL;
    if (out->target != out->path)
        free(out->target);
    out->target = NULL;
}

kfc_status kfc_output_open(kfc_output *out, const char *path, kfc_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    if (is_stdout(out)) {
        out->file = stdout;
        return KFC_OK;
    }
    out->target = (char *)path;
    struct stat existing;
    int exists = lstat(path, &existing) == 0;
    if (exists && S_ISLNK(existing.st_mode)) {
        /* Written through: the link stays, its target is replaced. */
        char *resolved = realpath(path, NULL);
        if (!resolved) {
            kfc_status st =
                errno == ENOENT
                    ? kfc_fail(diag, KFC_IO, KFC_NO_MARK,
                               "cannot write: a symbolic link to nothing (an output is written "
                               "through a link to an existing file)")
                    : io_error(out, diag, "resolve the symbolic link", errno);
            if (diag)
                diag->file = path;
            out->target = NULL;
            return st;
        }
        out->target = resolved;
        exists = stat(resolved, &existing) == 0;
    }
    if (exists && !S_ISREG(existing.st_mode)) {
        out->file = fopen(path, "wb");
        if (out->file)
            return KFC_OK;
        kfc_status st = io_error(out, diag, "open for writing", errno);
        forget(out);
        return st;
    }

    out->temp_path = temp_name_for(out->target);
    if (!out->temp_path) {
        forget(out);
        return kfc_fail_nomem(diag);
    }
    remove_stale_temps(out->temp_path);
    int fd = create_and_publish(out);
    if (fd < 0) {
        int err = errno;
        forget(out);
        return io_error(out, diag, "create", err);
    }
    /* mkstemp makes the file private (0600). A replaced output's mode (and
     * owner, where allowed) carries over; a new one gets the mode any new
     * file would. Reading the umask means setting it, and back. */
    mode_t mode;
    if (exists) {
        mode = existing.st_mode & 0777;
        out->other_links = existing.st_nlink > 1 ? (unsigned long)existing.st_nlink - 1 : 0;
        if ((existing.st_uid != geteuid() || existing.st_gid != getegid()) &&
            fchown(fd, existing.st_uid, existing.st_gid) != 0 &&
            fchown(fd, (uid_t)-1, existing.st_gid) != 0) {
            /* Not ours to give away: the file stays ours. */
        }
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0 || !(out->file = fdopen(fd, "wb"))) {
        int err = errno;
        close(fd);
        sigset_t signals;
        withdraw_temp(out, &signals);
        remove(out->temp_path);
        sigprocmask(SIG_SETMASK, &signals, NULL);
        forget(out);
        return io_error(out, diag, "create", err);
    }
    out->created = !exists;
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

kfc_status kfc_output_close(kfc_output *out, kfc_diag *diag)
{
    if (!out->file)
        return io_error(out, diag, "write", EBADF);
    int err = out->error;
    errno = 0;
    if (!err && fflush(out->file) != 0)
        err = errno ? errno : EIO;
    if (!err && ferror(out->file))
        err = EIO;
    /* fclose reports write errors that only show when the data reaches the
     * file system (a full disk on NFS, say). */
    errno = 0;
    if (!is_stdout(out) && fclose(out->file) != 0 && !err)
        err = errno ? errno : EIO;
    out->file = NULL;
    if (err) {
        kfc_output_abort(out);
        return io_error(out, diag, "write", err);
    }
    out->closed = 1;
    return KFC_OK;
}

kfc_status kfc_output_commit(kfc_output *out, kfc_diag *diag)
{
    kfc_status st = out->file     ? kfc_output_close(out, diag)
                    : out->closed ? KFC_OK
                                  : io_error(out, diag, "write", EBADF);
    if (st)
        return st;
    out->closed = 0;
    int err = 0;
    sigset_t mask;
    withdraw_temp(out, &mask);
    if (out->temp_path && rename(out->temp_path, out->target) != 0)
        err = errno;
    if (err)
        kfc_output_abort(out);
    sigprocmask(SIG_SETMASK, &mask, NULL);
    if (err)
        return io_error(out, diag, "write", err);
    if (out->other_links && out->notes)
        fprintf(out->notes,
                "kfc: note: %s had %lu other hard link%s; %s the new file, %s the earlier "
                "contents\n",
                out->path, out->other_links, out->other_links == 1 ? "" : "s", "this name has",
                out->other_links == 1 ? "the other keeps" : "the others keep");
    forget(out);
    return KFC_OK;
}

kfc_status kfc_output_commit_all(kfc_output *const *outs, size_t count, kfc_diag *diag)
{
    size_t done = 0;
    kfc_status st = KFC_OK;
    for (; done < count && !st; done++)
        if (outs[done])
            st = kfc_output_commit(outs[done], diag);
    if (!st)
        return KFC_OK;
    /* outs[done - 1] failed and is discarded: so are the ones after it, and
     * of the ones before it, each this run created. (One that replaced a
     * file cannot be taken back; a rename fails only where the directory
     * changed under the run, or will not let this user replace a file.) */
    for (size_t i = done; i < count; i++)
        if (outs[i])
            kfc_output_abort(outs[i]);
    for (size_t i = 0; i + 1 < done; i++)
        if (outs[i] && outs[i]->created)
            unlink(outs[i]->path);
    return st;
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
    out->closed = 0;
    if (out->temp_path) {
        sigset_t mask;
        withdraw_temp(out, &mask);
        remove(out->temp_path);
        sigprocmask(SIG_SETMASK, &mask, NULL);
    }
    forget(out);
}

/* Whether `a` and `b` name one file: the same device and inode, or, when
 * neither exists yet, the same name in the same directory; `a` "-",
 * standard output's file; `b` "-", standard input's file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    /* "-" written is standard output, whatever the shell opened it on
     * (kfc walk.yaml -o - >> walk.yaml): the same file as "/dev/stdout",
     * which names it. */
    int a_stdout = strcmp(a, "-") == 0;
    if (a_stdout && fstat(STDOUT_FILENO, &sa) != 0)
        return 0;
    /* "-" read is standard input: the file behind it, where it is a
     * regular one (kfc - -o walk.yaml < walk.yaml) */
    if (strcmp(b, "-") == 0)
        return fstat(STDIN_FILENO, &sb) == 0 && S_ISREG(sb.st_mode) &&
               (a_stdout || stat(a, &sa) == 0) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (a_stdout)
        return stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea || eb)
        return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    const char *na = strrchr(a, '/'), *nb = strrchr(b, '/');
    if (strcmp(na ? na + 1 : a, nb ? nb + 1 : b) != 0)
        return 0;
    char *da = na ? strndup(a, (size_t)(na - a) + 1) : strdup(".");
    char *db = nb ? strndup(b, (size_t)(nb - b) + 1) : strdup(".");
    int same = da && db && stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev &&
               sa.st_ino == sb.st_ino;
    free(da);
    free(db);
    return same;
}

/* A file's name in full where it fits, quoted as a name is (kfc_text.h). */
#define PATH_QUOTE_SIZE 240

kfc_status kfc_output_check(const char *path, const char *what, const kfc_files_read *inputs,
                            const char *other, const char *other_what, kfc_diag *diag)
{
    /* Paths in full where they fit, quoted as names are (kfc_text.h). "-"
     * is checked as standard output's file, as its names /dev/stdout and
     * /dev/fd/1 are. */
    char out[PATH_QUOTE_SIZE], in[PATH_QUOTE_SIZE];
    kf_text_name(out, sizeof out, path, strlen(path), 1);
    for (size_t i = 0; inputs && i < inputs->count; i++) {
        const kfc_file_read *r = &inputs->items[i];
        if (!same_file(path, r->path))
            continue;
        kf_text_name(in, sizeof in, r->path, strlen(r->path), 1);
        /* A file an input names: which, and where (a glTF buffer). */
        char reader[PATH_QUOTE_SIZE];
        if (r->named_in)
            return kfc_fail(
                diag, KFC_USAGE, KFC_NO_MARK,
                "the %s %s is %s, which %s reads%s%s%s; what is read is never "
                "overwritten",
                what, out, in,
                kf_text_name(reader, sizeof reader, r->named_in, strlen(r->named_in), 0),
                r->named_at ? " (" : "", r->named_at ? r->named_at : "", r->named_at ? ")" : "");
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                        "the %s %s is the input %s; what is read is never overwritten", what, out,
                        in);
    }
    if (inputs && inputs->stdin_read && same_file(path, "-"))
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                        "the %s %s is the file standard input reads; what is read is never "
                        "overwritten",
                        what, out);
    if (other && strcmp(other, "-") != 0 && same_file(path, other))
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "the %s %s is the %s %s", what, out,
                        other_what, kf_text_name(in, sizeof in, other, strlen(other), 1));
    return KFC_OK;
}
