/*
 * user_bpf.c - the user-space half of a --runtime=bpf program: loads the
 * BPF object embedded in it with libbpf, attaches its programs, reads
 * the ring buffer on a thread of its own (print records formatted with
 * runtime/core's formatter, exit() and error records), and copies the
 * BPF maps into the runtime/user globals before timer and end probes
 * read them.
 *
 * Included at the end of the generated user program, which declares
 * before it tap_bpf_object[] to tap_bpf_object_end[] (the BPF ELF, linked
 * in from its own file by translator/build) and defines the print and
 * error tables, tap_bpf_maps[] (each global a BPF map holds) and
 * struct tap_globals with tap_bpf_push_scalars() / tap_bpf_pull_scalars().
 * runtime/user/main.c calls the hooks (runtime.h, under TAP_BPF).
 * Must not: run a script handler on the reader thread (it only formats
 * records and requests the exit).
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <pthread.h>
#include <stdarg.h>

#include "tap_bpf_abi.h"

static struct bpf_object *tap_bpf_obj;
static struct bpf_link **tap_bpf_links;
static size_t tap_bpf_nlinks;
static struct ring_buffer *tap_bpf_rb;
static pthread_t tap_bpf_reader;
static volatile int tap_bpf_reader_stop;
static bool tap_bpf_reader_started;
static pthread_t tap_bpf_main_thread;
static int tap_bpf_ncpus;
static int tap_bpf_verbose;

static struct tap_fmt tap_bpf_fmts[TAP_BPF_NPRINTS + 1];

/* The program libbpf last said it could not load ("prog 'probe_3': ..."),
 * for tap_bpf_start()'s message. */
static char tap_bpf_failed_prog[64];

static int
tap_bpf_libbpf_log(enum libbpf_print_level level, const char *fmt,
		   va_list ap)
{
	char line[512];
	const char *p;
	va_list copy;

	va_copy(copy, ap);
	vsnprintf(line, sizeof(line), fmt, copy);
	va_end(copy);
	if (level != LIBBPF_DEBUG && (p = strstr(line, "prog 'probe_"))) {
		p += strlen("prog '");
		snprintf(tap_bpf_failed_prog, sizeof(tap_bpf_failed_prog),
			 "%.*s", (int)strcspn(p, "'"), p);
	}
	if (level == LIBBPF_DEBUG && tap_bpf_verbose < 2)
		return 0;
	if (!tap_bpf_verbose)
		return 0;
	/* not `line`: the verifier's log comes as one string of any size */
	return vfprintf(stderr, fmt, ap);
}

/* The script's probe behind a BPF program's name. */
static int
tap_bpf_probe_of(const char *prog)
{
	size_t len = strlen(prog);
	int i;

	/* a raw tracepoint's tp_btf and classic twins (probe_N_btf,
	 * probe_N_tp) and a kprobe's fentry twin (probe_N_fe) are the
	 * same probe */
	if (len > 4 && strcmp(prog + len - 4, "_btf") == 0)
		len -= 4;
	else if (len > 3 && strcmp(prog + len - 3, "_fe") == 0)
		len -= 3;
	else if (len > 3 && strcmp(prog + len - 3, "_tp") == 0)
		len -= 3;
	for (i = 0; tap_bpf_probe_names[i].prog; i++)
		if (strlen(tap_bpf_probe_names[i].prog) == len &&
		    strncmp(tap_bpf_probe_names[i].prog, prog, len) == 0)
			return i;
	return -1;
}

/* Tracepoint probes to load as classic tracepoints (by their index in
 * tap_bpf_probe_names): their raw form failed to load or attach. */
static bool tap_bpf_classic[sizeof(tap_bpf_probe_names) /
			    sizeof(tap_bpf_probe_names[0])];

static struct bpf_program *
tap_bpf_twin(const char *name, const char *suffix)
{
	char twin[64];

	snprintf(twin, sizeof(twin), "%s%s", name, suffix);
	return bpf_object__find_program_by_name(tap_bpf_obj, twin);
}

/* kernel.trace (and syscall probes): each raw tracepoint program
 * probe_N has a tp_btf twin probe_N_btf on the same argument array and,
 * where the handler reads nothing the event's format record lacks, a
 * classic tracepoint twin probe_N_tp on that record.  tp_btf needs the
 * kernel's BTF to describe the tracepoint (the typedef btf_trace_NAME)
 * and gives the verifier the arguments' types; where the kernel has BTF
 * the tp_btf twin is loaded, else the raw tracepoint, else
 * (tap_bpf_classic, set when the raw one failed) the classic one --
 * decided here, on the running kernel.  Whether the BTF describes this
 * tracepoint is left to libbpf's load, which reads the BTF anyway: a
 * load refused for want of btf_trace_NAME is retried with raw
 * tracepoints (tap_bpf_open_and_load).  Reading the 5 MB here as well
 * cost 10-20 ms of every start (sysfs gives it 4 KiB per read()).
 * TAPC_BPF_TRACEPOINT=raw (or `force_raw`) forces raw tracepoints,
 * TAPC_BPF_TRACEPOINT=classic classic ones;
 * TAPC_BPF_VERBOSE=1 reports each choice.  1 when some tp_btf program
 * was chosen, 0 if not, -1 when a probe that must be a classic
 * tracepoint has no such form (reported, naming the probe and why). */
/* Classic tracepoints are found through tracefs (libbpf reads their ids
 * from events/CAT/NAME/id).  Where init mounted none (minimal VMs,
 * containers), it is mounted where the kernel provides for it, as perf
 * does; a failure is said here, before the attach error it causes. */
