/*
 * counter.h -- per-CPU counters: the storage of a script global that
 * probes only count (`n++`, `n += x` as statements) and that the rest of
 * the script only reads, or writes where no other handler runs.
 *
 * Takes: a counter's base (the global's ordinary int64_t, which -G,
 * initializers and begin/end writes set) and its per-CPU deltas (a
 * DEFINE_PER_CPU variable, TAP_COUNTER_DEFINE).  Produces: the value,
 * base + the sum of every CPU's delta.  Which globals qualify, and why
 * that is safe, is translator/codegen/codegen_counters.c's concern.
 *
 * Why: a count into this CPU's delta is one instruction (`add` through
 * %gs on x86) and takes no lock, where an ordinary global takes its
 * exclusive lock: two handlers on two CPUs counting the same global never
 * wait for each other or share a cache line.  bpftrace's count() and
 * SystemTap's aggregates work the same way.
 *
 * A store never zeroes the deltas (a count racing it on another CPU would
 * be lost): it sets the base to the new value minus their sum, so that
 * the value reads as stored, and a count that lands during the store
 * reads as one that came after it.
 * Must not: be counted with preemption on (handlers run with it off).
 */
#ifndef TAP_LINUX_COUNTER_H
#define TAP_LINUX_COUNTER_H

#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/types.h>

#define TAP_COUNTER_DEFINE(name)	static DEFINE_PER_CPU(int64_t, name)
#define TAP_COUNTER_ADD(name, v)	this_cpu_add(name, (int64_t)(v))
#define TAP_COUNTER_READ(base, name)	tap_counter_read(&(base), &(name))
#define TAP_COUNTER_STORE(base, name, v) \
	tap_counter_store(&(base), &(name), (v))

static inline int64_t
tap_counter_deltas(const int64_t __percpu *cpu)
{
	u64 sum = 0;
	unsigned int i;

	for_each_possible_cpu(i)
		sum += (u64)READ_ONCE(*per_cpu_ptr(cpu, i));
	return (int64_t)sum;
}

static inline int64_t
tap_counter_read(const int64_t *base, const int64_t __percpu *cpu)
{
	return (int64_t)((u64)READ_ONCE(*base) + (u64)tap_counter_deltas(cpu));
}

static inline int64_t
tap_counter_store(int64_t *base, const int64_t __percpu *cpu, int64_t v)
{
	WRITE_ONCE(*base, (int64_t)((u64)v - (u64)tap_counter_deltas(cpu)));
	return v;
}

#endif /* TAP_LINUX_COUNTER_H */
