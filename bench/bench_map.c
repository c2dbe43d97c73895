/*
 * bench_map.c - throughput of the runtime core's hot paths in user space:
 * inserting into, looking up in and updating (`a[k]++`) associative arrays
 * with a long key and with a string key (the `a[execname()]++` idiom), and
 * `<<<` into a scalar aggregate and into an array of statistics.  Each
 * figure is the best of several runs (the machine may be busy), printed as
 * ns/op and Mops/s; nothing is asserted, so it runs anywhere.  Takes an
 * optional scale factor (default 1) as argv[1].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/core/map.h"
#include "runtime/core/stat.h"

#define KEYS 2000		/* fits the default MAXMAPENTRIES */
#define RUNS 5

struct bench {
	struct tap_map lmap;		/* long key, long value */
	struct tap_map smap;		/* string key, long value */
	struct tap_stat plain;		/* count/sum/min/max only */
	struct tap_stat full;		/* + variance and hist_log */
	struct tap_pmap pmap;		/* long key, stat with hist_log */
	struct tap_stat_desc plain_desc, full_desc;
	char names[KEYS][16];
	int64_t sink;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run `batch` (KEYS operations) `rounds` times, RUNS times over; report
 * the fastest run. */
static void
measure(const char *what, void (*batch)(struct bench *), struct bench *b,
	long rounds)
{
	double best = 0;
	long r;
	int run;

	for (run = 0; run < RUNS; run++) {
		double t = now();

		for (r = 0; r < rounds; r++)
			batch(b);
		t = now() - t;
		if (run == 0 || t < best)
			best = t;
	}
	printf("%-40s %8.1f ns/op %8.2f Mops/s\n", what,
	       best * 1e9 / (rounds * KEYS), rounds * KEYS / best / 1e6);
}

static void
insert_long(struct bench *b)
{
	long i;

	tap_map_clear(&b->lmap);
	for (i = 0; i < KEYS; i++)
		tap_map_set_long(&b->lmap, &TAP_LONG(i * 4099), i);
}

static void
lookup_long(struct bench *b)
{
	long i;

	for (i = 0; i < KEYS; i++)
		b->sink += tap_map_get_long(&b->lmap, &TAP_LONG(i * 4099));
}

static void
update_long(struct bench *b)
{
	long i;

	for (i = 0; i < KEYS; i++)
		tap_map_add_long(&b->lmap, &TAP_LONG(i * 4099), 1, NULL);
}

static void
insert_string(struct bench *b)
{
	long i;

	tap_map_clear(&b->smap);
	for (i = 0; i < KEYS; i++)
		tap_map_set_long(&b->smap, &TAP_STR(b->names[i]), i);
}

static void
lookup_string(struct bench *b)
{
	long i;

	for (i = 0; i < KEYS; i++)
		b->sink += tap_map_get_long(&b->smap, &TAP_STR(b->names[i]));
}

static void
update_string(struct bench *b)
{
	long i;

	for (i = 0; i < KEYS; i++)
		tap_map_add_long(&b->smap, &TAP_STR(b->names[i]), 1, NULL);
}

/* The common case: a few distinct names, hit over and over. */
static void
update_execname(struct bench *b)
{
	long i;

	for (i = 0; i < KEYS; i++)
		tap_map_add_long(&b->smap, &TAP_STR(b->names[i & 15]), 1,
				 NULL);
}

static void
stat_plain(struct bench *b)
{
	long i;

	for (i = 0; i < KEYS; i++)
		tap_stat_add(&b->plain, i);
}

static void
stat_full(struct bench *b)
{
	long i;

	for (i = 0; i < KEYS; i++)
		tap_stat_add(&b->full, i);
}

static void
pmap_add(struct bench *b)
{
	long i;

	for (i = 0; i < KEYS; i++)
		tap_pmap_add(&b->pmap, &TAP_LONG(i & 63), i);
}

static void
pmap_aggregate(struct bench *b)
{
	tap_pmap_aggregate(&b->pmap);
}

static void
setup(struct bench *b)
{
	struct tap_map_spec lspec = {
		.nkeys = 1, .keys = { TAP_T_LONG }, .value = TAP_T_LONG,
	};
	struct tap_map_spec sspec = {
		.nkeys = 1, .keys = { TAP_T_STRING }, .value = TAP_T_LONG,
	};
	struct tap_map_spec pspec = {
		.nkeys = 1, .keys = { TAP_T_LONG }, .value = TAP_T_STAT,
		.stat = &b->full_desc,
	};
	int i;

	/* Process-name-like keys: short, sharing prefixes. */
	for (i = 0; i < KEYS; i++)
		snprintf(b->names[i], 16, "kworker/%d:%d", i % 64, i);
	tap_stat_desc_init(&b->plain_desc, TAP_HIST_NONE, 0, 0, 0, false, 0);
	tap_stat_desc_init(&b->full_desc, TAP_HIST_LOG, 0, 0, 0, true, 0);
	if (tap_map_init(&b->lmap, &lspec) != TAP_OK ||
	    tap_map_init(&b->smap, &sspec) != TAP_OK ||
	    tap_stat_init(&b->plain, &b->plain_desc) != TAP_OK ||
	    tap_stat_init(&b->full, &b->full_desc) != TAP_OK ||
	    tap_pmap_init(&b->pmap, &pspec) != TAP_OK) {
		fprintf(stderr, "bench_map: cannot create the maps\n");
		exit(1);
	}
}

static void
teardown(struct bench *b)
{
	tap_map_free(&b->lmap);
	tap_map_free(&b->smap);
	tap_stat_free(&b->plain);
	tap_stat_free(&b->full);
	tap_pmap_free(&b->pmap);
}

int
main(int argc, char **argv)
{
	static struct bench b;
	long scale = argc > 1 ? atol(argv[1]) : 1;
	long rounds = 200 * (scale > 0 ? scale : 1);

	setup(&b);
	printf("bench_map: %d keys x %ld rounds, best of %d, "
	       "MAXSTRINGLEN %d\n", KEYS, rounds, RUNS, MAXSTRINGLEN);
	measure("insert a[long] = v (after delete a)", insert_long, &b,
		rounds);
	measure("lookup a[long]", lookup_long, &b, rounds);
	measure("update a[long]++", update_long, &b, rounds);
	measure("insert a[string] = v (after delete a)", insert_string, &b,
		rounds);
	measure("lookup a[string]", lookup_string, &b, rounds);
	measure("update a[string]++", update_string, &b, rounds);
	measure("update a[execname()]++ (16 names)", update_execname, &b,
		rounds);
	measure("s <<< v (count/sum/min/max)", stat_plain, &b, rounds);
	measure("s <<< v (+variance, hist_log)", stat_full, &b, rounds);
	measure("a[k] <<< v (64 keys, hist_log)", pmap_add, &b, rounds);
	printf("%-40s ", "aggregate a 64-key stat array");
	{
		double t = now();
		int i;

		for (i = 0; i < 100; i++)
			pmap_aggregate(&b);
		printf("%8.1f us/op\n", (now() - t) * 1e6 / 100);
	}
	if (b.sink == 42)
		printf("\n");
	teardown(&b);
	return 0;
}
