/*
 * uprobe_entry.c -- where the @entry values of a process(...).function(...)
 * .return probe wait for its return.  Included by probes_uprobe.c.
 *
 * A kretprobe carries per-call data; a uretprobe does not.  So the entry
 * half (probes_uprobe.c) saves the values into one table allocated when
 * the probes are armed, keyed by (thread, stack slot of the call's return
 * address, probe), and the return half takes them back by the same key.
 * The slot of the return address is what the kernel's own return
 * instance records (ri->stack): among a thread's live calls it is unique,
 * even in recursion, and the return half finds it again as the stack
 * pointer after `ret` minus one word.
 *
 * Takes: the probes' data_size.  Produces: slots the handlers own while
 * they fill or read them.  Must not: allocate, sleep or wait in a handler
 * (a full table skips the call's return and counts it, at the entry);
 * hand a return the values
 * of another call (a slot is rewritten or freed by every entry with its
 * key, and only read by the return with that key).
 *
 * A slot is FREE, BUSY (one handler owns it: only then do its key and
 * data change) or READY (saved, its return not seen yet).  A call that
 * never returns through its uretprobe (longjmp, the kernel's depth cap)
 * leaves a READY slot behind; an entry of the same thread at a higher
 * stack address reclaims it when no slot is free (that frame is gone).
 */

#ifndef TAP_UENTRY_SLOTS
#define TAP_UENTRY_SLOTS 1024	/* calls in flight, all threads */
#endif
#define TAP_UENTRY_WINDOW 16	/* slots looked at per key */

enum { TAP_UENTRY_FREE, TAP_UENTRY_BUSY, TAP_UENTRY_READY };

struct tap_uentry_slot {
	atomic_t state;
	pid_t tid;
	unsigned long stack;
	const struct tap_uprobe_probe *u;
};

static struct tap_uentry_slot *tap_uentry_slots;
static char *tap_uentry_data;
static size_t tap_uentry_size;		/* bytes of data per slot */

static char *
tap_uentry_data_of(const struct tap_uentry_slot *s)
{
	return tap_uentry_data + (size_t)(s - tap_uentry_slots) * tap_uentry_size;
}

static unsigned int
tap_uentry_hash(pid_t tid, unsigned long stack,
		const struct tap_uprobe_probe *u)
{
	return (unsigned int)(hash_long(stack ^ (unsigned long)u, 32) ^
			      hash_32((u32)tid, 32)) % TAP_UENTRY_SLOTS;
}

static bool
tap_uentry_is(const struct tap_uentry_slot *s, pid_t tid, unsigned long stack,
	      const struct tap_uprobe_probe *u)
{
	return READ_ONCE(s->tid) == tid && READ_ONCE(s->stack) == stack &&
	       READ_ONCE(s->u) == u;
}

/* Take slot s from state `from` to BUSY. */
static bool
tap_uentry_take(struct tap_uentry_slot *s, int from)
{
	return atomic_cmpxchg(&s->state, from, TAP_UENTRY_BUSY) == from;
}

static void
tap_uentry_release(struct tap_uentry_slot *s, int to)
{
	atomic_set_release(&s->state, to);
}

/* A READY slot with this key, now BUSY, or NULL. */
static struct tap_uentry_slot *
tap_uentry_find(pid_t tid, unsigned long stack,
		const struct tap_uprobe_probe *u)
{
	unsigned int h = tap_uentry_hash(tid, stack, u), i;
	struct tap_uentry_slot *s;

	for (i = 0; i < TAP_UENTRY_WINDOW; i++) {
		s = &tap_uentry_slots[(h + i) % TAP_UENTRY_SLOTS];
		if (atomic_read_acquire(&s->state) != TAP_UENTRY_READY ||
		    !tap_uentry_is(s, tid, stack, u) ||
		    !tap_uentry_take(s, TAP_UENTRY_READY))
			continue;
		if (tap_uentry_is(s, tid, stack, u))
			return s;
		tap_uentry_release(s, TAP_UENTRY_READY);	/* raced */
	}
	return NULL;
}

/* A slot for a new entry with this key, BUSY, or NULL when the table is
 * full around the key.  An older slot with the key is reused, so that no
 * stale values can be found for it later. */
static struct tap_uentry_slot *
tap_uentry_claim(pid_t tid, unsigned long stack,
		 const struct tap_uprobe_probe *u)
{
	unsigned int h = tap_uentry_hash(tid, stack, u), i;
	struct tap_uentry_slot *s = tap_uentry_find(tid, stack, u);

	for (i = 0; !s && i < TAP_UENTRY_WINDOW; i++) {
		s = &tap_uentry_slots[(h + i) % TAP_UENTRY_SLOTS];
		if (!tap_uentry_take(s, TAP_UENTRY_FREE))
			s = NULL;
	}
	/* none free: a call of this thread deeper than this one is over */
	for (i = 0; !s && i < TAP_UENTRY_WINDOW; i++) {
		s = &tap_uentry_slots[(h + i) % TAP_UENTRY_SLOTS];
		if (atomic_read(&s->state) != TAP_UENTRY_READY ||
		    READ_ONCE(s->tid) != tid || READ_ONCE(s->stack) >= stack ||
		    !tap_uentry_take(s, TAP_UENTRY_READY)) {
			s = NULL;
			continue;
		}
		if (s->tid != tid || s->stack >= stack) {	/* raced */
			tap_uentry_release(s, TAP_UENTRY_READY);
			s = NULL;
		}
	}
	if (!s)
		return NULL;
	WRITE_ONCE(s->tid, tid);
	WRITE_ONCE(s->stack, stack);
	WRITE_ONCE(s->u, u);
	return s;
}

/* At arm time: the table, if some probe saves @entry values. */
static int
tap_uentry_alloc(void)
{
	size_t i, size = 0;

	for (i = 0; i < tap_uprobe_tables.n_uprobes; i++)
		if (tap_uprobe_tables.uprobes[i].entry_handler)
			size = max(size, tap_uprobe_tables.uprobes[i].data_size);
	if (!size)
		return 0;
	tap_uentry_size = ALIGN(size, sizeof(u64));
	tap_uentry_slots = vzalloc(sizeof(*tap_uentry_slots) * TAP_UENTRY_SLOTS);
	tap_uentry_data = vzalloc(tap_uentry_size * TAP_UENTRY_SLOTS);
	if (!tap_uentry_slots || !tap_uentry_data) {
		vfree(tap_uentry_slots);
		vfree(tap_uentry_data);
		tap_uentry_slots = NULL;
		tap_uentry_data = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* After every handler has finished (the probes are unregistered). */
static void
tap_uentry_free(void)
{
	vfree(tap_uentry_slots);
	vfree(tap_uentry_data);
	tap_uentry_slots = NULL;
	tap_uentry_data = NULL;
}
