/*
 * pass_report.c -- -v's per-pass lines (pass_report.h).
 */
#include "translator/driver/pass_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long
tv_ms(struct timeval tv)
{
	return tv.tv_sec * 1000LL + tv.tv_usec / 1000;
}

void
pass_clock_start(struct pass_clock *c)
{
	struct rusage self, children;
	struct timespec now;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	clock_gettime(CLOCK_MONOTONIC, &now);
	c->usr_ms = tv_ms(self.ru_utime) + tv_ms(children.ru_utime);
	c->sys_ms = tv_ms(self.ru_stime) + tv_ms(children.ru_stime);
	c->real_ms = now.tv_sec * 1000LL + now.tv_nsec / 1000000;
}

/* "Vvirt/Rres/Sshr/Ddata kb" of this process; false if unknown. */
static bool
memory_kb(char *out, size_t size)
{
	unsigned long long virt, res, shr, text, lib, data;
	long page_kb = sysconf(_SC_PAGESIZE) / 1024;
	FILE *f = fopen("/proc/self/statm", "r");
	int n;

	if (!f)
		return false;
	n = fscanf(f, "%llu %llu %llu %llu %llu %llu", &virt, &res, &shr,
		   &text, &lib, &data);
	fclose(f);
	if (n != 6)
		return false;
	snprintf(out, size, "%lluvirt/%llures/%llushr/%lludata kb",
		 virt * page_kb, res * page_kb, shr * page_kb, data * page_kb);
	return true;
}

void
pass_report(struct session *s, int pass, const struct pass_clock *since,
	    bool with_memory, const char *fmt, ...)
{
	struct pass_clock now;
	char mem[160];
	va_list ap;

	if (!s->opts.verbose)
		return;
	pass_clock_start(&now);
	fprintf(stderr, "Pass %d: ", pass);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (with_memory && memory_kb(mem, sizeof(mem)))
		fprintf(stderr, " using %s,", mem);
	fprintf(stderr, " in %lldusr/%lldsys/%lldreal ms.\n",
		now.usr_ms - since->usr_ms, now.sys_ms - since->sys_ms,
		now.real_ms - since->real_ms);
}

void
pass_say(struct session *s, int pass, const char *fmt, ...)
{
	va_list ap;

	if (!s->opts.verbose)
		return;
	fprintf(stderr, "Pass %d: ", pass);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
