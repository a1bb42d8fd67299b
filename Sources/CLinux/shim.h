#pragma once
// Linux-only descriptors that Swift's Glibc module map leaves out.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

// Glibc's module is built without _GNU_SOURCE, which hides pipe2; declaring it here
// lets a pipe be created close-on-exec atomically, with no window for a concurrent spawn.
extern int pipe2(int pipefd[2], int flags);

#include <sys/syscall.h>
#include <unistd.h>

// pidfd_open(2) (Linux 5.3): a descriptor that becomes readable when the process exits,
// so a poll loop can wait for a child without depending on which thread gets SIGCHLD.
// glibc 2.36 has no wrapper in the headers Swift sees; returns -1 with errno (ENOSYS on old kernels).
static inline int gridlock_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

// prctl(2) and ioctl(2) are variadic, which Swift cannot call: fixed-argument wrappers.
#include <sys/prctl.h>
#include <sys/ioctl.h>

// PR_SET_CHILD_SUBREAPER (Linux 3.4): orphans among this process's descendants are
// reparented to it instead of to init, so the programs it ran cannot leave anything
// behind by starting a new session. Returns 0, or -1 with errno.
static inline int gridlock_set_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

// 1 when this process is a child subreaper, 0 when not, -1 with errno.
static inline int gridlock_is_child_subreaper(void) {
    int value = 0;
    return prctl(PR_GET_CHILD_SUBREAPER, (unsigned long)&value, 0UL, 0UL, 0UL) == 0 ? (value != 0) : -1;
}

// PR_SET_NAME: the thread's command name (/proc/PID/comm, what ps and pgrep match), at most
// 15 bytes kept. Returns 0, or -1 with errno.
static inline int gridlock_set_command_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

// FIONREAD: the bytes a pipe holds now; -1 with errno.
static inline int gridlock_bytes_waiting(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

// Kernel uevents over netlink (sockaddr_nl, NETLINK_KOBJECT_UEVENT), for display hotplug.
#include <sys/socket.h>
#include <linux/netlink.h>

// adjtimex(2) with nothing to set: whether an NTP client disciplines the clock
// (STA_UNSYNC clear), for patterns that may only open at certain times.
#include <sys/timex.h>

// accept4(2) and struct ucred are _GNU_SOURCE too. The peer's credentials (SO_PEERCRED,
// which the kernel fills in at connect and the peer cannot forge), in a struct laid out
// as the kernel's struct ucred. Returns 0, or -1 with errno.
#include <sys/socket.h>
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
static inline int gridlock_peer_credentials(int fd, int *pid, unsigned *uid, unsigned *gid) {
    struct { int pid; unsigned uid; unsigned gid; } credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

// memfd_create(2) (Linux 3.17) is _GNU_SOURCE in glibc's headers: the raw system call,
// close-on-exec and sealable, for memory shared with a compositor (a wl_shm pool).
// Returns the descriptor, or -1 with errno.
#include <linux/memfd.h>
static inline int gridlock_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

// perf_event_open(2) has no glibc wrapper, and perf_event_attr is mostly bit-fields, which
// Swift cannot set: one counter of the instructions this thread retires in user space
// (pid 0, any CPU, not the kernel's or a hypervisor's), created disabled and close-on-exec,
// reading its count with the times it was enabled and running (a multiplexed counter runs
// for less). Returns the descriptor, or -1 with errno: ENOENT when the CPU has no such
// counter (no PMU the kernel knows, as in most virtual machines), EACCES or EPERM when
// kernel.perf_event_paranoid forbids it.
#include <linux/perf_event.h>
#include <string.h>
static inline int gridlock_perf_open_instructions(void) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

// The counter's ioctls (their request numbers are macros Swift does not import): zero it and
// start counting, or stop. 0, or -1 with errno.
static inline int gridlock_perf_reset_and_enable(int fd) {
    if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) != 0) return -1;
    return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}
static inline int gridlock_perf_disable(int fd) {
    return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}