static void
tap_bpf_tracefs_ready(void)
{
	static bool tried;

	if (tried)
		return;
	tried = true;
	if (access("/sys/kernel/tracing/events", F_OK) == 0 ||
	    access("/sys/kernel/debug/tracing/events", F_OK) == 0)
		return;
	if (mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0) {
		if (tap_bpf_verbose)
			fprintf(stderr, "BPF: mounted tracefs on /sys/kernel/tracing for the classic tracepoints\n");
	} else {
		fprintf(stderr, "BPF: tracefs is not mounted, and mounting it on /sys/kernel/tracing failed (%s): classic tracepoints cannot attach\n",
			strerror(errno));
	}
}

static int
tap_bpf_choose_tracepoints(bool force_raw)
{
	const char *force = getenv("TAPC_BPF_TRACEPOINT");
	bool all_raw = force_raw || (force && strcmp(force, "raw") == 0);
	bool all_classic = force && strcmp(force, "classic") == 0;
	bool have_btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	struct bpf_program *prog;
	int any_btf = 0, err = 0;

	bpf_object__for_each_program(prog, tap_bpf_obj) {
		const char *sec = bpf_program__section_name(prog);
		const char *name = bpf_program__name(prog);
		struct bpf_program *btf = tap_bpf_twin(name, "_btf");
		struct bpf_program *tp = tap_bpf_twin(name, "_tp");
		struct bpf_program *chosen = prog;
		int k = tap_bpf_probe_of(name);

		if (strncmp(sec, "raw_tp/", 7) != 0 || k < 0)
			continue;
		if (all_classic || tap_bpf_classic[k]) {
			if (!tp) {
				fprintf(stderr, "ERROR: BPF: probe %s at %s cannot attach as a classic tracepoint: %s; use the kernel-module backend (--runtime=kernel)\n",
					tap_bpf_probe_names[k].probe,
					tap_bpf_probe_names[k].where,
					tap_bpf_probe_names[k].classic_why ?
					tap_bpf_probe_names[k].classic_why : "it has no such form");
				err = -1;
				continue;
			}
			chosen = tp;
			tap_bpf_tracefs_ready();
		} else if (btf && have_btf && !all_raw) {
			chosen = btf;
			any_btf = 1;
		}
		bpf_program__set_autoload(prog, chosen == prog);
		if (btf)
			bpf_program__set_autoload(btf, chosen == btf);
		if (tp)
			bpf_program__set_autoload(tp, chosen == tp);
		if (tap_bpf_verbose)
			fprintf(stderr, "BPF: %s attaches as %s\n", name,
				bpf_program__section_name(chosen));
	}
	return err ? err : any_btf;
}

static int
tap_bpf_map_fd(const char *name)
{
	struct bpf_map *m = bpf_object__find_map_by_name(tap_bpf_obj, name);

	return m ? bpf_map__fd(m) : -1;
}

/* ---- output ---- */

static pthread_mutex_t tap_bpf_out_lock = PTHREAD_MUTEX_INITIALIZER;

/* A record's text, buffered: the reader flushes once it has drained
 * the ring buffer (tap_bpf_flush), not once a line -- a write() per
 * printf made the reader slower than one CPU's stat() loop, and
 * records were lost. */
static void
tap_bpf_write(const char *data, size_t len)
{
	pthread_mutex_lock(&tap_bpf_out_lock);
	fwrite(data, 1, len, tap_out_file);
	pthread_mutex_unlock(&tap_bpf_out_lock);
}

static void
tap_bpf_flush(void)
{
	pthread_mutex_lock(&tap_bpf_out_lock);
	fflush(tap_out_file);
	pthread_mutex_unlock(&tap_bpf_out_lock);
}

/* One print record: its arguments decoded, then printf's or print's
 * rendering, exactly as the user target renders the same call. */
static void
tap_bpf_print(const struct tap_bpf_print_site *site, const char *rec,
	      size_t size)
{
	static char quoted[TAP_BPF_MAX_ARGS][MAXSTRINGLEN];
	static char storage[TAP_OUTBUF_SIZE];
	struct tap_value args[TAP_BPF_MAX_ARGS];
	enum tap_type types[TAP_BPF_MAX_ARGS];
	size_t off = sizeof(struct tap_bpf_rec_hdr);
	struct tap_buf out;
	unsigned int i;

	for (i = 0; i < site->nargs; i++) {
		char kind = site->kinds[i];

		if (kind == 'L') {
			int64_t v;

			if (off + 8 > size)
				return;
			memcpy(&v, rec + off, 8);
			args[i] = TAP_LONG(v);
			types[i] = TAP_T_LONG;
			off += 8;
		} else if (kind == 'S') {
			if (off + TAP_BPF_STRLEN > size)
				return;
			args[i] = TAP_STR(rec + off);
			types[i] = TAP_T_STRING;
			off += TAP_BPF_STRLEN;
		} else {
			struct tap_bpf_qstr q;

			if (off + sizeof(q) > size)
				return;
			memcpy(&q, rec + off, sizeof(q));
			q.s[TAP_BPF_STRLEN - 1] = '\0';
			if (q.state == TAP_BPF_QSTR_NULL)
				snprintf(quoted[i], MAXSTRINGLEN, "NULL");
			else if (q.state == TAP_BPF_QSTR_UNREADABLE)
				snprintf(quoted[i], MAXSTRINGLEN, "0x%llx", q.addr);
			else
				tap_str_quoted(quoted[i], q.s);
			args[i] = TAP_STR(quoted[i]);
			types[i] = TAP_T_STRING;
			off += sizeof(q);
		}
	}
	tap_buf_init(&out, storage, sizeof(storage));
	if (site->fmt)
		tap_fmt_apply(&tap_bpf_fmts[site - tap_bpf_prints], args,
			      site->nargs, &out, NULL);
	else
		tap_print_values(&out, args, types, site->nargs, NULL,
				 site->newline);
	tap_bpf_write(out.data, out.len);
}

