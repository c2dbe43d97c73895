/*
 * tapset_memory.h -- fault-safe reads that do NOT raise a script error, for
 * the _warn and two-argument forms of tapsets/linux/conversions.stp (which
 * substitute a default instead).  Macros only, so that an embedded function
 * body may include it at block scope.  Never sleeps: the *_nofault copies
 * do not fault pages in.
 */
#ifndef TAP_TAPSET_MEMORY_H
#define TAP_TAPSET_MEMORY_H

/*
 * Copy a NUL-terminated string of at most size - 1 bytes from src (user
 * memory when user is true) into dst, page by page so that a string ending
 * just before an unmapped page still reads.  Evaluates to its length, or
 * -EFAULT (dst then holds "").
 */
#define __TAP_STRING_NOFAULT(dst, src, size, user) ({			\
	unsigned long __tsn_src = (unsigned long)(src), __tsn_done = 0, __tsn_chunk;	\
	long __tsn_len = -EFAULT;						\
	char *__tsn_nul;							\
	(dst)[0] = '\0';						\
	while (__tsn_done < (size) - 1) {					\
		__tsn_chunk = min_t(unsigned long, (size) - 1 - __tsn_done,	\
				PAGE_SIZE - offset_in_page(__tsn_src + __tsn_done)); \
		if ((user) ? copy_from_user_nofault((dst) + __tsn_done,	\
				(const void __user *)(__tsn_src + __tsn_done),	\
				__tsn_chunk)				\
			   : copy_from_kernel_nofault((dst) + __tsn_done,	\
				(const void *)(__tsn_src + __tsn_done), __tsn_chunk)) { \
			(dst)[0] = '\0';				\
			__tsn_done = 0;					\
			break;						\
		}							\
		__tsn_nul = memchr((dst) + __tsn_done, '\0', __tsn_chunk);		\
		if (__tsn_nul) {						\
			__tsn_len = __tsn_nul - (dst);				\
			break;						\
		}							\
		__tsn_done += __tsn_chunk;					\
	}								\
	if (__tsn_done >= (size) - 1) {					\
		(dst)[__tsn_done] = '\0';					\
		__tsn_len = __tsn_done;						\
	}								\
	__tsn_len; })

/* A scalar of type T at addr, or false (value untouched) on a fault. */
#define __TAP_READ_NOFAULT(T, out, addr, user) ({			\
	T __trn_val;							\
	bool __trn_ok = !((user) ? copy_from_user_nofault(&__trn_val,		\
				(const void __user *)(unsigned long)(addr), \
				sizeof(T))				\
			     : copy_from_kernel_nofault(&__trn_val,		\
				(const void *)(unsigned long)(addr),	\
				sizeof(T)));				\
	if (__trn_ok)							\
		(out) = __trn_val;						\
	__trn_ok; })

#endif /* TAP_TAPSET_MEMORY_H */
