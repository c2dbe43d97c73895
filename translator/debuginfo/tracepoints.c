/* tracepoints.c -- build the table of tracepoints from BTF, give each its
 * subsystem, and match kernel.trace() specs against it.
 *
 * Takes a loaded `struct btf` and optional places to learn subsystem names
 * (tracefs, kernel headers); produces a sorted, read-only table whose
 * strings live in the table's own arena (names of tracepoints and of
 * arguments are borrowed from the btf).  Reading headers is a light
 * tokenizer, not a preprocessor: it notices `#define TRACE_SYSTEM x` and the
 * event-defining macros (TRACE_EVENT(name, DEFINE_EVENT(class, name, ...),
 * and, as a weaker fallback, any identifier in the header that names a
 * known tracepoint (this catches local wrapper macros such as
 * DEFINE_WRITEBACK_EVENT(name)).  Must not print, and must not fail just
 * because headers or tracefs are missing: the subsystem is then "".
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/tracepoints.h"
#include "translator/debuginfo/btf.h"

#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TP_TYPEDEF_PREFIX "btf_trace_"

enum tp_origin { TP_SYS_NONE, TP_SYS_WEAK, TP_SYS_HEADER, TP_SYS_TRACEFS };

struct tp_block {
	struct tp_block *next;
	size_t used, cap;
	char data[];
};

struct tracepoints {
	const struct btf *btf;
	struct tracepoint *tps;
	enum tp_origin *origin;	/* parallel to tps while building */
	size_t count;
	struct tp_block *arena;
	const char **systems;	/* interned system names */
	size_t nsystems, systems_cap;
	size_t stats[4];	/* by enum tp_origin */
};

/* ---- a small arena owned by the table ----------------------------------- */

static void *
tp_alloc(struct tracepoints *t, size_t size)
{
	struct tp_block *b = t->arena;

	size = (size + 7) & ~(size_t)7;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > 65536 ? size : 65536;

		if (!(b = malloc(sizeof(*b) + cap)))
			return NULL;
		b->next = t->arena;
		b->used = 0;
		b->cap = cap;
		t->arena = b;
	}
	b->used += size;
	return b->data + b->used - size;
}

static char *
tp_strdup(struct tracepoints *t, const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = tp_alloc(t, n);

	if (copy)
		memcpy(copy, s, n);
	return copy;
}

static const char *
tp_intern_system(struct tracepoints *t, const char *name, size_t len)
{
	size_t i;
	char *copy;

	for (i = 0; i < t->nsystems; i++)
		if (strlen(t->systems[i]) == len &&
		    memcmp(t->systems[i], name, len) == 0)
			return t->systems[i];
	if (t->nsystems == t->systems_cap) {
		size_t cap = t->systems_cap ? 2 * t->systems_cap : 64;
		const char **bigger = realloc(t->systems, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		t->systems = bigger;
		t->systems_cap = cap;
	}
	if (!(copy = tp_alloc(t, len + 1)))
		return NULL;
	memcpy(copy, name, len);
	copy[len] = '\0';
	return t->systems[t->nsystems++] = copy;
}

/* ---- the list from BTF ---------------------------------------------------- */

static int
tp_cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct tracepoint *)a)->name,
		      ((const struct tracepoint *)b)->name);
}