static void
tap_bpf_stop_main(void)
{
	tap_request_exit();
	/* wake the main loop's sigtimedwait() */
	pthread_kill(tap_bpf_main_thread, SIGTERM);
}

static int
tap_bpf_record(void *priv, void *data, size_t size)
{
	const struct tap_bpf_rec_hdr *h = data;

	(void)priv;
	if (size < sizeof(*h))
		return 0;
	switch (h->type) {
	case TAP_BPF_REC_PRINT:
		if (h->id < TAP_BPF_NPRINTS)
			tap_bpf_print(&tap_bpf_prints[h->id], data, size);
		break;
	case TAP_BPF_REC_EXIT:
		tap_bpf_stop_main();
		break;
	case TAP_BPF_REC_ERROR:
		if (h->id < TAP_BPF_NERRORS) {
			char msg[256];
			unsigned long long addr = 0;

			if (size >= sizeof(struct tap_bpf_rec_error))
				addr = ((const struct tap_bpf_rec_error *)data)->addr;
			/* the one conversion of an address message is %llx */
			if (tap_bpf_errors[h->id].has_addr)
				snprintf(msg, sizeof(msg), tap_bpf_errors[h->id].msg, addr);
			else
				snprintf(msg, sizeof(msg), "%s", tap_bpf_errors[h->id].msg);
			pthread_mutex_lock(&tap_bpf_out_lock);
			fflush(tap_out_file);
			if (tap_bpf_errors[h->id].near)
				fprintf(stderr, "ERROR: %s near %s\n", msg,
					tap_bpf_errors[h->id].near);
			else
				fprintf(stderr, "ERROR: %s\n", msg);
			pthread_mutex_unlock(&tap_bpf_out_lock);
		}
		tap_error_count++;
		if (tap_error_count > TAP_MAXERRORS) {
			tap_session_state = TAP_SESSION_ERROR;
			tap_bpf_stop_main();
		}
		break;
	}
	return 0;
}

static void *
tap_bpf_read_loop(void *arg)
{
	(void)arg;
	while (!tap_bpf_reader_stop) {
		/* print records seldom wake us (tap_print_wakeup): drain
		 * the ring after each wait, woken or not */
		int n = ring_buffer__poll(tap_bpf_rb, TAP_BPF_READ_MS);

		if (n == 0)
			n = ring_buffer__consume(tap_bpf_rb);
		if (n > 0)
			tap_bpf_flush();
		else if (n < 0 && errno != EINTR)
			break;
	}
	return NULL;
}

/* ---- maps <-> globals ---- */

static struct tap_bpf_session
tap_bpf_session_read(void)
{
	struct tap_bpf_session ss;
	uint32_t zero = 0;

	memset(&ss, 0, sizeof(ss));
	bpf_map_lookup_elem(tap_bpf_map_fd("tap_session"), &zero, &ss);
	return ss;
}

/* CPU i's accumulator (`size` bytes each, its Welford state at byte
 * `welford`) as runtime/core's data (no buckets). */
static void
tap_bpf_var_part(const char *cpus, size_t size, size_t welford, int i,
		 struct tap_stat_data *part)
{
	const char *c = cpus + (size_t)i * size;
	const struct tap_bpf_stat *st = (const void *)c;
	const struct tap_bpf_welford *w = (const void *)(c + welford);

	memset(part, 0, sizeof(*part));
	part->count = st->count;
	part->sum = st->sum;
	part->min = st->min;
	part->max = st->max;
	part->avg_s = w->avg_s;
	part->variance_s = w->variance_s;
}

/* Every CPU's Welford state merged into sd as runtime/core merges its
 * per-CPU slots, so that @variance is what the module backend gives: a
 * scalar's around the overall mean, an array element's CPU after CPU
 * (`pairwise`; stat.h says why they differ).  sd then holds the merged
 * mean and variance, which runtime/core's merge of sd alone keeps as
 * they are. */
static void
tap_bpf_merge_variance(struct tap_stat_data *sd,
		       const struct tap_stat_desc *d, const char *cpus,
		       size_t size, size_t welford, bool pairwise)
{
	struct tap_stat_desc plain = *d;	/* no buckets in agg, part */
	struct tap_stat_data agg, part;
	struct tap_stat_pair acc;
	int i;

	plain.hist = TAP_HIST_NONE;
	plain.buckets = 0;
	d = &plain;
	if (pairwise) {
		memset(&acc, 0, sizeof(acc));
		for (i = 0; i < tap_bpf_ncpus; i++) {
			tap_bpf_var_part(cpus, size, welford, i, &part);
			__tap_stat_pair_step(d, &acc, &part);
		}
		__tap_stat_pair_finish(d, &acc, sd);
		return;
	}
	memset(&agg, 0, sizeof(agg));
	for (i = 0; i < tap_bpf_ncpus; i++) {
		tap_bpf_var_part(cpus, size, welford, i, &part);
		__tap_stat_merge_sums(d, &agg, &part);
	}
	__tap_stat_merge_mean(d, &agg);
	for (i = 0; i < tap_bpf_ncpus; i++) {
		tap_bpf_var_part(cpus, size, welford, i, &part);
		__tap_stat_merge_spread(&agg, &part);
	}
	__tap_stat_merge_end(d, &agg);
	sd->avg_s = agg.avg_s;
	sd->variance_s = agg.variance_s;
	sd->m2 = agg.m2;
}

