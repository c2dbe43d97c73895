/*
 * target_mem.h -- the memory side of $target locations that memory.h's
 * reads do not cover: loads inside DWARF location expressions
 * (DW_OP_deref, DW_OP_deref_size, memory pieces of DW_OP_piece) and the
 * writes of guru mode (`$var = v`, `$p->field = v`, bitfields included).
 *
 * The generated module includes this header (after runtime.h) only when
 * its $target code needs it; everything is static inline.  Reads go
 * through tap_kread_bits (memory.c), and writes the same way: the probed
 * task's user memory in a uprobe handler (process(...) probes), kernel
 * memory elsewhere.  A kernel write to a user-space address or a
 * non-canonical one, a user write to a kernel address, or a page that is
 * not mapped or not writable is a script error naming the address
 * ("kernel write fault at 0x..", "user write fault at 0x.."), never an
 * oops.
 * Must not: sleep (a user page that is not present, or not yet written
 * since it was mapped or forked -- still copy-on-write --, is a fault
 * here, not paged in), or write through anything but the nofault
 * primitives.
 */
#ifndef TAP_LINUX_TARGET_MEM_H
#define TAP_LINUX_TARGET_MEM_H

#include <linux/uaccess.h>
#include <linux/string.h>
#include <asm/processor.h>

/* `size` (1..8) bytes at addr, zero-extended: a load in a location
 * expression.  After a fault (recorded as a script error) *failed is set
 * and the value is 0; once set, later loads of the same expression do
 * nothing, so one error is reported. */
static inline u64
tap_loc_load(struct tap_context *c, u64 addr, int size, bool *failed)
{
	s64 v;

	if (*failed)
		return 0;
	if (size < 1 || size > 8 ||
	    !tap_kread_bits(c, addr, size, 0, size * 8, false, &v)) {
		*failed = true;
		return 0;
	}
	return (u64)v;
}

/* Whether [addr, addr + size) may be written as kernel memory: not
 * user space, and canonical (a non-canonical address would be a general
 * protection fault, which the fixup handles only with a warning). */
static inline bool
__tap_kwrite_allowed(u64 addr, size_t size)
{
	int vbits = boot_cpu_data.x86_virt_bits;
	u64 last = addr + size - 1;

	if (!size || last < addr || addr < TASK_SIZE_MAX + PAGE_SIZE)
		return false;
	if (vbits <= 0 || vbits >= 64)
		return true;
	return (u64)((s64)(addr << (64 - vbits)) >> (64 - vbits)) == addr &&
	       (u64)((s64)(last << (64 - vbits)) >> (64 - vbits)) == last;
}

/* One store of 1, 2, 4 or 8 bytes without faulting: 0 or -EFAULT.
 * copy_to_kernel_nofault is not exported to modules, so this is its
 * loop with the architecture's __put_kernel_nofault. */
static inline int
__tap_put_kernel(u64 addr, u64 v, int size)
{
	void *dst = (void *)(unsigned long)addr;
	u8 b = v; u16 h = v; u32 w = v;

	switch (size) {
	case 1: __put_kernel_nofault(dst, &b, u8, fault); break;
	case 2: __put_kernel_nofault(dst, &h, u16, fault); break;
	case 4: __put_kernel_nofault(dst, &w, u32, fault); break;
	case 8: __put_kernel_nofault(dst, &v, u64, fault); break;
	default: return -EFAULT;
	}
	return 0;
fault:
	return -EFAULT;
}

/* The low `size` (1..8) bytes of v at kernel address addr: 0 or
 * -EFAULT. */
static inline int
__tap_kwrite(u64 addr, u64 v, int size)
{
	int ret = -EFAULT;

	if (__tap_kwrite_allowed(addr, size)) {
		pagefault_disable();
		if (size == 1 || size == 2 || size == 4 || size == 8)
			ret = __tap_put_kernel(addr, v, size);
		else {	/* 3, 5, 6, 7 bytes: one at a time, little-endian */
			ret = 0;
			for (int i = 0; i < size && !ret; i++)
				ret = __tap_put_kernel(addr + i, v >> (8 * i), 1);
		}
		pagefault_enable();
	}
	return ret;
}

/* The low `size` (1..8) bytes of v at user address addr of the current
 * task (the probed one, in a uprobe handler): 0 or -EFAULT.  The nofault
 * copy checks access_ok and runs with page faults disabled; x86 is
 * little-endian, so the first `size` bytes of v are its low bytes. */
static inline int
__tap_uwrite(u64 addr, u64 v, int size)
{
	return tap_copy_to_user_nofault((void __user *)(unsigned long)addr,
					&v, size) ? -EFAULT : 0;
}

/* Store the low `size` (1..8) bytes of v at addr: user memory in a
 * uprobe handler, kernel memory elsewhere (as tap_kread_* read). */
static inline bool
tap_twrite_int(struct tap_context *c, u64 addr, int size, u64 v)
{
	bool user = tap_uprobe_current(c) != NULL;
	int ret = -EFAULT;

	if (size >= 1 && size <= 8)
		ret = user ? __tap_uwrite(addr, v, size)
			   : __tap_kwrite(addr, v, size);
	if (likely(ret == 0))
		return true;
	tap_error(c, "%s write fault at 0x%llx (%d bytes)",
		  user ? "user" : "kernel", (unsigned long long)addr, size);
	return false;
}

/* A bitfield: `bits` bits from bit `bit_off` of the nbytes (1..8) at
 * addr, little-endian, set to v; the other bits are kept (read, modify,
 * write: a concurrent writer of the neighbouring bits can be lost, as
 * with any C bitfield store). */
static inline bool
tap_twrite_bits(struct tap_context *c, u64 addr, int nbytes, int bit_off,
		int bits, u64 v)
{
	u64 mask = bits >= 64 ? ~0ULL : ((1ULL << bits) - 1) << bit_off;
	s64 old;

	if (nbytes < 1 || nbytes > 8 || bits < 1 || bit_off + bits > 64 ||
	    !tap_kread_bits(c, addr, nbytes, 0, nbytes * 8, false, &old))
		return false;
	return tap_twrite_int(c, addr, nbytes,
			      ((u64)old & ~mask) | ((v << bit_off) & mask));
}

#endif /* TAP_LINUX_TARGET_MEM_H */
