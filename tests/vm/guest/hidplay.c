/* hidplay: plays one HID device into /dev/uhid for the real-kernel tests (guest side).
 *
 *     hidplay STREAM LOG
 *
 * STREAM is written on the host by tests/vm/hid-streams: the device (UHID_CREATE2 with its
 * bus, vendor, product and report descriptor), the answers to the kernel's feature
 * requests, and a script of input reports with their timing, markers and waits. The
 * helper answers every UHID_GET_REPORT (from the stream's table; EIO for a report the
 * table lacks, as a device that stalls) and UHID_SET_REPORT (accepted and remembered, so
 * the stream can check that the driver switched the device to touchscreen mode), waits
 * for UHID_OPEN before the first report, keeps the time between reports, and destroys the
 * device at the end. Between reports it keeps serving the kernel, so a probe never waits.
 *
 * Its lines ("GRIDLOCK-HID: ...") go to stdout and are appended to LOG, the daemon's log
 * file, so that one file holds both in the order they happened; a SYNC record waits for a
 * line of the daemon there (e.g. "attempt ") before the script goes on.
 *
 * Stream: the 8 bytes "GLHID1\n\0", then records: u8 type, u8 0, u16 0, u32 length, payload
 * (little endian). Built statically (gcc -static) by tests/vm/build-initramfs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uhid.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { R_CREATE = 1, R_FEATURE, R_OPEN, R_INPUT, R_MARK, R_SYNC, R_PAUSE, R_EXPECT_SET, R_LIST, R_DESTROY };

static int uhid = -1, log_fd = -1;
static const char *log_path;
static int opened, created, failures;
static double open_since, t0;
static uint16_t bus;
static uint32_t vendor, product;
static off_t mark_offset; /* LOG's size after the last MARK line: SYNC looks from here */

struct feature { uint8_t rnum; uint16_t size; uint8_t *data; };
static struct feature features[256];
static int feature_count;
struct set_seen { uint8_t rnum; uint16_t size; uint8_t data[256]; };
static struct set_seen sets[64];
static int set_count;

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void say(const char *format, ...) {
	char line[2048];
	va_list ap;
	int n = snprintf(line, sizeof line, "GRIDLOCK-HID: %.3f ", now() - t0);
	va_start(ap, format);
	n += vsnprintf(line + n, sizeof line - n - 1, format, ap);
	va_end(ap);
	if (n > (int)sizeof line - 2) n = sizeof line - 2;
	line[n++] = '\n';
	fwrite(line, 1, n, stdout);
	fflush(stdout);
	if (log_fd >= 0 && write(log_fd, line, n) < 0) { /* the log is evidence, not a need */ }
}

static void die(const char *what) {
	say("error %s: %s", what, strerror(errno));
	exit(1);
}

static void send_event(struct uhid_event *ev, size_t size) {
	if (write(uhid, ev, size) < 0) say("write to /dev/uhid (type %u): %s", ev->type, strerror(errno));
}