/* Where an accumulator of `size` bytes keeps its Welford state, or 0
 * (none): right after count, sum, min and max ('V'), or after the
 * buckets, at its end ('h', 'n'). */
static size_t
tap_bpf_welford_at(const struct tap_bpf_map_desc *d, size_t size)
{
	if (d->value_kind == 'V')
		return sizeof(struct tap_bpf_stat);
	if (d->value_kind == 'h' || d->value_kind == 'n')
		return size - sizeof(struct tap_bpf_welford);
	return 0;
}

/* Every CPU's accumulator (size bytes each: struct tap_bpf_stat, then
 * the buckets of @hist_log (128) or @hist_linear (as the global's
 * descriptor counts them) if any, then the Welford state at byte
 * `welford` if any) added into sd; buckets only when the descriptor has
 * them. */
static void
tap_bpf_merge_stat(struct tap_stat_data *sd, const struct tap_stat_desc *d,
		   const char *cpus, size_t size, size_t welford, bool pairwise)
{
	size_t nbuckets = ((welford > sizeof(struct tap_bpf_stat) ? welford : size) -
			   sizeof(struct tap_bpf_stat)) / 8;
	int i, k;

	for (i = 0; i < tap_bpf_ncpus; i++) {
		const struct tap_bpf_stat_log *c =
			(const void *)(cpus + (size_t)i * size);

		if (!c->count)
			continue;
		if (!sd->count || c->min < sd->min)
			sd->min = c->min;
		if (!sd->count || c->max > sd->max)
			sd->max = c->max;
		sd->count += c->count;
		sd->sum += c->sum;
		if (d->hist != TAP_HIST_NONE)
			for (k = 0; k < d->buckets && (size_t)k < nbuckets; k++)
				sd->hist[k] += c->hist[k];
	}
	if (d->variance && welford)
		tap_bpf_merge_variance(sd, d, cpus, size, welford, pairwise);
}

static void
tap_bpf_decode_keys(const struct tap_bpf_map_desc *d, const char *key,
		    struct tap_value *keys)
{
	size_t off = 0;
	unsigned int i;

	for (i = 0; d->key_kinds[i]; i++) {
		if (d->key_kinds[i] == 'L') {
			int64_t v;

			memcpy(&v, key + off, 8);
			keys[i] = TAP_LONG(v);
			off += 8;
		} else {
			keys[i] = TAP_STR(key + off);
			off += TAP_BPF_STRLEN;
		}
	}
}

/* The bytes of one CPU's accumulator in a statistic's map: 'T' plain,
 * 'H' with @hist_log's buckets, 'N' with @hist_linear's (bpf_emit.c
 * sizes them as the global's descriptor does), 'V' with @variance's
 * state, 'h' and 'n' with the buckets and then that state. */
static size_t
tap_bpf_stat_size(const struct tap_bpf_map_desc *d)
{
	const struct tap_stat_desc *sd;

	if (d->value_kind == 'H')
		return sizeof(struct tap_bpf_stat_log);
	if (d->value_kind == 'h')
		return sizeof(struct tap_bpf_stat_log) + sizeof(struct tap_bpf_welford);
	if (d->value_kind == 'V')
		return sizeof(struct tap_bpf_stat_var);
	if (d->value_kind != 'N' && d->value_kind != 'n')
		return sizeof(struct tap_bpf_stat);
	sd = !d->key_kinds[0] ? &((struct tap_stat *)d->global)->desc
			      : &((struct tap_pmap *)d->global)->cpu[0].stat_desc;
	return sizeof(struct tap_bpf_stat) + 8 * (size_t)sd->buckets +
	       (d->value_kind == 'n' ? sizeof(struct tap_bpf_welford) : 0);
}

/* One BPF map's entries into its global (cleared first). */
static void
tap_bpf_pull_map(const struct tap_bpf_map_desc *d)
{
	int fd = tap_bpf_map_fd(d->map);
	size_t one = tap_bpf_stat_size(d);
	bool stat = d->value_kind && strchr("THNVhn", d->value_kind);
	size_t vsize = stat ? one * (size_t)tap_bpf_ncpus
		: d->value_kind == 'S' ? TAP_BPF_STRLEN : 8;
	char *key = calloc(1, d->key_size + 1), *next = calloc(1, d->key_size + 1);
	char *val = calloc(1, vsize + 1);
	struct tap_value keys[TAP_MAP_MAX_KEYS];
	uint32_t zero = 0;
	bool first = true;

	if (fd < 0 || !key || !next || !val)
		goto out;
	if (!d->key_kinds[0]) {		/* a scalar of statistics */
		struct tap_stat *st = d->global;
		struct tap_stat_data *sd = (struct tap_stat_data *)st->slots;

		tap_stat_clear(st);
		if (bpf_map_lookup_elem(fd, &zero, val) == 0)
			tap_bpf_merge_stat(sd, &st->desc, val, one,
					   tap_bpf_welford_at(d, one), false);
		goto out;
	}
	if (stat)
		tap_pmap_clear(d->global);
	else
		tap_map_clear(d->global);
	while (bpf_map_get_next_key(fd, first ? NULL : key, next) == 0) {
		first = false;
		memcpy(key, next, d->key_size);
		if (bpf_map_lookup_elem(fd, key, val))
			continue;
		tap_bpf_decode_keys(d, key, keys);
		if (d->value_kind == 'L') {
			int64_t v;

			memcpy(&v, val, 8);
			tap_map_set_long(d->global, keys, v);
		} else if (d->value_kind == 'S') {
			val[TAP_BPF_STRLEN - 1] = '\0';
			tap_map_set_str(d->global, keys, val);
		} else {
			struct tap_pmap *p = d->global;
			struct tap_map_entry *e;

			if (tap_map_find_or_insert(&p->cpu[0], keys, &e) == 0)
				tap_bpf_merge_stat(tap_map_value_stat(&p->cpu[0], e),
						   &p->cpu[0].stat_desc, val, one,
						   tap_bpf_welford_at(d, one), true);
		}
	}
out:
	free(key);
	free(next);
	free(val);
}

