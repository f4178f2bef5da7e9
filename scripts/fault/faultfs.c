/* faultfs: a disk that fills up or fails, for one folder, without root.
 *
 * Loaded with LD_PRELOAD into `mondo` (whose SQLite calls the C library's file
 * functions), it makes the files under $FAULTFS_DIR behave as the first word of the
 * file $FAULTFS_CTL says, read at every call so a test can change it while Mondo runs:
 *
 *   ok         nothing happens
 *   full       a write that would grow a file fails with ENOSPC (as on a full
 *              filesystem: overwriting what a file holds still works), and statvfs
 *              says no block is free
 *   fsync-eio  fsync and fdatasync fail with EIO (the data was written, its sync
 *              failed: whether a commit survives is unknown)
 *   write-eio  every write fails with EIO
 *
 * Build: cc -shared -fPIC -O2 -o faultfs.so faultfs.c -ldl
 * Used by tests/it/store_faults.rs and scripts/fault/store_faults.py.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

enum mode { OK, FULL, FSYNC_EIO, WRITE_EIO };

static enum mode current_mode(void) {
    const char *ctl = getenv("FAULTFS_CTL");
    if (!ctl) return OK;
    int saved = errno;
    static int (*real_open)(const char *, int, ...);
    static ssize_t (*real_read)(int, void *, size_t);
    static int (*real_close)(int);
    if (!real_open) {
        real_open = dlsym(RTLD_NEXT, "open");
        real_read = dlsym(RTLD_NEXT, "read");
        real_close = dlsym(RTLD_NEXT, "close");
    }
    char word[32] = {0};
    int fd = real_open(ctl, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = real_read(fd, word, sizeof word - 1);
        if (n < 0) word[0] = 0;
        real_close(fd);
    }
    errno = saved;
    if (!strncmp(word, "full", 4)) return FULL;
    if (!strncmp(word, "fsync-eio", 9)) return FSYNC_EIO;
    if (!strncmp(word, "write-eio", 9)) return WRITE_EIO;
    return OK;
}

static int under_dir(const char *path) {
    const char *dir = getenv("FAULTFS_DIR");
    if (!dir || !*dir || !path) return 0;
    size_t n = strlen(dir);
    return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

static int ours(int fd) {
    char link[64], path[PATH_MAX];
    int saved = errno;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    errno = saved;
    if (n <= 0) return 0;
    path[n] = 0;
    return under_dir(path);
}

/* Whether writing `n` bytes at `at` would grow the file. */
static int grows(int fd, off_t at, size_t n) {
    struct stat st;
    int saved = errno;
    int r = fstat(fd, &st);
    errno = saved;
    return r != 0 || at + (off_t)n > st.st_size;
}

/* 0: go ahead; otherwise the errno to fail with. */
static int write_fault(int fd, off_t at, size_t n) {
    if (!ours(fd)) return 0;
    switch (current_mode()) {
    case FULL: return grows(fd, at, n) ? ENOSPC : 0;
    case WRITE_EIO: return EIO;
    default: return 0;
    }
}

#define REAL(name) \
    static __typeof__(name) *real_##name; \
    if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buf, size_t n) {
    REAL(write);
    if (fd > 2) {
        int saved = errno;
        off_t at = lseek(fd, 0, SEEK_CUR);
        errno = saved;
        int e = write_fault(fd, at < 0 ? 0 : at, n);
        if (e) { errno = e; return -1; }
    }
    return real_write(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t at) {
    REAL(pwrite);
    int e = write_fault(fd, at, n);
    if (e) { errno = e; return -1; }
    return real_pwrite(fd, buf, n, at);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t at) {
    REAL(pwrite64);
    int e = write_fault(fd, at, n);
    if (e) { errno = e; return -1; }
    return real_pwrite64(fd, buf, n, at);
}

static int grow_fault(int fd, off_t len) {
    if (!ours(fd)) return 0;
    enum mode m = current_mode();
    if (m == WRITE_EIO) return EIO;
    if (m == FULL) {
        struct stat st;
        int saved = errno;
        int r = fstat(fd, &st);
        errno = saved;
        if (r != 0 || len > st.st_size) return ENOSPC;
    }
    return 0;
}

int ftruncate(int fd, off_t len) {
    REAL(ftruncate);
    int e = grow_fault(fd, len);
    if (e) { errno = e; return -1; }
    return real_ftruncate(fd, len);
}

int ftruncate64(int fd, off64_t len) {
    REAL(ftruncate64);
    int e = grow_fault(fd, len);
    if (e) { errno = e; return -1; }
    return real_ftruncate64(fd, len);
}

int posix_fallocate(int fd, off_t at, off_t len) {
    REAL(posix_fallocate);
    int e = grow_fault(fd, at + len);
    if (e) return e;
    return real_posix_fallocate(fd, at, len);
}

int posix_fallocate64(int fd, off64_t at, off64_t len) {
    REAL(posix_fallocate64);
    int e = grow_fault(fd, at + len);
    if (e) return e;
    return real_posix_fallocate64(fd, at, len);
}

static int sync_fault(int fd) {
    if (!ours(fd)) return 0;
    enum mode m = current_mode();
    return (m == FSYNC_EIO || m == WRITE_EIO) ? EIO : 0;
}

int fsync(int fd) {
    REAL(fsync);
    int e = sync_fault(fd);
    if (e) { errno = e; return -1; }
    return real_fsync(fd);
}

int fdatasync(int fd) {
    REAL(fdatasync);
    int e = sync_fault(fd);
    if (e) { errno = e; return -1; }
    return real_fdatasync(fd);
}

static int no_room(const char *path) {
    return under_dir(path) && current_mode() == FULL;
}

int statvfs(const char *path, struct statvfs *buf) {
    REAL(statvfs);
    int r = real_statvfs(path, buf);
    if (r == 0 && no_room(path)) buf->f_bfree = buf->f_bavail = 0;
    return r;
}

int statvfs64(const char *path, struct statvfs64 *buf) {
    REAL(statvfs64);
    int r = real_statvfs64(path, buf);
    if (r == 0 && no_room(path)) buf->f_bfree = buf->f_bavail = 0;
    return r;
}
