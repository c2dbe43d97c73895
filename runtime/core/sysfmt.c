/*
 * sysfmt.c -- decoding of system call arguments and results into the text
 * strace prints (see sysfmt.h).  Tables hold x86_64 Linux ABI values.
 *
 * A flag set is an optional enumerated field (the access mode of open, the
 * type of mmap or socket) followed by independent bits; bits nobody names
 * are printed as one hex number at the end, so no information is lost.
 */
#include "sysfmt.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))

/* ---- a bounded appender ---- */

struct sf_out {
	char *p;
	size_t left;		/* room left, the NUL included */
};

static void
sf_puts(struct sf_out *o, const char *s)
{
	while (*s && o->left > 1) {
		*o->p++ = *s++;
		o->left--;
	}
	*o->p = '\0';
}

static void
sf_unsigned(struct sf_out *o, unsigned long v, unsigned int base,
	    const char *prefix)
{
	char tmp[24];
	int i = sizeof(tmp) - 1;

	tmp[i] = '\0';
	do {
		tmp[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	sf_puts(o, prefix);
	sf_puts(o, tmp + i);
}

static void
sf_signed(struct sf_out *o, long v)
{
	if (v < 0) {
		sf_puts(o, "-");
		sf_unsigned(o, -(unsigned long)v, 10, "");
	} else {
		sf_unsigned(o, v, 10, "");
	}
}

static struct sf_out
sf_begin(char *dst, size_t size)
{
	struct sf_out o = { dst, size };

	if (size)
		dst[0] = '\0';
	return o;
}

/* ---- tables ---- */

#define F(v, n) { (v), (n) }

static const char *const errno_names[] = {
	[1] = "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG",
	"ENOEXEC", "EBADF", "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT",
	"ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR", "EISDIR",
	"EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC",
	"ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK",
	"ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP", NULL,
	"ENOMSG", "EIDRM", "ECHRNG", "EL2NSYNC", "EL3HLT", "EL3RST", "ELNRNG",
	"EUNATCH", "ENOCSI", "EL2HLT", "EBADE", "EBADR", "EXFULL", "ENOANO",
	"EBADRQC", "EBADSLT", NULL, "EBFONT", "ENOSTR", "ENODATA", "ETIME",
	"ENOSR", "ENONET", "ENOPKG", "EREMOTE", "ENOLINK", "EADV", "ESRMNT",
	"ECOMM", "EPROTO", "EMULTIHOP", "EDOTDOT", "EBADMSG", "EOVERFLOW",
	"ENOTUNIQ", "EBADFD", "EREMCHG", "ELIBACC", "ELIBBAD", "ELIBSCN",
	"ELIBMAX", "ELIBEXEC", "EILSEQ", "ERESTART", "ESTRPIPE", "EUSERS",
	"ENOTSOCK", "EDESTADDRREQ", "EMSGSIZE", "EPROTOTYPE", "ENOPROTOOPT",
	"EPROTONOSUPPORT", "ESOCKTNOSUPPORT", "EOPNOTSUPP", "EPFNOSUPPORT",
	"EAFNOSUPPORT", "EADDRINUSE", "EADDRNOTAVAIL", "ENETDOWN",
	"ENETUNREACH", "ENETRESET", "ECONNABORTED", "ECONNRESET", "ENOBUFS",
	"EISCONN", "ENOTCONN", "ESHUTDOWN", "ETOOMANYREFS", "ETIMEDOUT",
	"ECONNREFUSED", "EHOSTDOWN", "EHOSTUNREACH", "EALREADY", "EINPROGRESS",
	"ESTALE", "EUCLEAN", "ENOTNAM", "ENAVAIL", "EISNAM", "EREMOTEIO",
	"EDQUOT", "ENOMEDIUM", "EMEDIUMTYPE", "ECANCELED", "ENOKEY",
	"EKEYEXPIRED", "EKEYREVOKED", "EKEYREJECTED", "EOWNERDEAD",
	"ENOTRECOVERABLE", "ERFKILL", "EHWPOISON",
};

/* Kernel-internal codes a tracer can see on sys_exit. */
static const struct tap_sysfmt_flag kernel_errnos[] = {
	F(512, "ERESTARTSYS"), F(513, "ERESTARTNOINTR"),
	F(514, "ERESTARTNOHAND"), F(515, "ENOIOCTLCMD"),
	F(516, "ERESTART_RESTARTBLOCK"), F(517, "EPROBE_DEFER"),
	F(518, "EOPENSTALE"), F(519, "ENOPARAM"), F(521, "EBADHANDLE"),
	F(524, "ENOTSUPP"),
};

static const struct tap_sysfmt_flag open_mode[] = {
	F(0, "O_RDONLY"), F(1, "O_WRONLY"), F(2, "O_RDWR"),
};

/* Multi-bit names (O_SYNC, O_TMPFILE) come before the bits they contain. */
static const struct tap_sysfmt_flag open_bits[] = {
	F(0100, "O_CREAT"), F(0200, "O_EXCL"), F(0400, "O_NOCTTY"),
	F(01000, "O_TRUNC"), F(02000, "O_APPEND"), F(04000, "O_NONBLOCK"),
	F(04010000, "O_SYNC"), F(010000, "O_DSYNC"), F(020000, "O_ASYNC"),
	F(040000, "O_DIRECT"), F(0100000, "O_LARGEFILE"),
	F(020200000, "O_TMPFILE"), F(0200000, "O_DIRECTORY"),
	F(0400000, "O_NOFOLLOW"), F(01000000, "O_NOATIME"),
	F(02000000, "O_CLOEXEC"), F(010000000, "O_PATH"),
};

static const struct tap_sysfmt_flag prot_bits[] = {
	F(1, "PROT_READ"), F(2, "PROT_WRITE"), F(4, "PROT_EXEC"),
	F(8, "PROT_SEM"), F(0x01000000, "PROT_GROWSDOWN"),
	F(0x02000000, "PROT_GROWSUP"),
};

static const struct tap_sysfmt_flag map_type[] = {
	F(1, "MAP_SHARED"), F(2, "MAP_PRIVATE"), F(3, "MAP_SHARED_VALIDATE"),
};

static const struct tap_sysfmt_flag map_bits[] = {
	F(0x10, "MAP_FIXED"), F(0x20, "MAP_ANONYMOUS"), F(0x40, "MAP_32BIT"),
	F(0x100, "MAP_GROWSDOWN"), F(0x800, "MAP_DENYWRITE"),
	F(0x1000, "MAP_EXECUTABLE"), F(0x2000, "MAP_LOCKED"),
	F(0x4000, "MAP_NORESERVE"), F(0x8000, "MAP_POPULATE"),
	F(0x10000, "MAP_NONBLOCK"), F(0x20000, "MAP_STACK"),
	F(0x40000, "MAP_HUGETLB"), F(0x80000, "MAP_SYNC"),
	F(0x100000, "MAP_FIXED_NOREPLACE"),
};

static const struct tap_sysfmt_flag access_bits[] = {
	F(4, "R_OK"), F(2, "W_OK"), F(1, "X_OK"),
};

static const struct tap_sysfmt_flag at_bits[] = {
	F(0x100, "AT_SYMLINK_NOFOLLOW"), F(0x200, "AT_REMOVEDIR"),
	F(0x400, "AT_SYMLINK_FOLLOW"), F(0x800, "AT_NO_AUTOMOUNT"),
	F(0x1000, "AT_EMPTY_PATH"),
};

static const struct tap_sysfmt_flag clone_bits[] = {
	F(0x100, "CLONE_VM"), F(0x200, "CLONE_FS"), F(0x400, "CLONE_FILES"),
	F(0x800, "CLONE_SIGHAND"), F(0x1000, "CLONE_PIDFD"),
	F(0x2000, "CLONE_PTRACE"), F(0x4000, "CLONE_VFORK"),
	F(0x8000, "CLONE_PARENT"), F(0x10000, "CLONE_THREAD"),
	F(0x20000, "CLONE_NEWNS"), F(0x40000, "CLONE_SYSVSEM"),
	F(0x80000, "CLONE_SETTLS"), F(0x100000, "CLONE_PARENT_SETTID"),
	F(0x200000, "CLONE_CHILD_CLEARTID"), F(0x400000, "CLONE_DETACHED"),
	F(0x800000, "CLONE_UNTRACED"), F(0x1000000, "CLONE_CHILD_SETTID"),
	F(0x2000000, "CLONE_NEWCGROUP"), F(0x4000000, "CLONE_NEWUTS"),
	F(0x8000000, "CLONE_NEWIPC"), F(0x10000000, "CLONE_NEWUSER"),
	F(0x20000000, "CLONE_NEWPID"), F(0x40000000, "CLONE_NEWNET"),
	F(0x80000000UL, "CLONE_IO"),
};

static const struct tap_sysfmt_flag sock_type[] = {
	F(1, "SOCK_STREAM"), F(2, "SOCK_DGRAM"), F(3, "SOCK_RAW"),
	F(4, "SOCK_RDM"), F(5, "SOCK_SEQPACKET"), F(6, "SOCK_DCCP"),
	F(10, "SOCK_PACKET"),
};

static const struct tap_sysfmt_flag sock_bits[] = {
	F(04000, "SOCK_NONBLOCK"), F(02000000, "SOCK_CLOEXEC"),
};

static const struct tap_sysfmt_flag sock_family[] = {
	F(0, "AF_UNSPEC"), F(1, "AF_UNIX"), F(2, "AF_INET"),
	F(4, "AF_IPX"), F(5, "AF_APPLETALK"), F(10, "AF_INET6"),
	F(16, "AF_NETLINK"), F(17, "AF_PACKET"), F(38, "AF_ALG"),
	F(40, "AF_VSOCK"), F(44, "AF_XDP"),
};

static const struct tap_sysfmt_flag seek_whence[] = {
	F(0, "SEEK_SET"), F(1, "SEEK_CUR"), F(2, "SEEK_END"),
	F(3, "SEEK_DATA"), F(4, "SEEK_HOLE"),
};

static const struct tap_sysfmt_flag signals[] = {
	F(1, "SIGHUP"), F(2, "SIGINT"), F(3, "SIGQUIT"), F(4, "SIGILL"),
	F(5, "SIGTRAP"), F(6, "SIGABRT"), F(7, "SIGBUS"), F(8, "SIGFPE"),
	F(9, "SIGKILL"), F(10, "SIGUSR1"), F(11, "SIGSEGV"),
	F(12, "SIGUSR2"), F(13, "SIGPIPE"), F(14, "SIGALRM"),
	F(15, "SIGTERM"), F(16, "SIGSTKFLT"), F(17, "SIGCHLD"),
	F(18, "SIGCONT"), F(19, "SIGSTOP"), F(20, "SIGTSTP"),
	F(21, "SIGTTIN"), F(22, "SIGTTOU"), F(23, "SIGURG"),
	F(24, "SIGXCPU"), F(25, "SIGXFSZ"), F(26, "SIGVTALRM"),
	F(27, "SIGPROF"), F(28, "SIGWINCH"), F(29, "SIGIO"), F(30, "SIGPWR"),
	F(31, "SIGSYS"),
};

/* In SystemTap's order, so that the common SA_RESTART|SA_RESTORER reads
 * as it does there. */
static const struct tap_sysfmt_flag sa_bits[] = {
	F(1, "SA_NOCLDSTOP"), F(2, "SA_NOCLDWAIT"),
	F(0x80000000UL, "SA_RESETHAND"), F(0x08000000, "SA_ONSTACK"),
	F(0x10000000, "SA_RESTART"), F(0x40000000, "SA_NODEFER"),
	F(4, "SA_SIGINFO"), F(0x04000000, "SA_RESTORER"),
};

/* The two old adjtime() modes are whole values that contain ADJ_OFFSET
 * (and ADJ_NANO): named first, they are not split into their bits. */
static const struct tap_sysfmt_flag adj_bits[] = {
	F(0xa001, "ADJ_OFFSET_SS_READ"), F(0x8001, "ADJ_OFFSET_SINGLESHOT"),
	F(0x0001, "ADJ_OFFSET"), F(0x0002, "ADJ_FREQUENCY"),
	F(0x0004, "ADJ_MAXERROR"), F(0x0008, "ADJ_ESTERROR"),
	F(0x0010, "ADJ_STATUS"), F(0x0020, "ADJ_TIMECONST"),
	F(0x0080, "ADJ_TAI"), F(0x0100, "ADJ_SETOFFSET"),
	F(0x1000, "ADJ_MICRO"), F(0x2000, "ADJ_NANO"), F(0x4000, "ADJ_TICK"),
};

/*
 * How one set decodes: the enumerated field under field_mask (named from
 * field, or a number), then the bits, then what is left in hex.
 * zero_name is printed for an all-zero value when there is no field.
 */
struct sf_set {
	unsigned long field_mask;
	const struct tap_sysfmt_flag *field;
	size_t nfield;
	const struct tap_sysfmt_flag *bits;
	size_t nbits;
	const char *zero_name;
	bool field_last;	/* the clone signal goes after the flags */
};

#define SET_FIELD(mask, t) (mask), (t), N_(t)
#define SET_BITS(t) (t), N_(t)

static const struct sf_set sets[TAP_SYSFMT_NSETS] = {
	[TAP_SYSFMT_OPEN] = { SET_FIELD(3, open_mode), SET_BITS(open_bits) },
	[TAP_SYSFMT_PROT] = { 0, NULL, 0, SET_BITS(prot_bits), "PROT_NONE" },
	[TAP_SYSFMT_MAP] = { SET_FIELD(0xf, map_type), SET_BITS(map_bits) },
	[TAP_SYSFMT_ACCESS] = { 0, NULL, 0, SET_BITS(access_bits), "F_OK" },
	[TAP_SYSFMT_AT] = { 0, NULL, 0, SET_BITS(at_bits), "0" },
	[TAP_SYSFMT_CLONE] = { 0xff, signals, N_(signals),
			       SET_BITS(clone_bits), "0", true },
	[TAP_SYSFMT_SOCK_TYPE] = { SET_FIELD(0xf, sock_type),
				   SET_BITS(sock_bits) },
	[TAP_SYSFMT_SOCK_FAMILY] = { ~0UL, sock_family, N_(sock_family) },
	[TAP_SYSFMT_SEEK] = { ~0UL, seek_whence, N_(seek_whence) },
	[TAP_SYSFMT_SIGNAL] = { ~0UL, signals, N_(signals) },
	[TAP_SYSFMT_SA_FLAGS] = { 0, NULL, 0, SET_BITS(sa_bits) },
	[TAP_SYSFMT_ADJ_MODES] = { 0, NULL, 0, SET_BITS(adj_bits) },
};

/* ---- decoding ---- */

static const char *
sf_lookup(const struct tap_sysfmt_flag *t, size_t n, unsigned long v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

static void
sf_sep(struct sf_out *o, bool *first)
{
	if (!*first)
		sf_puts(o, "|");
	*first = false;
}

/* The enumerated field f, unless it is zero in a set whose field comes
 * last (no signal in clone's flags). */
static void
sf_field(struct sf_out *o, const struct sf_set *s, unsigned long f,
	 bool *first)
{
	const char *name = sf_lookup(s->field, s->nfield, f);

	if (!name && f == 0 && s->field_last)
		return;
	sf_sep(o, first);
	if (name)
		sf_puts(o, name);
	else
		sf_unsigned(o, f, 16, "0x");
}

void
tap_sysfmt_decode(char *dst, size_t size, enum tap_sysfmt_set set,
		  long value)
{
	struct sf_out o = sf_begin(dst, size);
	const struct sf_set *s;
	unsigned long v = (unsigned long)value;
	unsigned long named = 0, field;
	bool first = true;
	size_t i;

	if ((unsigned int)set >= TAP_SYSFMT_NSETS)
		return sf_unsigned(&o, v, 16, "0x");
	s = &sets[set];
	if (s->field_mask == ~0UL && !s->bits) {
		const char *name = sf_lookup(s->field, s->nfield, v);

		return name ? sf_puts(&o, name) : sf_signed(&o, value);
	}
	if (v == 0 && !s->field && s->zero_name)
		return sf_puts(&o, s->zero_name);
	field = v & s->field_mask;
	v &= ~s->field_mask;
	if (s->field && !s->field_last)
		sf_field(&o, s, field, &first);
	for (i = 0; i < s->nbits; i++) {
		unsigned long b = s->bits[i].value;

		if ((v & b) == b && !(named & b)) {
			sf_sep(&o, &first);
			sf_puts(&o, s->bits[i].name);
			named |= b;
		}
	}
	v &= ~named;
	if (v || (first && !s->field_last)) {
		sf_sep(&o, &first);
		sf_unsigned(&o, v, 16, "0x");
	}
	if (s->field && s->field_last)
		sf_field(&o, s, field, &first);
	if (first)
		sf_puts(&o, "0");
}

const char *
tap_sysfmt_errno_name(long err)
{
	if (err < 0)
		err = -err;
	if (err > 0 && (size_t)err < N_(errno_names) && errno_names[err])
		return errno_names[err];
	return sf_lookup(kernel_errnos, N_(kernel_errnos), err);
}

void
tap_sysfmt_retstr(char *dst, size_t size, long ret)
{
	struct sf_out o = sf_begin(dst, size);
	const char *name = NULL;

	if (ret < 0 && ret >= -4095)
		name = tap_sysfmt_errno_name(-ret);
	sf_signed(&o, ret);
	if (name) {
		sf_puts(&o, " (");
		sf_puts(&o, name);
		sf_puts(&o, ")");
	}
}

void
tap_sysfmt_dirfd(char *dst, size_t size, long fd)
{
	struct sf_out o = sf_begin(dst, size);

	if ((int)fd == -100)
		sf_puts(&o, "AT_FDCWD");
	else
		sf_signed(&o, (int)fd);
}

void
tap_sysfmt_mode(char *dst, size_t size, long mode)
{
	struct sf_out o = sf_begin(dst, size);

	mode &= 07777777;
	sf_unsigned(&o, (unsigned long)mode, 8, mode ? "0" : "00");
}

void
tap_sysfmt_hex(char *dst, size_t size, unsigned long value)
{
	struct sf_out o = sf_begin(dst, size);

	if (value == 0)
		sf_puts(&o, "NULL");
	else
		sf_unsigned(&o, value, 16, "0x");
}

void
tap_sysfmt_dec(char *dst, size_t size, long value)
{
	struct sf_out o = sf_begin(dst, size);

	sf_signed(&o, value);
}

/*
 * n bytes of a data buffer in double quotes with strace's escapes: \n \t
 * and friends, other unprintable bytes in octal (three digits when an
 * octal digit follows, so the reader cannot merge them); "..." after the
 * closing quote when more is true (the buffer went on).
 */
void
tap_sysfmt_buf(char *dst, size_t size, const char *data, size_t n, bool more)
{
	static const char named[] = "\"\"\\\\\ff\nn\rr\tt\vv";
	struct sf_out o = sf_begin(dst, size);
	size_t i, j;

	sf_puts(&o, "\"");
	for (i = 0; i < n; i++) {
		unsigned char ch = data[i];
		char one[2] = { (char)ch, 0 }, esc[3] = { '\\', 0, 0 };
		bool next_octal = i + 1 < n && data[i + 1] >= '0' &&
				  data[i + 1] <= '7';

		for (j = 0; named[j]; j += 2)
			if (ch == (unsigned char)named[j])
				break;
		if (named[j]) {
			esc[1] = named[j + 1];
			sf_puts(&o, esc);
		} else if (ch >= 0x20 && ch < 0x7f) {
			sf_puts(&o, one);
		} else if (next_octal) {
			char oct[5] = { '\\', '0' + (ch >> 6), '0' + ((ch >> 3) & 7),
					'0' + (ch & 7), 0 };
			sf_puts(&o, oct);
		} else {
			sf_unsigned(&o, ch, 8, "\\");
		}
	}
	sf_puts(&o, more ? "\"..." : "\"");
}
