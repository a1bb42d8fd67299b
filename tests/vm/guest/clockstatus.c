/* clockstatus show|sync|unsync: the kernel's NTP status flag STA_UNSYNC, as an NTP client
 * would leave it, so the real-kernel suite can show gridlockd both a synchronised and an
 * unsynchronised clock (patterns with a schedule open only with the first). */
#include <stdio.h>
#include <string.h>
#include <sys/timex.h>

int main(int argc, char **argv) {
    struct timex state;
    memset(&state, 0, sizeof state);
    if (argc != 2) {
        fprintf(stderr, "usage: clockstatus show|sync|unsync\n");
        return 64;
    }
    if (adjtimex(&state) < 0) {
        perror("adjtimex");
        return 1;
    }
    if (strcmp(argv[1], "show") != 0) {
        int synchronise = strcmp(argv[1], "sync") == 0;
        state.modes = ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR;
        state.status = synchronise ? (state.status & ~STA_UNSYNC) : (state.status | STA_UNSYNC);
        /* Below the kernel's 16 s phase limit, or it sets STA_UNSYNC again within a second. */
        state.maxerror = synchronise ? 100000 : 16000000;
        state.esterror = synchronise ? 1000 : 16000000;
        if (adjtimex(&state) < 0) {
            perror("adjtimex (set)");
            return 1;
        }
    }
    printf("clock %s\n", (state.status & STA_UNSYNC) ? "unsynchronised" : "synchronised");
    return 0;
}