/* One event from the kernel. */
static void handle(void) {
	struct uhid_event ev, reply;
	ssize_t n = read(uhid, &ev, sizeof ev);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR) die("read /dev/uhid");
		return;
	}
	memset(&reply, 0, sizeof reply);
	switch (ev.type) {
	case UHID_START: say("start flags=0x%llx", (unsigned long long)ev.u.start.dev_flags); break;
	case UHID_STOP: say("stop"); break;
	case UHID_OPEN: opened = 1; open_since = now(); say("open"); break;
	case UHID_CLOSE: opened = 0; say("close"); break;
	case UHID_OUTPUT: say("output report %u bytes", ev.u.output.size); break;
	case UHID_GET_REPORT: {
		struct feature *f = NULL;
		for (int i = 0; i < feature_count; i++)
			if (features[i].rnum == ev.u.get_report.rnum) f = &features[i];
		reply.type = UHID_GET_REPORT_REPLY;
		reply.u.get_report_reply.id = ev.u.get_report.id;
		if (f && ev.u.get_report.rtype == UHID_FEATURE_REPORT) {
			reply.u.get_report_reply.size = f->size;
			memcpy(reply.u.get_report_reply.data, f->data, f->size);
		} else {
			reply.u.get_report_reply.err = EIO;
		}
		say("get-report id=%u type=%u -> %s", ev.u.get_report.rnum, ev.u.get_report.rtype,
		    reply.u.get_report_reply.err ? "EIO" : "answered");
		send_event(&reply, sizeof reply);
		break;
	}
	case UHID_SET_REPORT: {
		char hex[3 * 16 + 1] = "";
		for (int i = 0; i < ev.u.set_report.size && i < 16; i++)
			sprintf(hex + 3 * i, "%02x ", ev.u.set_report.data[i]);
		say("set-report id=%u type=%u size=%u data=%s", ev.u.set_report.rnum, ev.u.set_report.rtype,
		    ev.u.set_report.size, hex);
		if (ev.u.set_report.rtype == UHID_FEATURE_REPORT && set_count < 64) {
			struct set_seen *s = &sets[set_count++];
			s->rnum = ev.u.set_report.rnum;
			s->size = ev.u.set_report.size < sizeof s->data ? ev.u.set_report.size : sizeof s->data;
			memcpy(s->data, ev.u.set_report.data, s->size);
		}
		reply.type = UHID_SET_REPORT_REPLY;
		reply.u.set_report_reply.id = ev.u.set_report.id;
		send_event(&reply, sizeof reply);
		break;
	}
	default: say("uhid event %u", ev.type); break;
	}
}

/* A report (or the destroy after the last one) that goes out this late means the guest did
 * not run: TCG on a busy host. No panel stalls like that, and hid-multitouch releases the
 * contacts of a Win8 device that stays silent for 100 ms (MT_QUIRK_STICKY_FINGERS), which
 * lifts the finger mid-stroke. Said so that the host knows the run was not a panel's. */
#define STALL_SECONDS 0.08
static void stalled(double late) {
	if (late > STALL_SECONDS) say("stalled %.0f ms: a report went out that late (the guest did not run)", late * 1000);
}

/* Serves the kernel until `deadline` (monotonic seconds). */
static void serve_until(double deadline) {
	for (;;) {
		double left = deadline - now();
		if (left <= 0) return;
		struct pollfd p = {.fd = uhid, .events = POLLIN};
		int r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR) die("poll");
		if (r > 0) handle();
	}
}

static uint32_t u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t u16(const uint8_t *p) { return p[0] | p[1] << 8; }

/* True when a line of LOG past the last MARK, not one of ours, holds one of the NUL-separated needles. */
static int log_has(const char *needles, size_t length, char *found, size_t found_size) {
	int fd = open(log_path, O_RDONLY);
	if (fd < 0) return 0;
	off_t size = lseek(fd, 0, SEEK_END);
	int hit = 0;
	if (size > mark_offset) {
		size_t n = size - mark_offset;
		char *text = malloc(n + 1);
		if (text && pread(fd, text, n, mark_offset) == (ssize_t)n) {
			text[n] = 0;
			for (char *line = text; line && *line && !hit;) {
				char *end = strchr(line, '\n');
				if (!end) break; /* an unfinished line: next time */
				*end = 0;
				if (strncmp(line, "GRIDLOCK-HID:", 13) != 0)
					for (const char *needle = needles; needle < needles + length && *needle;
					     needle += strlen(needle) + 1)
						if (strstr(line, needle)) {
							snprintf(found, found_size, "%s", line);
							hit = 1;
							break;
						}
				line = end + 1;
			}
		}
		free(text);
	}
	close(fd);
	return hit;
}

/* The HID device's sysfs folder: /sys/bus/hid/devices/BBBB:VVVV:PPPP.NNNN, the newest one. */
static int hid_folder(char *out, size_t size) {
	char prefix[32];
	snprintf(prefix, sizeof prefix, "%04X:%04X:%04X.", bus, vendor, product);
	DIR *d = opendir("/sys/bus/hid/devices");
	if (!d) return 0;
	unsigned long best = 0;
	int found = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
		unsigned long seq = strtoul(e->d_name + strlen(prefix), NULL, 16);
		if (!found || seq > best) {
			best = seq;
			found = 1;
			snprintf(out, size, "/sys/bus/hid/devices/%s", e->d_name);
		}
	}
	closedir(d);
	return found;
}

