/*
 * runtime_split.c -- the generated C apart from the runtime it includes
 * (runtime_split.h).
 */
#include "translator/build/runtime_split.h"

#include <string.h>

#include "translator/common/arena.h"

bool
runtime_split(struct session *s, const char *c_text, const char **script,
	      const char **runtime)
{
	static const char line[] = "\n#include \"runtime.c\"\n";
	static const char head[] = "#include \"runtime.h\"\n";
	const char *at = strstr(c_text, line);
	const char *h = strstr(c_text, head);

	if (!at || !h || h > at || strstr(at + 1, line))
		return false;
	/* the script keeps the newline before the line and what follows
	 * it (the BPF back end's user half comes after the runtime) */
	*script = arena_printf(s->arena, "%.*s%s", (int)(at + 1 - c_text),
			       c_text, at + sizeof(line) - 1);
	*runtime = "/* the runtime, built apart (translator/build/runtime_split.h) */\n";
	/* the prelude's #define and #undef lines, not its comment, which
	 * names the script: the object must be the same for every script */
	for (const char *l = c_text; l < h; l = strchr(l, '\n') + 1)
		if (strncmp(l, "#define ", 8) == 0 || strncmp(l, "#undef ", 7) == 0)
			*runtime = arena_printf(s->arena, "%s%.*s", *runtime,
				(int)(strchr(l, '\n') + 1 - l), l);
	*runtime = arena_printf(s->arena, "%s%s#include \"runtime.c\"\n",
				*runtime, head);
	return true;
}