static void
tap_bpf_pull(void)
{
	struct tap_globals g;
	uint32_t zero = 0;
	size_t i;

	if (!tap_bpf_obj)
		return;
	memset(&g, 0, sizeof(g));
	if (bpf_map_lookup_elem(tap_bpf_map_fd("tap_gl"), &zero, &g) == 0)
		tap_bpf_pull_scalars(&g);
	for (i = 0; i < TAP_BPF_NMAPS; i++)
		tap_bpf_pull_map(&tap_bpf_maps[i]);
}

/* ---- perf events (timer.profile, timer.hz) ---- */

/* A cpu-clock sampling event of `period_ns` on `cpu`, every task: the
 * kernel's hrtimer on that CPU, which fires whether the CPU is busy or
 * idle.  The fd, or -1 with errno set. */
static int
tap_bpf_perf_open(int cpu, unsigned long long period_ns)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = period_ns;
	return (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Attach the perf event program `prog` of probe row `k`: one event per
 * online CPU (offline ones refuse with ENODEV and are skipped), or on
 * the first online CPU only.  0, or -1 with errno set (no CPU took it). */
static int
tap_bpf_attach_perf(struct bpf_program *prog, int k)
{
	int cpu, attached = 0, err = ENODEV;

	for (cpu = 0; cpu < tap_bpf_ncpus; cpu++) {
		int fd = tap_bpf_perf_open(cpu, tap_bpf_probe_names[k].perf_period_ns);
		struct bpf_link *l;

		if (fd < 0) {
			if (errno == ENODEV)
				continue;
			return -1;
		}
		l = bpf_program__attach_perf_event(prog, fd);
		if (!l) {
			err = errno;
			close(fd);
			errno = err;
			return -1;
		}
		/* the link closes the event's fd when destroyed */
		tap_bpf_links[tap_bpf_nlinks++] = l;
		attached++;
		if (!tap_bpf_probe_names[k].perf_every_cpu)
			break;
	}
	if (!attached) {
		errno = err;
		return -1;
	}
	return 0;
}

/* ---- the session hooks (runtime/user/main.c) ---- */

static uint64_t
tap_bpf_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* kernel.function: each kprobe (kretprobe) program probe_N may have an
 * fentry (fexit) twin probe_N_fe on the same body.  A trampoline costs
 * less than a kprobe's trap and reads the arguments as BTF types; it
 * needs a kernel with BPF trampolines (5.5+, x86-64) whose BTF describes
 * the function.  The fentry form is loaded unless `force_kprobe` (it was
 * refused or could not be attached: every probe is then a kprobe) or
 * TAPC_BPF_KFUNC=kprobe (the tier's way to test the kprobe form where
 * both work); TAPC_BPF_VERBOSE=1 reports each choice.  1 when some
 * fentry/fexit program was chosen, else 0. */
static int
tap_bpf_choose_kfuncs(bool force_kprobe)
{
	const char *force = getenv("TAPC_BPF_KFUNC");
	bool all_kprobe = force_kprobe || (force && strcmp(force, "kprobe") == 0);
	struct bpf_program *prog;
	int any_fentry = 0;

	bpf_object__for_each_program(prog, tap_bpf_obj) {
		const char *sec = bpf_program__section_name(prog);
		const char *name = bpf_program__name(prog);
		struct bpf_program *fe = tap_bpf_twin(name, "_fe");
		struct bpf_program *chosen = prog;

		if (!fe || (strncmp(sec, "kprobe/", 7) != 0 &&
			    strncmp(sec, "kretprobe/", 10) != 0))
			continue;
		if (!all_kprobe) {
			chosen = fe;
			any_fentry = 1;
		}
		bpf_program__set_autoload(prog, chosen == prog);
		bpf_program__set_autoload(fe, chosen == fe);
		if (tap_bpf_verbose)
			fprintf(stderr, "BPF: %s attaches as %s\n", name,
				bpf_program__section_name(chosen));
	}
	return any_fentry;
}

static void
tap_bpf_report_refusal(int err)
{
	int k = tap_bpf_probe_of(tap_bpf_failed_prog);

	if (err == -E2BIG) {
		/* the verifier's 1M-instruction walk: loops are walked
		 * round by round, up to TAP_BPF_MAXACTION rounds */
		fprintf(stderr, "ERROR: BPF: the program of probe %s at %s is larger than the kernel's verifier takes (it walks 1M instructions at most, each round of a loop anew, up to MAXACTION=%d rounds); lower -D MAXACTION, shorten the loops or the handler, or use the kernel-module backend (--runtime=kernel)\n",
			k >= 0 ? tap_bpf_probe_names[k].probe : tap_bpf_failed_prog,
			k >= 0 ? tap_bpf_probe_names[k].where : "?",
			(int)TAP_BPF_MAXACTION);
		return;
	}
	if (k >= 0)
		fprintf(stderr, "ERROR: BPF: the kernel refused the program of probe %s at %s (%s); run with TAPC_BPF_VERBOSE=1 for the verifier's log, or use the kernel-module backend (--runtime=kernel)\n",
			tap_bpf_probe_names[k].probe,
			tap_bpf_probe_names[k].where, strerror(-err));
	else
		fprintf(stderr, "ERROR: BPF: the kernel refused the script's BPF programs (%s); run with TAPC_BPF_VERBOSE=1 for the verifier's log, or use the kernel-module backend (--runtime=kernel)\n",
			strerror(-err));
}

/* Probe `k` (of tap_bpf_probe_names; -1: not known), loaded as a raw
 * tracepoint or tp_btf, failed to load or attach (its program `prog`,
 * `what` happened, errno `err`): whether it is to be a classic
 * tracepoint now (tap_bpf_classic set).  Not when it is no tracepoint
 * or is one already; when it has no classic form, says why. */
static bool
tap_bpf_try_classic(int k, struct bpf_program *prog, const char *what,
		    int err)
{
	const char *name;
	struct bpf_program *raw;

	if (k < 0 || tap_bpf_classic[k])
		return false;
	name = tap_bpf_probe_names[k].prog;
	raw = tap_bpf_twin(name, "");
	if (!raw || strncmp(bpf_program__section_name(raw), "raw_tp/", 7) != 0)
		return false;
	if (!tap_bpf_twin(name, "_tp")) {
		fprintf(stderr, "BPF: probe %s at %s has no classic tracepoint to fall back on: %s\n",
			tap_bpf_probe_names[k].probe, tap_bpf_probe_names[k].where,
			tap_bpf_probe_names[k].classic_why ?
			tap_bpf_probe_names[k].classic_why : "it has no such form");
		return false;
	}
	if (tap_bpf_verbose)
		fprintf(stderr, "BPF: %s: %s %s (%s); classic tracepoint instead\n",
			name, prog ? bpf_program__section_name(prog) : "?",
			what, strerror(err));
	tap_bpf_classic[k] = true;
	return true;
}

/* Open the embedded object, choose each tracepoint's form and load:
 * tp_btf where the kernel's BTF describes the tracepoint; every
 * tracepoint raw if the verifier refuses that (it forbids arithmetic on
 * tp_btf's typed pointers); a probe's classic tracepoint if its raw one
 * is refused (not for E2BIG: a program too long is as long in that
 * form).  0 or -1 (reported). */
static bool tap_bpf_force_raw;	/* tp_btf failed: raw tracepoints */
static bool tap_bpf_force_kprobe;	/* fentry failed: kprobes */
static int tap_bpf_fentry_errno;	/* why, for the final refusal */

static int
tap_bpf_open_and_load(void)
{
	int err, chose, chose_fe;

	for (;;) {
		tap_bpf_obj = bpf_object__open_mem(tap_bpf_object,
			(size_t)(tap_bpf_object_end - tap_bpf_object), NULL);
		if (!tap_bpf_obj) {
			fprintf(stderr, "ERROR: BPF: cannot open the BPF object: %s\n", strerror(errno));
			return -1;
		}
		chose = tap_bpf_choose_tracepoints(tap_bpf_force_raw);
		if (chose < 0)
			return -1;
		chose_fe = tap_bpf_choose_kfuncs(tap_bpf_force_kprobe);
		tap_bpf_failed_prog[0] = '\0';
		err = bpf_object__load(tap_bpf_obj);
		if (!err)
			return 0;
		if (chose_fe > 0 &&
		    (strstr(tap_bpf_failed_prog, "_fe") || !tap_bpf_failed_prog[0])) {
			/* a trampoline the kernel refused (no BTF for the
			 * function, no trampolines): kprobes instead */
			if (tap_bpf_verbose)
				fprintf(stderr, "BPF: fentry/fexit refused (%s); kprobes instead\n",
					strerror(-err));
			tap_bpf_force_kprobe = true;
			tap_bpf_fentry_errno = -err;
		} else if (chose > 0) {
			if (tap_bpf_verbose)
				fprintf(stderr, "BPF: tp_btf refused (%s); raw tracepoints instead\n",
					strerror(-err));
			tap_bpf_force_raw = true;
		} else if (err == -E2BIG ||
			   !tap_bpf_try_classic(tap_bpf_probe_of(tap_bpf_failed_prog),
						bpf_object__find_program_by_name(tap_bpf_obj, tap_bpf_failed_prog),
						"was refused", -err)) {
			/* E2BIG: beyond the verifier's limits, and the
			 * classic form's body is the same */
			break;
		}
		bpf_object__close(tap_bpf_obj);
		tap_bpf_obj = NULL;
	}
	tap_bpf_report_refusal(err);
	return -1;
}

/* -1 when tap_bpf_load() failed (it reported why). */
static int tap_bpf_load_status;

/* Before the begin probes: open the object and load its programs (the
 * verifier's work, tens of milliseconds), so that the begin probes'
 * time to the first timer or event is not spent there -- a stopwatch
 * started in begin sees what the user target sees.  0 or -1 (reported;
 * tap_bpf_start() then fails at once). */
static int
tap_bpf_load_obj(void)
{
	size_t i;

	tap_bpf_verbose = getenv("TAPC_BPF_VERBOSE") ? atoi(getenv("TAPC_BPF_VERBOSE")) : 0;
	tap_bpf_main_thread = pthread_self();
	libbpf_set_print(tap_bpf_libbpf_log);
	tap_bpf_ncpus = libbpf_num_possible_cpus();
	for (i = 0; i < TAP_BPF_NPRINTS; i++) {
		const char *fmt = tap_bpf_prints[i].fmt;
		unsigned int np;
		struct tap_fmt_piece *pieces;

		if (!fmt)
			continue;
		np = tap_fmt_count_pieces(fmt);
		pieces = calloc(np + 1, sizeof(*pieces));
		if (!pieces || tap_fmt_compile(&tap_bpf_fmts[i], fmt, pieces,
					       np + 1, NULL)) {
			fprintf(stderr, "ERROR: BPF: cannot compile the format \"%s\"\n", fmt);
			return -1;
		}
	}
	return tap_bpf_open_and_load();
}

int
tap_bpf_load(void)
{
	tap_bpf_load_status = tap_bpf_load_obj();
	return tap_bpf_load_status;
}

/* -D TAP_BPF_TEST_RAW_UNATTACHABLE, for the tier's test of the
 * fallback after a failed attach: raw_tp and tp_btf programs cannot be
 * attached. */
static bool
tap_bpf_test_unattachable(struct bpf_program *prog)
{
#ifdef TAP_BPF_TEST_RAW_UNATTACHABLE
	const char *sec = bpf_program__section_name(prog);

	return strncmp(sec, "raw_tp/", 7) == 0 || strncmp(sec, "tp_btf/", 7) == 0;
#else
	(void)prog;
	return false;
#endif
}

/* Attach every loaded program.  0, or -1 with the probe that failed in
 * *failed (its tap_bpf_probe_names index, -1 if unknown), errno set and
 * *prog_out its program. */
static int
tap_bpf_attach_all(int *failed, struct bpf_program **prog_out)
{
	struct bpf_program *prog;
	size_t n = 0;

	bpf_object__for_each_program(prog, tap_bpf_obj)
		n++;	/* an upper bound: the unloaded twins are counted */
	/* a perf event program has one link per CPU */
	tap_bpf_links = calloc(n * (size_t)(tap_bpf_ncpus + 1) + 1, sizeof(*tap_bpf_links));
	bpf_object__for_each_program(prog, tap_bpf_obj) {
		int k = tap_bpf_probe_of(bpf_program__name(prog));
		struct bpf_link *l = NULL;

		if (!bpf_program__autoload(prog))
			continue;	/* the twin not chosen */
		if (bpf_program__type(prog) == BPF_PROG_TYPE_PERF_EVENT && k >= 0) {
			if (tap_bpf_attach_perf(prog, k) == 0)
				continue;
		} else if (k >= 0 && tap_bpf_probe_names[k].uprobe_path) {
			LIBBPF_OPTS(bpf_uprobe_opts, uo,
				    .retprobe = tap_bpf_probe_names[k].uprobe_return,
				    .ref_ctr_offset = tap_bpf_probe_names[k].uprobe_ref_ctr_offset);

			/* process("PATH"): every process running PATH */
			l = bpf_program__attach_uprobe_opts(prog,
				tap_bpf_probe_names[k].uprobe_pid ? tap_bpf_probe_names[k].uprobe_pid : -1,
				tap_bpf_probe_names[k].uprobe_path,
				tap_bpf_probe_names[k].uprobe_offset, &uo);
		} else if (tap_bpf_test_unattachable(prog)) {
			errno = ENOENT;
		} else {
			l = bpf_program__attach(prog);
		}
		if (!l) {
			*failed = k;
			*prog_out = prog;
			return -1;
		}
		tap_bpf_links[tap_bpf_nlinks++] = l;
	}
	return 0;
}

static void
tap_bpf_detach_all(void)
{
	size_t i;

	for (i = 0; i < tap_bpf_nlinks; i++)
		bpf_link__destroy(tap_bpf_links[i]);
	tap_bpf_nlinks = 0;
	free(tap_bpf_links);
	tap_bpf_links = NULL;
}

/* `prog` of probe `k` could not be attached (errno `err`): whether to
 * load the object again with another form for it -- raw tracepoints
 * after tp_btf, the probe's classic tracepoint after a raw one. */
static bool
tap_bpf_retry_attach(int k, struct bpf_program *prog, int err)
{
	const char *sec = bpf_program__section_name(prog);

	if ((strncmp(sec, "fentry/", 7) == 0 || strncmp(sec, "fexit/", 6) == 0) &&
	    !tap_bpf_force_kprobe) {
		if (tap_bpf_verbose)
			fprintf(stderr, "BPF: %s could not be attached (%s); kprobes instead\n",
				sec, strerror(err));
		tap_bpf_force_kprobe = true;
		tap_bpf_fentry_errno = err;
		return true;
	}
	if (strncmp(bpf_program__section_name(prog), "tp_btf/", 7) == 0 &&
	    !tap_bpf_force_raw) {
		if (tap_bpf_verbose)
			fprintf(stderr, "BPF: %s could not be attached (%s); raw tracepoints instead\n",
				bpf_program__section_name(prog), strerror(err));
		tap_bpf_force_raw = true;
		return true;
	}
	return tap_bpf_try_classic(k, prog, "could not be attached", err);
}

/* Whether the kernel has kprobes at all: libbpf attaches them through
 * the kprobe event source, or else tracefs's kprobe_events. */
static bool
tap_bpf_kernel_has_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe", F_OK) == 0 ||
	       access("/sys/kernel/tracing/kprobe_events", F_OK) == 0 ||
	       access("/sys/kernel/debug/tracing/kprobe_events", F_OK) == 0;
}

