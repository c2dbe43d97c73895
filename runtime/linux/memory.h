/*
 * memory.h -- reading kernel and user memory from a handler without risk:
 * a bad address is a script error ("kernel read fault at 0x..."), never an
 * oops.  For $target variables, @cast, kernel_string(), user_string() & co.
 * Must not: sleep (the *_nofault primitives do not fault pages in; a user
 * page that is not resident reads as a fault).
 */
#ifndef TAP_LINUX_MEMORY_H
#define TAP_LINUX_MEMORY_H

#include <linux/types.h>
#include <linux/compiler.h>

struct tap_context;

bool tap_kread(struct tap_context *c, void *dst, const void *src, size_t size);
bool tap_uread(struct tap_context *c, void *dst, const void __user *src,
	       size_t size);
long tap_kstring(struct tap_context *c, char *dst, const char *src,
		 size_t size);
long tap_ustring(struct tap_context *c, char *dst, const char __user *src,
		 size_t size);

/*
 * $target reads (translator/sema/tvar_access.h): each records a script error
 * naming the address and returns false / a negative length on a fault.
 */

/* *v = the pointer stored at address *v. */
bool tap_kread_addr(struct tap_context *c, u64 *v);
/* An integer of size 1, 2, 4 or 8 bytes at addr, sign- or zero-extended. */
bool tap_kread_int(struct tap_context *c, u64 addr, int size, bool is_signed,
		   s64 *out);
/* A bitfield: `bits` bits from bit `bit_off` of the nbytes (1..8) at addr,
 * little-endian. */
bool tap_kread_bits(struct tap_context *c, u64 addr, int nbytes, int bit_off,
		    int bits, bool is_signed, s64 *out);
/* A char array of n bytes (0: unknown, up to the NUL) at addr as a
 * string in dst (MAXSTRINGLEN bytes): its length, or -EFAULT. */
long tap_kread_chars(struct tap_context *c, char *dst, u64 addr, size_t n);

/* Pretty printing of $var$ and $$parms, as SystemTap formats values. */
struct tap_buf;
void tap_pretty_hex(struct tap_buf *b, s64 v);		/* 0x1f, 0x0 */
void tap_pretty_dec(struct tap_buf *b, s64 v);
void tap_pretty_func(struct tap_buf *b, s64 v);		/* <function>:0x.. */
/* s in double quotes, escaped; tmp is MAXSTRINGLEN bytes of scratch. */
void tap_pretty_quoted(struct tap_buf *b, char *tmp, const char *s);
/* The string a char * points to, quoted; 0x0 for NULL, and the address
 * in hex when it cannot be read (a user pointer, a stale one): pretty
 * printing shows what it can rather than stop the script.  raw and tmp
 * are MAXSTRINGLEN bytes of scratch. */
void tap_pretty_kstring(struct tap_buf *b, char *raw, char *tmp, u64 addr);

#endif /* TAP_LINUX_MEMORY_H */
