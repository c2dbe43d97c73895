/*
 * handler.h - what generated handler code calls on both platforms: the
 * script error, the statement and call-depth limits, a script error at a
 * statement, and the -G parameter table.  Included by each platform's
 * runtime header after its struct tap_context (which has `error`,
 * `errbuf`, `actions`, `maxaction`, `nesting` and `last_stmt`).
 * Must not: allocate or block (handlers run in atomic context).
 */
#ifndef TAP_CORE_HANDLER_H
#define TAP_CORE_HANDLER_H

/*
 * The script error: records the message in the context and marks the
 * handler failed, keeping the first (later ones are consequences);
 * generated code leaves the handler after calling it.  The platform's
 * tap_context_exit() reports it ("ERROR: msg near last_stmt").
 */
static inline __attribute__((format(printf, 2, 3))) void
tap_error(struct tap_context *c, const char *fmt, ...)
{
	va_list ap;

	if (c->error)
		return;
	va_start(ap, fmt);
	vsnprintf(c->errbuf, sizeof(c->errbuf), fmt, ap);
	va_end(ap);
	c->error = true;
	c->last_stmt = NULL;
}

/* A script error at a statement: message and "near" text separately, as
 * try/catch hands the catch variable only the message. */
static inline void
tap_error_at(struct tap_context *c, const char *msg, const char *near)
{
	tap_error(c, "%s", msg);
	c->last_stmt = near;
}

/* Count n statements; false (and a script error) past MAXACTION. */
static inline bool
tap_action(struct tap_context *c, unsigned long n)
{
	c->actions += n;
	if (likely(c->actions <= c->maxaction))
		return true;
	tap_error(c, "MAXACTION exceeded");
	return false;
}

/*
 * Around each call of a script function: false (and a script error) past
 * MAXNESTING; generated code returns without calling, and always pairs a
 * true tap_nesting_enter() with tap_nesting_exit().
 */
static inline bool
tap_nesting_enter(struct tap_context *c)
{
	if (likely(++c->nesting <= TAP_MAXNESTING))
		return true;
	c->nesting--;
	tap_error(c, "MAXNESTING exceeded");
	return false;
}

static inline void
tap_nesting_exit(struct tap_context *c)
{
	c->nesting--;
}

/* A scalar global that -G name=value may set before begin probes. */
struct tap_global_param {
	const char *name;
	enum tap_type type;	/* TAP_T_LONG or TAP_T_STRING */
	int64_t *l;
	char *s;		/* MAXSTRINGLEN bytes */
};

#endif /* TAP_CORE_HANDLER_H */
