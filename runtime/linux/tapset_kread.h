/*
 * tapset_kread.h -- fault-safe reads of kernel struct fields for the probe
 * families (tapsets/linux/{kprocess,scheduler,vfs,...}.stp), which get
 * structure pointers as longs from tracepoints and kprobe registers.
 * Macros only, so that an embedded function body may include it at block
 * scope; the struct must be defined where the macro is used.
 */
#ifndef TAP_TAPSET_KREAD_H
#define TAP_TAPSET_KREAD_H

/*
 * (long)ptr->field of a struct of type T at address p, or 0 and a script
 * error when it cannot be read.
 */
#define __TAP_KFIELD(c, T, p, field) ({					\
	typeof(((T *)0)->field) __tkf_v;				\
	tap_kread((c), &__tkf_v, &((T *)(unsigned long)(p))->field,	\
		  sizeof(__tkf_v)) ? (int64_t)(long)__tkf_v : 0; })

/* The address of ptr->field (no read). */
#define __TAP_KADDR(T, p, field)					\
	((int64_t)(unsigned long)&((T *)(unsigned long)(p))->field)

#endif /* TAP_TAPSET_KREAD_H */
