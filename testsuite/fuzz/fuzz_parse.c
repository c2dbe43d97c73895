/*
 * fuzz_parse.c -- libFuzzer target for pass 1.
 *
 * Each input is a script given as with -e (guru mode, two script
 * arguments, fixed target facts so that runs are reproducible). It is
 * parsed with diagnostics counted but not printed. When it parses without
 * error, its canonical form (what -p1 prints) must parse again without
 * error and print identically; anything else aborts, so libFuzzer saves the
 * input. Crashes, hangs, leaks and undefined behaviour are the sanitizers'
 * to catch.
 *
 * Build and run: make fuzz (testsuite/fuzz/local.mk), or by hand, with
 * clang -fsanitize=fuzzer,address,undefined and translator/'s sources.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/parse/parse.h"
#include "translator/driver/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *fuzz_args[] = { "1", "two" };

static const char *
fuzz_config(void *ctx, const char *name)
{
	(void)ctx;
	return strcmp(name, "CONFIG_64BIT") == 0 ? "y" : NULL;
}

static void
fuzz_session(struct session *s)
{
	memset(s, 0, sizeof(*s));
	s->arena = arena_new();
	diag_init(&s->diag, NULL);	/* count only */
	s->opts.last_pass = 1;
	s->opts.guru = true;
	s->opts.args = fuzz_args;
	s->opts.nargs = 2;
	s->facts.kernel_release = "6.1.0-57-amd64";
	s->facts.kernel_version = "6.1.0";
	s->facts.arch = "x86_64";
	s->facts.runtime = "kernel";
	s->facts.config_lookup = fuzz_config;
}

/* Parse `text` in a fresh session; return its canonical form (malloc'd) or
 * NULL if it has errors. */
static char *
parse_and_print(const char *text, size_t len, size_t *out_len)
{
	struct session s;
	struct file_ast *f;
	char *out = NULL;

	fuzz_session(&s);
	f = parse_source(&s, source_from_text(&s, "<input>", text, len));
	if (f && s.diag.errors == 0) {
		FILE *mem = open_memstream(&out, out_len);
		if (!mem)
			abort();
		print_file(mem, f);
		fclose(mem);
	}
	arena_destroy(s.arena);
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len1, len2;
	char *once, *twice;

	once = parse_and_print((const char *)data, size, &len1);
	if (!once)
		return 0;
	twice = parse_and_print(once, len1, &len2);
	if (!twice) {
		fprintf(stderr, "fuzz_parse: the printed script does not parse:\n"
			"%.*s\n", (int)len1, once);
		abort();
	}
	if (len1 != len2 || memcmp(once, twice, len1) != 0) {
		fprintf(stderr, "fuzz_parse: printing is not idempotent:\n"
			"--- first\n%.*s\n--- second\n%.*s\n",
			(int)len1, once, (int)len2, twice);
		abort();
	}
	free(once);
	free(twice);
	return 0;
}