/* Say why probe k's program `prog` cannot be attached (errno `err`),
 * and what works instead.  On a kernel without kprobes, a kernel
 * function can be probed only by a trampoline, and the module backend
 * needs kprobes too: tracepoints are the way left. */
static void
tap_bpf_refuse_attach(int k, struct bpf_program *prog, int err)
{
	const char *sec = bpf_program__section_name(prog);
	const char *probe = k >= 0 ? tap_bpf_probe_names[k].probe : bpf_program__name(prog);
	const char *where = k >= 0 ? tap_bpf_probe_names[k].where : "?";

	if ((strncmp(sec, "kprobe/", 7) == 0 || strncmp(sec, "kretprobe/", 10) == 0) &&
	    !tap_bpf_kernel_has_kprobes()) {
		fprintf(stderr, "ERROR: BPF: cannot attach probe %s at %s: this kernel has no kprobes (no kprobe event source, no kprobe_events), and its fentry/fexit trampolines %s%s%s; kernel functions cannot be probed here, by BPF or by a module -- probe a tracepoint instead (kernel.trace(\"NAME\"), syscall.NAME)\n",
			probe, where,
			tap_bpf_fentry_errno ? "were refused (" : "were not tried (TAPC_BPF_KFUNC=kprobe",
			tap_bpf_fentry_errno ? strerror(tap_bpf_fentry_errno) : "",
			")");
		return;
	}
	fprintf(stderr, "ERROR: BPF: cannot attach probe %s at %s (%s): %s; this kernel may lack it -- the kernel-module backend (--runtime=kernel) may work where BPF cannot\n",
		probe, where, sec, strerror(err));
}