static int
tp_cmp_system_name(const void *a, const void *b)
{
	const struct tracepoint *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

static bool
tp_collect(struct tracepoints *t)
{
	const struct btf *btf = t->btf;
	uint32_t id, n = btf__type_cnt(btf);
	size_t plen = strlen(TP_TYPEDEF_PREFIX), cap = 0;

	/* A module's split BTF: only its own tracepoints, not vmlinux's. */
	for (id = btf_first_id(btf); id < n; id++) {
		const char *name = btf_name(btf, id);

		if (btf_kind_of(btf, id) != BTF_KIND_TYPEDEF ||
		    strncmp(name, TP_TYPEDEF_PREFIX, plen) != 0 ||
		    !name[plen] || btf_param_count(btf, id) < 1)
			continue;
		if (t->count == cap) {
			struct tracepoint *bigger;

			cap = cap ? 2 * cap : 1024;
			if (!(bigger = realloc(t->tps, cap * sizeof(*bigger))))
				return false;
			t->tps = bigger;
		}
		memset(&t->tps[t->count], 0, sizeof(t->tps[0]));
		t->tps[t->count].name = name + plen;
		t->tps[t->count].typedef_id = id;
		t->tps[t->count].system = "";
		t->count++;
	}
	qsort(t->tps, t->count, sizeof(*t->tps), tp_cmp_name);
	t->origin = calloc(t->count + 1, sizeof(*t->origin));
	return t->origin != NULL;
}

static struct tracepoint *
tp_by_name(struct tracepoints *t, const char *name, size_t len)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strncmp(t->tps[mid].name, name, len);

		if (c == 0 && t->tps[mid].name[len])
			c = 1;
		if (c == 0)
			return &t->tps[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Record that `name` belongs to `system`, unless a better source already
 * said so. */
static void
tp_assign(struct tracepoints *t, const char *name, size_t len,
	  const char *system, enum tp_origin origin)
{
	struct tracepoint *tp = tp_by_name(t, name, len);
	size_t idx;

	if (!tp || !system)
		return;
	idx = tp - t->tps;
	if (t->origin[idx] >= origin)
		return;
	tp->system = system;
	t->origin[idx] = origin;
}

/* ---- arguments ------------------------------------------------------------- */

/* A FUNC with the same parameters as the typedef'd proto, and names. */
static uint32_t
tp_named_func(const struct btf *btf, const char *name, int nparams)
{
	static const char *const prefixes[] = { "__traceiter_", "__bpf_trace_" };
	char fname[256];
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		uint32_t id;

		snprintf(fname, sizeof(fname), "%s%s", prefixes[i], name);
		id = btf_find(btf, fname, BTF_KIND_FUNC);
		if (id && btf_param_count(btf, id) == nparams)
			return id;
	}
	return BTF_NONE;
}

static bool
tp_fill_arg(struct tracepoints *t, struct tp_arg *a, uint32_t type,
	    const char *name, int pos)
{
	const struct btf *btf = t->btf;
	struct btf_int_info ii;
	char text[512], synth[16];

	if (!*name) {
		snprintf(synth, sizeof(synth), "arg%d", pos);
		name = synth;
	}
	btf_type_snprint(btf, type, NULL, text, sizeof(text));
	a->name = tp_strdup(t, name);
	a->type_text = tp_strdup(t, text);
	a->type = type;
	a->size = btf_sizeof(btf, type);
	a->is_pointer = btf_is_pointer(btf, type);
	a->is_string = btf_is_string(btf, type);
	a->is_aggregate = btf_member_count(btf, type) >= 0;
	if (btf_int_info(btf, type, &ii)) {
		a->is_signed = ii.is_signed;
		a->is_bool = ii.is_bool;
	}
	return a->name && a->type_text;
}

static bool
tp_build_args(struct tracepoints *t, struct tracepoint *tp)
{
	const struct btf *btf = t->btf;
	int i, n = btf_param_count(btf, tp->typedef_id);
	struct btf_param_info p, named;

	tp->func_id = tp_named_func(btf, tp->name, n);
	tp->nargs = n - 1;	/* the first is the __data cookie */
	tp->args = tp_alloc(t, (n ? n : 1) * sizeof(*tp->args));
	if (!tp->args)
		return false;
	memset(tp->args, 0, (n ? n : 1) * sizeof(*tp->args));
	for (i = 1; i < n; i++) {
		if (!btf_param_at(btf, tp->typedef_id, i, &p))
			return false;
		named.name = "";
		if (tp->func_id)
			btf_param_at(btf, tp->func_id, i, &named);
		if (!tp_fill_arg(t, &tp->args[i - 1], p.type, named.name, i))
			return false;
	}
	return true;
}

/* ---- subsystems from tracefs ------------------------------------------------ */

static bool
tp_is_dir(const char *dir, const struct dirent *de)
{
	char *path = NULL;
	struct stat st;
	bool is_dir;

	if (de->d_name[0] == '.')
		return false;
	if (de->d_type == DT_DIR)
		return true;
	if (de->d_type != DT_UNKNOWN || asprintf(&path, "%s/%s", dir, de->d_name) < 0)
		return false;
	is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	free(path);
	return is_dir;
}

static void
tp_scan_tracefs_system(struct tracepoints *t, const char *events,
		       const char *sysname)
{
	char *dir = NULL;
	const char *system;
	DIR *d;
	struct dirent *de;

	if (asprintf(&dir, "%s/%s", events, sysname) < 0)
		return;
	if ((d = opendir(dir)) &&
	    (system = tp_intern_system(t, sysname, strlen(sysname)))) {
		while ((de = readdir(d)))
			if (tp_is_dir(dir, de))
				tp_assign(t, de->d_name, strlen(de->d_name),
					  system, TP_SYS_TRACEFS);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void
tp_scan_tracefs(struct tracepoints *t, const char *events)
{
	DIR *d = opendir(events);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (tp_is_dir(events, de))
			tp_scan_tracefs_system(t, events, de->d_name);
	closedir(d);
}

/* ---- subsystems from headers ------------------------------------------------- */

struct tp_lexer {
	const char *p, *end;
	const char *tok;
	size_t len;
};

static void
tp_skip_space_and_comments(struct tp_lexer *lx)
{
	while (lx->p < lx->end) {
		if (isspace((unsigned char)*lx->p) || *lx->p == '\\') {
			lx->p++;
		} else if (lx->p + 1 < lx->end && lx->p[0] == '/' && lx->p[1] == '*') {
			const char *close = memmem(lx->p + 2, lx->end - lx->p - 2, "*/", 2);

			lx->p = close ? close + 2 : lx->end;
		} else if (lx->p + 1 < lx->end && lx->p[0] == '/' && lx->p[1] == '/') {
			const char *nl = memchr(lx->p, '\n', lx->end - lx->p);

			lx->p = nl ? nl : lx->end;
		} else {
			return;
		}
	}
}

/* The next identifier, number or punctuation character; string and
 * character literals are skipped whole.  False at the end. */
static bool
tp_next_token(struct tp_lexer *lx)
{
	for (;;) {
		tp_skip_space_and_comments(lx);
		if (lx->p >= lx->end)
			return false;
		lx->tok = lx->p;
		if (*lx->p == '"' || *lx->p == '\'') {
			char quote = *lx->p++;

			while (lx->p < lx->end && *lx->p != quote)
				lx->p += (*lx->p == '\\' && lx->p + 1 < lx->end) ? 2 : 1;
			lx->p = lx->p < lx->end ? lx->p + 1 : lx->end;
			continue;
		}
		if (isalnum((unsigned char)*lx->p) || *lx->p == '_') {
			while (lx->p < lx->end &&
			       (isalnum((unsigned char)*lx->p) || *lx->p == '_'))
				lx->p++;
		} else {
			lx->p++;
		}
		lx->len = lx->p - lx->tok;
		return true;
	}
}

static bool
tp_tok_is(const struct tp_lexer *lx, const char *s)
{
	return lx->len == strlen(s) && memcmp(lx->tok, s, lx->len) == 0;
}

static bool
tp_tok_is_ident(const struct tp_lexer *lx)
{
	return isalpha((unsigned char)lx->tok[0]) || lx->tok[0] == '_';
}

/* Which argument of an event-defining macro is the event's name: 1 for
 * TRACE_EVENT(name, ...), 2 for DEFINE_EVENT(class, name, ...), 0 for
 * other identifiers. */
static int
tp_macro_name_arg(const struct tp_lexer *lx)
{
	static const char *const first[] = {
		"TRACE_EVENT", "TRACE_EVENT_FN", "TRACE_EVENT_FN_COND",
		"TRACE_EVENT_CONDITION", "DECLARE_TRACE",
		"DECLARE_TRACE_CONDITION", "DECLARE_TRACE_WRITABLE",
	};
	static const char *const second[] = {
		"DEFINE_EVENT", "DEFINE_EVENT_FN", "DEFINE_EVENT_CONDITION",
		"DEFINE_EVENT_PRINT",
	};
	size_t i;

	for (i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		if (tp_tok_is(lx, first[i]))
			return 1;
	for (i = 0; i < sizeof(second) / sizeof(second[0]); i++)
		if (tp_tok_is(lx, second[i]))
			return 2;
	return 0;
}

/* After `MACRO`: read `( [class ,] name` and assign name.  DECLARE_TRACE
 * in newer kernels names the tracepoint `<name>_tp`, so try both. */
static void
tp_macro_event(struct tracepoints *t, struct tp_lexer *lx, int arg,
	       const char *system)
{
	char with_tp[256];

	if (!tp_next_token(lx) || !tp_tok_is(lx, "("))
		return;
	if (arg == 2 && !(tp_next_token(lx) && tp_next_token(lx) &&
			  tp_tok_is(lx, ",")))
		return;
	if (!tp_next_token(lx) || !tp_tok_is_ident(lx))
		return;
	tp_assign(t, lx->tok, lx->len, system, TP_SYS_HEADER);
	if (lx->len + 4 < sizeof(with_tp)) {
		memcpy(with_tp, lx->tok, lx->len);
		memcpy(with_tp + lx->len, "_tp", 4);
		tp_assign(t, with_tp, lx->len + 3, system, TP_SYS_HEADER);
	}
}

/* Wrapper macros often paste the event name together:
 * `#define DEFINE_IRQ_VECTOR_EVENT(name) DEFINE_EVENT(cls, name##_entry,...`
 * used as DEFINE_IRQ_VECTOR_EVENT(local_timer).  Collect the fragments
 * pasted after (`_entry`) or before (`mm_`) a `##`, so that an identifier
 * in the file can be tried with each. */
#define TP_MAX_PASTES 16

struct tp_pastes {
	const char *frag[TP_MAX_PASTES];
	size_t len[TP_MAX_PASTES];
	bool suffix[TP_MAX_PASTES];
	int n;
};

static void
tp_collect_pastes(const char *text, size_t size, struct tp_pastes *pp)
{
	struct tp_lexer lx = { .p = text, .end = text + size };
	const char *prev = NULL;
	size_t prev_len = 0;
	int hashes = 0;	/* consecutive '#' tokens seen */

	while (tp_next_token(&lx) && pp->n < TP_MAX_PASTES) {
		bool ident = tp_tok_is_ident(&lx);

		if (ident && hashes == 2 && lx.tok[0] == '_') {
			pp->frag[pp->n] = lx.tok;
			pp->len[pp->n] = lx.len;
			pp->suffix[pp->n++] = true;
		}
		if (tp_tok_is(&lx, "#") && hashes == 0 && prev &&
		    prev_len > 1 && prev[prev_len - 1] == '_' &&
		    lx.p < lx.end && *lx.p == '#') {
			pp->frag[pp->n] = prev;
			pp->len[pp->n] = prev_len;
			pp->suffix[pp->n++] = false;
		}
		hashes = tp_tok_is(&lx, "#") ? hashes + 1 : 0;
		prev = ident ? lx.tok : NULL;
		prev_len = ident ? lx.len : 0;
	}
}

static void
tp_assign_pasted(struct tracepoints *t, const struct tp_lexer *lx,
		 const struct tp_pastes *pp, const char *system)
{
	char name[256];
	int i;

	for (i = 0; i < pp->n; i++) {
		if (lx->len + pp->len[i] >= sizeof(name))
			continue;
		if (pp->suffix[i]) {
			memcpy(name, lx->tok, lx->len);
			memcpy(name + lx->len, pp->frag[i], pp->len[i]);
		} else {
			memcpy(name, pp->frag[i], pp->len[i]);
			memcpy(name + pp->len[i], lx->tok, lx->len);
		}
		tp_assign(t, name, lx->len + pp->len[i], system, TP_SYS_WEAK);
	}
}

static void
tp_scan_header_text(struct tracepoints *t, const char *text, size_t size)
{
	struct tp_pastes pastes = { .n = 0 };
	struct tp_lexer lx = { .p = text, .end = text + size };
	const char *system = NULL;
	int after_define = 0;	/* 1 after '#', 2 after "# define", 3 after "TRACE_SYSTEM" */
	int arg;

	tp_collect_pastes(text, size, &pastes);
	while (tp_next_token(&lx)) {
		if (after_define == 3 && tp_tok_is_ident(&lx))
			system = tp_intern_system(t, lx.tok, lx.len);
		if (tp_tok_is(&lx, "#"))
			after_define = 1;
		else if (after_define == 1 && tp_tok_is(&lx, "define"))
			after_define = 2;
		else if (after_define == 2 && tp_tok_is(&lx, "TRACE_SYSTEM"))
			after_define = 3;
		else
			after_define = 0;
		if (!system || !tp_tok_is_ident(&lx))
			continue;
		if ((arg = tp_macro_name_arg(&lx)) != 0)
			tp_macro_event(t, &lx, arg, system);
		else {
			tp_assign(t, lx.tok, lx.len, system, TP_SYS_WEAK);
			tp_assign_pasted(t, &lx, &pastes, system);
		}
	}
}

static void
tp_scan_header(struct tracepoints *t, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long size;

	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (text = malloc(size))) {
		if (fread(text, 1, size, f) == (size_t)size &&
		    memmem(text, size, "TRACE_SYSTEM", 12))
			tp_scan_header_text(t, text, size);
		free(text);
	}
	fclose(f);
}

static int
tp_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.h directly in dir, in name order so results are reproducible. */
static void
tp_scan_header_dir(struct tracepoints *t, const char *root, const char *sub)
{
	char *dir = NULL, *path;
	char **names = NULL;
	size_t n = 0, i;
	DIR *d;
	struct dirent *de;

	if (asprintf(&dir, "%s/%s", root, sub) < 0)
		return;
	if ((d = opendir(dir))) {
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name);
			char **bigger;

			if (len < 3 || strcmp(de->d_name + len - 2, ".h") != 0 ||
			    !(bigger = realloc(names, (n + 1) * sizeof(*names))))
				continue;
			names = bigger;
			if ((names[n] = strdup(de->d_name)))
				n++;
		}
		closedir(d);
	}
	if (n)
		qsort(names, n, sizeof(*names), tp_cmp_str);
	for (i = 0; i < n; i++) {
		if (asprintf(&path, "%s/%s", dir, names[i]) >= 0) {
			tp_scan_header(t, path);
			free(path);
		}
		free(names[i]);
	}
	free(names);
	free(dir);
}

static void
tp_scan_headers(struct tracepoints *t, const char *root, const char *srcarch)
{
	char *sub = NULL;

	tp_scan_header_dir(t, root, "include/trace/events");
	tp_scan_header_dir(t, root, "include/ras");
	if (srcarch && asprintf(&sub, "arch/%s/include/asm/trace", srcarch) >= 0) {
		tp_scan_header_dir(t, root, sub);
		free(sub);
	}
	if (srcarch && asprintf(&sub, "arch/%s/include/asm", srcarch) >= 0) {
		tp_scan_header_dir(t, root, sub);
		free(sub);
	}
}

/* ---- the table ------------------------------------------------------------------ */

struct tracepoints *
tracepoints_load(const struct btf *btf, const struct tp_sources *src,
		 char *err, size_t errlen)
{
	struct tracepoints *t = calloc(1, sizeof(*t));
	size_t i;

	if (!t || !(t->btf = btf) || !tp_collect(t))
		goto oom;
	if (src && src->tracefs_events)
		tp_scan_tracefs(t, src->tracefs_events);
	if (src && src->source_dir)
		tp_scan_headers(t, src->source_dir, src->srcarch);
	for (i = 0; i < t->count; i++) {
		t->stats[t->origin[i] == TP_SYS_WEAK ? TP_SYS_HEADER : t->origin[i]]++;
		if (!tp_build_args(t, &t->tps[i]))
			goto oom;
	}
	free(t->origin);
	t->origin = NULL;
	qsort(t->tps, t->count, sizeof(*t->tps), tp_cmp_system_name);
	return t;
oom:
	if (err && errlen)
		snprintf(err, errlen, "tracepoints: %s",
			 btf ? "out of memory" : "no BTF");
	tracepoints_free(t);
	return NULL;
}

void
tracepoints_free(struct tracepoints *t)
{
	struct tp_block *b, *next;

	if (!t)
		return;
	for (b = t->arena; b; b = next) {
		next = b->next;
		free(b);
	}
	free(t->tps);
	free(t->origin);
	free(t->systems);
	free(t);
}

size_t
tracepoints_count(const struct tracepoints *t)
{
	return t ? t->count : 0;
}

const struct tracepoint *
tracepoints_at(const struct tracepoints *t, size_t idx)
{
	return t && idx < t->count ? &t->tps[idx] : NULL;
}

const struct tracepoint *
tracepoints_find(const struct tracepoints *t, const char *spec)
{
	const char *colon = strchr(spec, ':');
	const char *name = colon ? colon + 1 : spec;
	size_t i, syslen = colon ? (size_t)(colon - spec) : 0;

	for (i = 0; t && i < t->count; i++) {
		const struct tracepoint *tp = &t->tps[i];

		if (strcmp(tp->name, name) != 0)
			continue;
		if (!colon || (strlen(tp->system) == syslen &&
			       strncmp(tp->system, spec, syslen) == 0))
			return tp;
	}
	return NULL;
}

bool
tracepoints_spec_matches(const char *spec, const struct tracepoint *tp)
{
	const char *colon = strchr(spec, ':');
	char system[256];
	size_t len;

	if (!colon)
		return fnmatch(spec, tp->name, 0) == 0;
	len = colon - spec;
	if (len >= sizeof(system))
		return false;
	memcpy(system, spec, len);
	system[len] = '\0';
	return fnmatch(system, tp->system, 0) == 0 &&
	       fnmatch(colon + 1, tp->name, 0) == 0;
}

size_t
tracepoints_foreach(const struct tracepoints *t, const char *spec,
		    bool (*fn)(const struct tracepoint *tp, void *ctx),
		    void *ctx)
{
	size_t i, n = 0;

	for (i = 0; t && i < t->count; i++) {
		if (!tracepoints_spec_matches(spec, &t->tps[i]))
			continue;
		n++;
		if (fn && !fn(&t->tps[i], ctx))
			break;
	}
	return n;
}

void
tracepoints_system_stats(const struct tracepoints *t, size_t *from_tracefs,
			 size_t *from_headers, size_t *unknown)
{
	*from_tracefs = t->stats[TP_SYS_TRACEFS];
	*from_headers = t->stats[TP_SYS_HEADER];
	*unknown = t->stats[TP_SYS_NONE];
}
