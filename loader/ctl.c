/*
 * ctl.c -- the loader's side of the ctl file, debugfs tap_<module>/ctl:
 * framing of tap_protocol.h messages and the version handshake.
 *
 * Takes: the module name.  Produces: an open ctl, whole messages parsed out
 * of the byte stream, and a clear refusal when the module speaks another
 * protocol version.  Must not: interpret messages beyond HELLO; the session
 * loop in taprun.c owns what they mean.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "loader/taprun.h"

#define TAPRUN_DEBUGFS_MAGIC	0x64626720

/* Mount debugfs if nobody has (a bare initramfs, a minimal container). */
static int
taprun_debugfs_ensure(void)
{
	struct statfs sfs;

	if (statfs(TAPRUN_DEBUGFS, &sfs) == 0 && sfs.f_type == TAPRUN_DEBUGFS_MAGIC)
		return 0;
	if (mount("debugfs", TAPRUN_DEBUGFS, "debugfs", 0, NULL) != 0) {
		int err = errno;
		taprun_err("debugfs: cannot mount on %s: %s", TAPRUN_DEBUGFS,
			   strerror(err));
		return -err;
	}
	return 0;
}

int
taprun_ctl_open(struct taprun_ctl *ctl, const char *name)
{
	char path[256];
	int ret;

	ctl->fd = -1;
	ctl->have = 0;
	ret = taprun_debugfs_ensure();
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/tap_%s/ctl", TAPRUN_DEBUGFS, name);
	ctl->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (ctl->fd < 0) {
		ret = -errno;
		taprun_err("ctl: cannot open %s: %s%s", path, strerror(-ret),
			   ret == -ENOENT ? " (not a tapc module?)" : "");
		return ret;
	}
	return 0;
}

void
taprun_ctl_close(struct taprun_ctl *ctl)
{
	if (ctl->fd >= 0)
		close(ctl->fd);
	ctl->fd = -1;
}

