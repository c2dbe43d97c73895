/*
 * memory.c -- fault-tolerant reads of kernel and user memory (memory.h).
 *
 * Takes: addresses a script computed.  Produces: the bytes, or false / a
 * negative length after recording a script error in the context.
 * Must not: dereference the source directly.
 */
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/mm.h>
#include "compat/compat.h"
#include "context.h"
#include "memory.h"
#include "probes_uprobe.h"

bool
tap_kread(struct tap_context *c, void *dst, const void *src, size_t size)
{
	if (likely(tap_copy_from_kernel_nofault(dst, src, size) == 0))
		return true;
	tap_error(c, "kernel read fault at 0x%lx (%zu bytes)",
		  (unsigned long)src, size);
	return false;
}

bool
tap_uread(struct tap_context *c, void *dst, const void __user *src,
	  size_t size)
{
	if (likely(tap_copy_from_user_nofault(dst, src, size) == 0))
		return true;
	tap_error(c, "user read fault at 0x%lx (%zu bytes)",
		  (unsigned long)src, size);
	return false;
}

/*
 * Copy a NUL-terminated string, cut to size - 1 bytes.  The strncpy_*_nofault
 * helpers are not exported to modules, so read page by page: a chunk never
 * crosses into a page the string does not reach.  Length, or -EFAULT.
 */
static long
tap_string_nofault(char *dst, const char *src, size_t size, bool user)
{
	size_t done = 0, chunk;
	char *nul;
	int ret;

	if (!size)
		return 0;
	while (done < size - 1) {
		chunk = min_t(size_t, size - 1 - done,
			      PAGE_SIZE - offset_in_page(src + done));
		ret = user ? tap_copy_from_user_nofault(dst + done,
					(const char __user *)src + done, chunk)
			   : tap_copy_from_kernel_nofault(dst + done,
					src + done, chunk);
		if (ret)
			return -EFAULT;
		nul = memchr(dst + done, '\0', chunk);
		if (nul)
			return nul - dst;
		done += chunk;
	}
	dst[done] = '\0';
	return done;
}

long
tap_kstring(struct tap_context *c, char *dst, const char *src, size_t size)
{
	long n = tap_string_nofault(dst, src, size, false);

	if (n < 0)
		tap_error(c, "kernel string copy fault at 0x%lx",
			  (unsigned long)src);
	return n;
}

long
tap_ustring(struct tap_context *c, char *dst, const char __user *src,
	    size_t size)
{
	long n = tap_string_nofault(dst, (const char __force *)src, size, true);

	if (n < 0)
		tap_error(c, "user string copy fault at 0x%lx",
			  (unsigned long)src);
	return n;
}

/* ---- $target reads ---- */

/* $target memory: the probed task's user memory in a uprobe handler
 * (process().function $vars), kernel memory everywhere else. */
static bool
tap_target_read(struct tap_context *c, void *dst, const void *src,
		size_t size)
{
	if (tap_uprobe_current(c))
		return tap_uread(c, dst, (const void __user *)src, size);
	return tap_kread(c, dst, src, size);
}

bool
tap_kread_addr(struct tap_context *c, u64 *v)
{
	u64 p;

	if (!tap_target_read(c, &p, (const void *)(unsigned long)*v, sizeof(p)))
		return false;
	*v = p;
	return true;
}

bool
tap_kread_int(struct tap_context *c, u64 addr, int size, bool is_signed,
	      s64 *out)
{
	const void *src = (const void *)(unsigned long)addr;
	union { u8 b; u16 h; u32 w; u64 q; } u;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		size = 8;
	if (!tap_target_read(c, &u, src, size))
		return false;
	switch (size) {
	case 1: *out = is_signed ? (s64)(s8)u.b : (s64)u.b; break;
	case 2: *out = is_signed ? (s64)(s16)u.h : (s64)u.h; break;
	case 4: *out = is_signed ? (s64)(s32)u.w : (s64)u.w; break;
	default: *out = (s64)u.q; break;
	}
	return true;
}

bool
tap_kread_bits(struct tap_context *c, u64 addr, int nbytes, int bit_off,
	       int bits, bool is_signed, s64 *out)
{
	u8 bytes[8];
	u64 v = 0;
	int i;

	if (nbytes < 1 || nbytes > 8 || bits < 1 || bit_off + bits > 64)
		return false;
	if (!tap_target_read(c, bytes, (const void *)(unsigned long)addr,
			     nbytes))
		return false;
	for (i = nbytes - 1; i >= 0; i--)	/* little-endian */
		v = (v << 8) | bytes[i];
	v >>= bit_off;
	if (bits < 64) {
		v &= (1ULL << bits) - 1;
		if (is_signed && (v & (1ULL << (bits - 1))))
			v |= ~((1ULL << bits) - 1);
	}
	*out = (s64)v;
	return true;
}

long
tap_kread_chars(struct tap_context *c, char *dst, u64 addr, size_t n)
{
	const char *src = (const char *)(unsigned long)addr;
	char *nul;

	if (!n && tap_uprobe_current(c))
		return tap_ustring(c, dst, (const char __user *)src,
				   MAXSTRINGLEN);
	if (!n)
		return tap_kstring(c, dst, src, MAXSTRINGLEN);
	if (n > MAXSTRINGLEN - 1)
		n = MAXSTRINGLEN - 1;
	/* An array need not end in NUL: read exactly its bytes. */
	if (!tap_target_read(c, dst, src, n))
		return -EFAULT;
	dst[n] = '\0';
	nul = memchr(dst, '\0', n);
	return nul ? nul - dst : (long)n;
}

/* ---- pretty printing ---- */

void
tap_pretty_hex(struct tap_buf *b, s64 v)
{
	char tmp[72];
	int n = __tap_utoa_rev(tmp, (u64)v, 16, false);

	tap_buf_puts(b, "0x");
	while (n > 0)
		tap_buf_putc(b, tmp[--n]);
}

void
tap_pretty_dec(struct tap_buf *b, s64 v)
{
	tap_buf_put_s64(b, v);
}

void
tap_pretty_func(struct tap_buf *b, s64 v)
{
	tap_buf_puts(b, "<function>:");
	tap_pretty_hex(b, v);
}

void
tap_pretty_quoted(struct tap_buf *b, char *tmp, const char *s)
{
	tap_str_quoted(tmp, s);
	tap_buf_puts(b, tmp);
}

void
tap_pretty_kstring(struct tap_buf *b, char *raw, char *tmp, u64 addr)
{
	if (!addr) {
		tap_buf_puts(b, "0x0");
		return;
	}
	/* in a uprobe handler, $var$ strings are the task's user memory */
	if (tap_string_nofault(raw, (const char *)(unsigned long)addr,
			       MAXSTRINGLEN, tap_in_uprobe()) < 0) {
		tap_pretty_hex(b, (s64)addr);
		return;
	}
	tap_pretty_quoted(b, tmp, raw);
}