/* After the begin probes, before -c's command runs: push the scalars,
 * attach every program (when a tracepoint's program cannot be attached,
 * the object is loaded again with its next form, tap_bpf_retry_attach),
 * start the reader.  0 or -1 (reported). */
int
tap_bpf_start(void)
{
	struct tap_bpf_session ss;
	struct tap_globals g;
	struct bpf_program *prog;
	uint32_t zero = 0;
	int k, err;

again:
	if (tap_bpf_load_status || !tap_bpf_obj)
		return -1;
	memset(&ss, 0, sizeof(ss));
	ss.target_pid = tap_target_pid;
	ss.realtime_offset = (long long)(tap_bpf_clock(CLOCK_REALTIME) -
					 tap_bpf_clock(CLOCK_MONOTONIC));
	bpf_map_update_elem(tap_bpf_map_fd("tap_session"), &zero, &ss, BPF_ANY);
	memset(&g, 0, sizeof(g));
	tap_bpf_push_scalars(&g);
	bpf_map_update_elem(tap_bpf_map_fd("tap_gl"), &zero, &g, BPF_ANY);
	tap_bpf_rb = ring_buffer__new(tap_bpf_map_fd("tap_ringbuf"), tap_bpf_record, NULL, NULL);
	if (!tap_bpf_rb) {
		fprintf(stderr, "ERROR: BPF: cannot open the ring buffer: %s\n", strerror(errno));
		return -1;
	}
	if (tap_bpf_attach_all(&k, &prog)) {
		err = errno;
		if (tap_bpf_retry_attach(k, prog, err)) {
			tap_bpf_detach_all();
			ring_buffer__free(tap_bpf_rb);
			tap_bpf_rb = NULL;
			bpf_object__close(tap_bpf_obj);
			tap_bpf_obj = NULL;
			tap_bpf_load_status = tap_bpf_open_and_load();
			goto again;
		}
		tap_bpf_refuse_attach(k, prog, err);
		return -1;
	}
#ifdef TAP_BPF_HOLD_READER
	/* -D TAP_BPF_HOLD_READER: records wait in the ring buffer until the
	 * session stops, so that what does not fit is lost (the tier tests
	 * the count of lost records that way). */
	return 0;
#endif
	if (pthread_create(&tap_bpf_reader, NULL, tap_bpf_read_loop, NULL)) {
		fprintf(stderr, "ERROR: BPF: cannot start the ring buffer reader\n");
		return -1;
	}
	tap_bpf_reader_started = true;
	return 0;
}

/* Before a timer probe runs. */
void
tap_bpf_sync(void)
{
	tap_bpf_pull();
}

/* Before the end probes: detach, drain the ring buffer, copy the maps in,
 * count what was lost. */
void
tap_bpf_stop(void)
{
	struct tap_bpf_session ss;

	tap_bpf_detach_all();
	if (tap_bpf_reader_started) {
		tap_bpf_reader_stop = 1;
		pthread_join(tap_bpf_reader, NULL);
		tap_bpf_reader_started = false;
	}
	if (tap_bpf_rb) {
		ring_buffer__consume(tap_bpf_rb);
		tap_bpf_flush();
		ring_buffer__free(tap_bpf_rb);
		tap_bpf_rb = NULL;
	}
	if (!tap_bpf_obj)
		return;
	ss = tap_bpf_session_read();
	/* reported by main.c's closing WARNING line, as taprun reports
	 * the module's lost records */
	tap_output_cut_count += ss.drops;
	tap_bpf_pull();
}

void
tap_bpf_close(void)
{
	if (tap_bpf_obj)
		bpf_object__close(tap_bpf_obj);
	tap_bpf_obj = NULL;
}