static const char *
taprun_msg_name(unsigned int type)
{
	static const char *const names[] = {
		[TAP_MSG_HELLO] = "HELLO", [TAP_MSG_START] = "START",
		[TAP_MSG_STARTED] = "STARTED", [TAP_MSG_EXIT] = "EXIT",
		[TAP_MSG_DRAIN] = "DRAIN", [TAP_MSG_DRAINED] = "DRAINED",
		[TAP_MSG_ERROR] = "ERROR", [TAP_MSG_WARNING] = "WARNING",
		[TAP_MSG_COUNTS] = "COUNTS", [TAP_MSG_STOPPED] = "STOPPED",
		[TAP_MSG_ARM] = "ARM", [TAP_MSG_SYSTEM] = "SYSTEM",
		[TAP_MSG_SWITCH_FILE] = "SWITCH_FILE",
		[TAP_MSG_DETACH] = "DETACH", [TAP_MSG_ATTACH] = "ATTACH",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "unknown";
}

/* A request the module may refuse as part of the conversation (DETACH
 * of a session that is ending): -errno, and the caller words it. */
int
taprun_ctl_request(struct taprun_ctl *ctl, unsigned int type)
{
	struct tap_msg_hdr hdr = { .type = type, .len = 0 };
	ssize_t n;

	do {
		n = write(ctl->fd, &hdr, sizeof(hdr));
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : 0;
}

int
taprun_ctl_send(struct taprun_ctl *ctl, unsigned int type, const void *payload,
		size_t len)
{
	char buf[sizeof(struct tap_msg_hdr) + TAP_MSG_MAX_PAYLOAD];
	struct tap_msg_hdr hdr = { .type = type, .len = len };
	ssize_t n;

	if (len > TAP_MSG_MAX_PAYLOAD)
		return -EMSGSIZE;
	memcpy(buf, &hdr, sizeof(hdr));
	if (len)
		memcpy(buf + sizeof(hdr), payload, len);
	do {
		n = write(ctl->fd, buf, sizeof(hdr) + len);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		int err = errno;
		taprun_err("ctl: the module refused %s: %s",
			   taprun_msg_name(type), strerror(err));
		return -err;
	}
	return 0;
}

/* Read what is there (non-blocking); 0 when nothing new, -EPIPE at EOF. */
int
taprun_ctl_fill(struct taprun_ctl *ctl)
{
	ssize_t n;

	if (sizeof(ctl->buf) - ctl->have <
	    sizeof(struct tap_msg_hdr) + TAP_MSG_MAX_PAYLOAD)
		return 0;	/* parse first */
	do {
		n = read(ctl->fd, ctl->buf + ctl->have,
			 sizeof(ctl->buf) - ctl->have);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		if (errno == EAGAIN)
			return 0;
		n = -errno;
		taprun_err("ctl: read: %s", strerror(errno));
		return n;
	}
	if (n == 0)
		return -EPIPE;
	ctl->have += n;
	return 0;
}

bool
taprun_ctl_next(struct taprun_ctl *ctl, struct taprun_msg *msg)
{
	struct tap_msg_hdr hdr;
	size_t whole;

	if (ctl->have < sizeof(hdr))
		return false;
	memcpy(&hdr, ctl->buf, sizeof(hdr));
	if (hdr.len > TAP_MSG_MAX_PAYLOAD) {
		taprun_err("ctl: malformed message (type %u, %u bytes)",
			   hdr.type, hdr.len);
		ctl->have = 0;
		return false;
	}
	whole = sizeof(hdr) + hdr.len;
	if (ctl->have < whole)
		return false;
	msg->hdr = hdr;
	memcpy(msg->payload, ctl->buf + sizeof(hdr), hdr.len);
	msg->payload[hdr.len] = '\0';
	memmove(ctl->buf, ctl->buf + whole, ctl->have - whole);
	ctl->have -= whole;
	return true;
}

/* Wait up to timeout_ms for the next message. */
static int
taprun_ctl_wait(struct taprun_ctl *ctl, struct taprun_msg *msg, int timeout_ms)
{
	struct pollfd p = { .fd = ctl->fd, .events = POLLIN };
	int ret;

	while (!taprun_ctl_next(ctl, msg)) {
		ret = poll(&p, 1, timeout_ms);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			return ret < 0 ? -errno : -ETIMEDOUT;
		ret = taprun_ctl_fill(ctl);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Exchange HELLO.  The first two fields of HELLO never change, so whatever
 * the versions, each side can tell the other's.
 */
int
taprun_ctl_hello(struct taprun_ctl *ctl, const char *name)
{
	struct tap_msg_hello mine = {
		.magic = TAP_PROTOCOL_MAGIC, .version = TAP_PROTOCOL_VERSION,
	}, theirs;
	struct taprun_msg msg;
	int ret;

	ret = taprun_ctl_send(ctl, TAP_MSG_HELLO, &mine, sizeof(mine));
	if (ret)
		return ret;
	do {
		ret = taprun_ctl_wait(ctl, &msg, 5000);
		if (ret) {
			taprun_err("ctl: module %s did not answer hello: %s",
				   name, strerror(-ret));
			return ret;
		}
	} while (msg.hdr.type != TAP_MSG_HELLO);
	memset(&theirs, 0, sizeof(theirs));
	memcpy(&theirs, msg.payload,
	       msg.hdr.len < sizeof(theirs) ? msg.hdr.len : sizeof(theirs));
	if (theirs.magic != TAP_PROTOCOL_MAGIC) {
		taprun_err("ctl: module %s does not speak the tap protocol", name);
		return -EPROTO;
	}
	if (theirs.version != TAP_PROTOCOL_VERSION) {
		taprun_err("module %s speaks tap protocol %u but this taprun speaks %u; rebuild the module with the tapc that matches this taprun",
			   name, theirs.version, TAP_PROTOCOL_VERSION);
		return -EPROTO;
	}
	taprun_verbose("module %s: protocol %u, %u cpus, %u x %u byte buffers",
		       name, theirs.version, theirs.ncpus, theirs.n_subbufs,
		       theirs.subbuf_size);
	return 0;
}
