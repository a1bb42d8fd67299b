#pragma once
// Linux-only descriptors that Swift's Glibc module map leaves out.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

// Glibc's module is built without _GNU_SOURCE, which hides pipe2; declaring it here
// lets a pipe be created close-on-exec atomically, with no window for a concurrent spawn.
extern int pipe2(int pipefd[2], int flags);
