/*
 * compat.h -- the only place kernel API differences live.  Each wrapper
 * picks an API by a TAPCONF_* macro from tapconf.h, which tapconf.sh writes
 * after compile-testing the target kernel's headers (the files in compat/tests/).
 * Must not: test LINUX_VERSION_CODE.
 */
#ifndef TAP_LINUX_COMPAT_H
#define TAP_LINUX_COMPAT_H

#include <linux/timer.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include "tapconf.h"

#ifdef TAPCONF_RELAY_CONST_CALLBACKS
#define TAP_RELAY_CB_CONST	const
#else
#define TAP_RELAY_CB_CONST
#endif

static inline void
tap_timer_delete_sync(struct timer_list *t)
{
#ifdef TAPCONF_TIMER_DELETE_SYNC
	timer_delete_sync(t);
#else
	del_timer_sync(t);
#endif
}

/* Handlers must run in hard irq context, also on PREEMPT_RT. */
#ifdef TAPCONF_HRTIMER_MODE_HARD
#define TAP_HRTIMER_MODE	HRTIMER_MODE_REL_HARD
#define TAP_HRTIMER_MODE_PINNED	HRTIMER_MODE_REL_PINNED_HARD
#else
#define TAP_HRTIMER_MODE	HRTIMER_MODE_REL
#define TAP_HRTIMER_MODE_PINNED	HRTIMER_MODE_REL_PINNED
#endif

static inline void
tap_hrtimer_init(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *),
		 enum hrtimer_mode mode)
{
#ifdef TAPCONF_HRTIMER_SETUP
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, mode);
#else
	hrtimer_init(t, CLOCK_MONOTONIC, mode);
	t->function = fn;
#endif
}

static inline struct kretprobe *
tap_get_kretprobe(struct kretprobe_instance *ri)
{
#ifdef TAPCONF_GET_KRETPROBE
	return get_kretprobe(ri);
#else
	return ri->rp;
#endif
}

#ifdef TAPCONF_COPY_NOFAULT
#define tap_copy_from_kernel_nofault	copy_from_kernel_nofault
#define tap_copy_from_user_nofault	copy_from_user_nofault
#define tap_copy_to_user_nofault	copy_to_user_nofault
#else
#define tap_copy_from_kernel_nofault	probe_kernel_read
#define tap_copy_from_user_nofault	probe_user_read
#define tap_copy_to_user_nofault	probe_user_write
#endif

/* A proc entry's private data: pde_data(), PDE_DATA() before it. */
#ifdef TAPCONF_PDE_DATA
#define tap_pde_data(inode)	pde_data(inode)
#else
#define tap_pde_data(inode)	PDE_DATA(inode)
#endif

/* What a dir_context actor (iterate_dir) returns to go on. */
#ifdef TAPCONF_FILLDIR_BOOL
#define TAP_FILLDIR_RET		bool
#define TAP_FILLDIR_CONTINUE	true
#else
#define TAP_FILLDIR_RET		int
#define TAP_FILLDIR_CONTINUE	0
#endif

/* A loaded module's code and data sizes in bytes: mem[MOD_*] since 6.4,
 * core_layout before. */
static inline unsigned long
tap_module_text_size(const struct module *m)
{
#ifdef TAPCONF_MODULE_MEM
	return m->mem[MOD_TEXT].size;
#else
	return m->core_layout.text_size;
#endif
}

static inline unsigned long
tap_module_data_size(const struct module *m)
{
#ifdef TAPCONF_MODULE_MEM
	return m->mem[MOD_DATA].size + m->mem[MOD_RODATA].size +
	       m->mem[MOD_RO_AFTER_INIT].size;
#else
	return m->core_layout.size - m->core_layout.text_size;
#endif
}

#endif /* TAP_LINUX_COMPAT_H */
