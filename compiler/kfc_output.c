/* mkstemp, fchmod, fileno, stat and umask are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "kfc_output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

    static const char suffix[] = ".XXXXXX";
    size_t length = strlen(path);
    out->temp_path = malloc(length + sizeof suffix);
    if (!out->temp_path)
        return kfc_fail_nomem(diag);
    memcpy(out->temp_path, path, length);
    memcpy(out->temp_path + length, suffix, sizeof suffix);
    int fd = mkstemp(out->temp_path);
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
        remove(out->temp_path);
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
    if (!err && out->temp_path && rename(out->temp_path, out->path) != 0)
        err = errno;
    if (err) {
        kfc_output_abort(out);
        return io_error(out, diag, "write", err);
    }
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
        remove(out->temp_path);
        free(out->temp_path);
        out->temp_path = NULL;
    }
}