static void read_text(const char *path, char *out, size_t size) {
	out[0] = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0) return;
	ssize_t n = read(fd, out, size - 1);
	close(fd);
	if (n < 0) n = 0;
	out[n] = 0;
	for (char *p = out; *p; p++)
		if (*p == '\n') *p = 0;
		else if (*p == ' ') *p = ',';
}

/* Which driver bound and every event node of the device, with what the kernel says of it. */
static void list_nodes(void) {
	char folder[300], path[1000], link[300], text[256], props[64], abs[256], key[1024];
	if (!hid_folder(folder, sizeof folder)) {
		say("hid-device none (no /sys/bus/hid/devices/%04X:%04X:%04X.*)", bus, vendor, product);
		return;
	}
	snprintf(path, sizeof path, "%s/driver", folder);
	ssize_t n = readlink(path, link, sizeof link - 1);
	link[n > 0 ? n : 0] = 0;
	say("hid-device %s driver=%s", strrchr(folder, '/') + 1, n > 0 ? strrchr(link, '/') + 1 : "(none)");
	snprintf(path, sizeof path, "%s/input", folder);
	DIR *inputs = opendir(path);
	if (!inputs) return;
	for (struct dirent *i; (i = readdir(inputs));) {
		if (strncmp(i->d_name, "input", 5) != 0) continue;
		char base[600];
		snprintf(base, sizeof base, "%s/input/%s", folder, i->d_name);
		DIR *nodes = opendir(base);
		if (!nodes) continue;
		for (struct dirent *e; (e = readdir(nodes));) {
			if (strncmp(e->d_name, "event", 5) != 0) continue;
			snprintf(path, sizeof path, "%s/name", base);
			read_text(path, text, sizeof text);
			for (char *p = text; *p; p++) if (*p == ',') *p = ' ';
			snprintf(path, sizeof path, "%s/properties", base);
			read_text(path, props, sizeof props);
			snprintf(path, sizeof path, "%s/capabilities/abs", base);
			read_text(path, abs, sizeof abs);
			snprintf(path, sizeof path, "%s/capabilities/key", base);
			read_text(path, key, sizeof key);
			say("node /dev/input/%s %s props=%s abs=%s key=%s name=%s", e->d_name, i->d_name, props, abs, key, text);
		}
		closedir(nodes);
	}
	closedir(inputs);
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: hidplay STREAM LOG\n");
		return 64;
	}
	t0 = now();
	log_path = argv[2];
	log_fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	FILE *f = fopen(argv[1], "rb");
	if (!f) die("open stream");
	fseek(f, 0, SEEK_END);
	long length = ftell(f);
	rewind(f);
	uint8_t *s = malloc(length);
	if (!s || fread(s, 1, length, f) != (size_t)length) die("read stream");
	fclose(f);
	if (length < 8 || memcmp(s, "GLHID1\n", 8) != 0) {
		say("error %s is not a hidplay stream", argv[1]);
		return 1;
	}
	uhid = open("/dev/uhid", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (uhid < 0) die("open /dev/uhid");
	/* A panel reports on its own clock, whatever the host is busy with. The guest has one
	 * CPU: without a real-time priority a busy gridlockd can hold this helper back for more
	 * than the 100 ms after which hid-multitouch releases a Win8 device's silent contacts
	 * (MT_QUIRK_STICKY_FINGERS), which cuts a stroke in two no real device would cut. */
	struct sched_param rt = {.sched_priority = 10};
	if (sched_setscheduler(0, SCHED_FIFO, &rt) < 0) say("no real-time priority: %s", strerror(errno));

	double last = now();
	for (long at = 8; at + 8 <= length;) {
		uint8_t type = s[at];
		uint32_t size = u32(s + at + 4);
		uint8_t *p = s + at + 8;
		at += 8 + size;
		if (at > length) {
			say("error truncated stream");
			return 1;
		}
		switch (type) {
		case R_CREATE: {
			struct uhid_event ev;
			memset(&ev, 0, sizeof ev);
			ev.type = UHID_CREATE2;
			bus = u16(p);
			ev.u.create2.bus = bus;
			ev.u.create2.rd_size = u16(p + 2);
			vendor = ev.u.create2.vendor = u32(p + 4);
			product = ev.u.create2.product = u32(p + 8);
			ev.u.create2.version = u32(p + 12);
			ev.u.create2.country = u32(p + 16);
			memcpy(ev.u.create2.name, p + 20, 127);
			memcpy(ev.u.create2.rd_data, p + 148, ev.u.create2.rd_size);
			if (write(uhid, &ev, sizeof ev) < 0) die("UHID_CREATE2");
			created = 1;
			say("created %04x:%04x:%04x \"%s\" (%u descriptor bytes)", bus, vendor, product,
			    (char *)ev.u.create2.name, ev.u.create2.rd_size);
			break;
		}
		case R_FEATURE:
			if (feature_count < 256) {
				features[feature_count].rnum = p[0];
				features[feature_count].size = size - 1;
				features[feature_count].data = p + 1;
				feature_count++;
			}
			break;
		case R_OPEN: {
			double timeout = u32(p) / 1000.0, stable = u32(p + 4) / 1000.0, end = now() + timeout;
			while (now() < end && !(opened && now() - open_since >= stable))
				serve_until(now() + 0.02);
			if (opened && now() - open_since >= stable) {
				say("opened (held for %.1f s)", stable);
			} else {
				say("FAILED nobody opened the device within %.0f s", timeout);
				failures++;
			}
			last = now();
			break;
		}
		case R_INPUT: {
			struct uhid_event ev;
			memset(&ev, 0, sizeof ev);
			double due = last + u32(p) / 1e6;
			serve_until(due);
			stalled(now() - due);
			ev.type = UHID_INPUT2;
			ev.u.input2.size = size - 4;
			memcpy(ev.u.input2.data, p + 4, size - 4);
			last = now();
			if (write(uhid, &ev, sizeof ev) < 0) {
				say("FAILED UHID_INPUT2: %s", strerror(errno));
				failures++;
			}
			break;
		}
		case R_MARK: {
			char text[256];
			snprintf(text, sizeof text, "%.*s", (int)size, (char *)p);
			say("mark %s", text);
			mark_offset = lseek(log_fd, 0, SEEK_END);
			last = now();
			break;
		}
		case R_SYNC: {
			double end = now() + u32(p) / 1000.0;
			char found[512] = "";
			while (!log_has((char *)p + 4, size - 4, found, sizeof found) && now() < end)
				serve_until(now() + 0.02);
			if (found[0]) say("sync %s", found);
			else say("sync timeout after %.1f s", u32(p) / 1000.0);
			last = now();
			break;
		}
		case R_PAUSE:
			serve_until(now() + u32(p) / 1000.0);
			last = now();
			break;
		case R_EXPECT_SET: {
			/* u8 rnum, u8 bits, u16 bit position, u32 value, label */
			uint8_t rnum = p[0], bits = p[1];
			uint16_t position = u16(p + 2);
			uint32_t want = u32(p + 4), got = 0;
			int seen = 0;
			for (int i = 0; i < set_count; i++) {
				if (sets[i].rnum != rnum) continue;
				uint32_t v = 0;
				for (int b = 0; b < bits; b++) {
					int bit = position + b;
					if (bit / 8 < sets[i].size && (sets[i].data[bit / 8] >> (bit % 8) & 1)) v |= 1u << b;
				}
				seen = 1;
				got = v;
			}
			if (seen && got == want) {
				say("check %.*s: report %u set to %u", (int)size - 8, (char *)p + 8, rnum, got);
			} else {
				say("FAILED check %.*s: report %u %s (want %u)", (int)size - 8, (char *)p + 8, rnum,
				    seen ? "set to another value" : "never set", want);
				failures++;
			}
			break;
		}
		case R_LIST:
			list_nodes();
			break;
		case R_DESTROY: {
			struct uhid_event ev;
			memset(&ev, 0, sizeof ev);
			stalled(now() - last);
			ev.type = UHID_DESTROY;
			if (write(uhid, &ev, sizeof ev) < 0) die("UHID_DESTROY");
			created = 0;
			say("destroyed");
			break;
		}
		default:
			say("error unknown record type %u", type);
			return 1;
		}
	}
	if (created) {
		/* Closing /dev/uhid destroys the device as well. */
		say("destroyed (end of stream)");
	}
	close(uhid);
	say("end %s", failures ? "with failures" : "ok");
	return failures ? 2 : 0;
}
