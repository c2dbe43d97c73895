/*
 * shapes.c -- the probe points the providers answer, written as shapes:
 * "kernel.function(STRING).return", "timer.ms(NUMBER)".
 *
 * A wildcard in a component's name ("kerne*", "t**ile", a trailing ".*")
 * can only be expanded against names that are known, so this is the
 * vocabulary: elaboration (point_glob.c) builds its tree of component names
 * from these shapes and the probe aliases. STRING and NUMBER stand for a
 * component's argument, which the user's point supplies. A shape here
 * only makes a name findable; whether the point works is still the
 * provider's answer (e.g. kernel.function(...).inline needs DWARF).
 *
 * --dump-probe-types lists these. Keep them in step with the providers'
 * parsers when a family grows; unsupported.c's families are not here.
 */
#include <stddef.h>

#include "translator/providers/shapes.h"

static const char *const fixed_shapes[] = {
	/* begin_end.c */
	"begin", "begin(NUMBER)", "end", "end(NUMBER)",
	"error", "error(NUMBER)", "never",
	/* timer.c */
	"timer.s(NUMBER)", "timer.s(NUMBER).randomize(NUMBER)",
	"timer.ms(NUMBER)", "timer.ms(NUMBER).randomize(NUMBER)",
	"timer.us(NUMBER)", "timer.us(NUMBER).randomize(NUMBER)",
	"timer.ns(NUMBER)", "timer.ns(NUMBER).randomize(NUMBER)",
	"timer.hz(NUMBER)",
	"timer.jiffies(NUMBER)", "timer.jiffies(NUMBER).randomize(NUMBER)",
	"timer.profile", "timer.profile.tick",
	/* tracepoint.c, syscall.c */
	"kernel.trace(STRING)",
	"kernel.syscall(STRING)", "kernel.syscall(STRING).return",
	/* kprobe.c */
	"kprobe.function(STRING)", "kprobe.function(STRING).return",
	"kprobe.function(STRING).return.maxactive(NUMBER)",
	"kprobe.module(STRING).function(STRING)",
	"kprobe.module(STRING).function(STRING).return",
	"kprobe.statement(NUMBER).absolute",
	NULL,
};

/* procfs.c: procfs and procfs("PATH"), each with an optional .umask(N) */
static const char *const procfs_heads[] = {
	"procfs", "procfs(STRING)", "procfs.umask(NUMBER)",
	"procfs(STRING).umask(NUMBER)", NULL,
};
static const char *const procfs_tails[] = {
	"read", "read.maxsize(NUMBER)", "write", NULL,
};

/* dwarf.c and kfunc.c: kernel.function(...) and module(...).function(...) */
static const char *const function_heads[] = {
	"kernel", "module(STRING)", NULL,
};
static const char *const function_tails[] = {
	"function(STRING)", "function(STRING).call",
	"function(STRING).return", "function(STRING).inline",
	"function(STRING).exported", "statement(STRING)", NULL,
};

/* process.c: process, process("PATH") and process(PID) */
static const char *const process_heads[] = {
	"process", "process(STRING)", "process(NUMBER)", NULL,
};
static const char *const process_tails[] = {
	"begin", "end", "thread.begin", "thread.end",
	"syscall", "syscall.return",
	"function(STRING)", "function(STRING).call", "function(STRING).return",
	"library(STRING).function(STRING)",
	"library(STRING).function(STRING).call",
	"library(STRING).function(STRING).return",
	"plt", "plt.return", "plt(STRING)", "plt(STRING).return",
	"statement(STRING)", "statement(NUMBER)", "statement(NUMBER).absolute",
	"mark(STRING)", "provider(STRING).mark(STRING)",
	NULL,
};

static void
each_product(const char *const *heads, const char *const *tails,
	     void (*fn)(const char *head, const char *tail, void *ctx),
	     void *ctx)
{
	for (int h = 0; heads[h]; h++)
		for (int t = 0; tails[t]; t++)
			fn(heads[h], tails[t], ctx);
}

void
provider_shapes_each(void (*fn)(const char *head, const char *tail,
				void *ctx), void *ctx)
{
	for (int i = 0; fixed_shapes[i]; i++)
		fn(fixed_shapes[i], NULL, ctx);
	each_product(function_heads, function_tails, fn, ctx);
	each_product(process_heads, process_tails, fn, ctx);
	each_product(procfs_heads, procfs_tails, fn, ctx);
}
