/*
 * sdt.c -- parse .note.stapsdt notes and their argument operands (see
 * sdt.h).  A note (type 3, owner "stapsdt") holds three addresses -- the
 * marker, the link-time address of .stapsdt.base, the semaphore -- then
 * "provider\0name\0args\0".  When the file was prelinked or its sections
 * moved, the difference between .stapsdt.base's real address and the
 * recorded one is added to the marker and the semaphore, as the notes'
 * format defines.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "translator/common/arena.h"
#include "translator/debuginfo/elf_syms.h"
#include "translator/debuginfo/sdt.h"

#define NT_STAPSDT 3

static const struct {
	const char *names[4];	/* 64-, 32-, 16-, 8-bit spellings */
	const char *member;
} x86_regs[] = {
	{ { "rax", "eax", "ax", "al" }, "ax" },
	{ { "rbx", "ebx", "bx", "bl" }, "bx" },
	{ { "rcx", "ecx", "cx", "cl" }, "cx" },
	{ { "rdx", "edx", "dx", "dl" }, "dx" },
	{ { "rsi", "esi", "si", "sil" }, "si" },
	{ { "rdi", "edi", "di", "dil" }, "di" },
	{ { "rbp", "ebp", "bp", "bpl" }, "bp" },
	{ { "rsp", "esp", "sp", "spl" }, "sp" },
	{ { "r8", "r8d", "r8w", "r8b" }, "r8" },
	{ { "r9", "r9d", "r9w", "r9b" }, "r9" },
	{ { "r10", "r10d", "r10w", "r10b" }, "r10" },
	{ { "r11", "r11d", "r11w", "r11b" }, "r11" },
	{ { "r12", "r12d", "r12w", "r12b" }, "r12" },
	{ { "r13", "r13d", "r13w", "r13b" }, "r13" },
	{ { "r14", "r14d", "r14w", "r14b" }, "r14" },
	{ { "r15", "r15d", "r15w", "r15b" }, "r15" },
	{ { "rip", "eip", NULL, NULL }, "ip" },
};

/* "%eax" -> "ax", 4; NULL when not a register. */
static const char *
reg_member(const char *name, size_t len, int *size)
{
	static const int sizes[4] = { 8, 4, 2, 1 };

	for (size_t i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
		for (int w = 0; w < 4; w++) {
			const char *n = x86_regs[i].names[w];
			if (n && strlen(n) == len && !strncmp(n, name, len)) {
				*size = sizes[w];
				return x86_regs[i].member;
			}
		}
	return NULL;
}

/* "%reg" at *p: its member, advancing *p. */
static const char *
parse_reg(const char **p, int *size)
{
	const char *s = *p, *m;
	size_t len = 0;

	if (*s != '%')
		return NULL;
	s++;
	while (isalnum((unsigned char)s[len]))
		len++;
	m = reg_member(s, len, size);
	if (m)
		*p = s + len;
	return m;
}

/* "disp(%base[,%index[,scale]])", disp a number or symbol[+-number]. */
static bool
parse_mem(struct arena *a, const char *p, struct sdt_arg *out)
{
	int rs;
	char *end;

	out->kind = SDT_ARG_MEM;
	if (isalpha((unsigned char)*p) || *p == '_') {
		size_t len = strcspn(p, "+-(");
		out->symbol = arena_strndup(a, p, len);
		p += len;
	}
	if (*p == '+' || *p == '-' || isdigit((unsigned char)*p)) {
		out->disp = strtoll(p, &end, 0);
		p = end;
	}
	if (!*p)
		return out->symbol || out->disp;	/* absolute address */
	if (*p++ != '(')
		return false;
	if (*p != ',' && !(out->base = parse_reg(&p, &rs)))
		return false;
	if (*p == ',') {
		p++;
		if (!(out->index = parse_reg(&p, &rs)))
			return false;
		out->scale = 1;
		if (*p == ',') {
			out->scale = (int)strtol(p + 1, &end, 0);
			p = end;
		}
	}
	return *p == ')' && !p[1];
}

bool
sdt_parse_arg(struct arena *a, const char *text, struct sdt_arg *out)
{
	const char *at = strchr(text, '@'), *p = text;
	char *end;
	int rs;

	memset(out, 0, sizeof(*out));
	out->text = arena_strdup(a, text);
	out->size = 8;
	out->is_signed = true;
	if (at) {
		long n = strtol(text, &end, 10);
		if (end != at || !n)
			return false;
		out->is_signed = n < 0;
		out->size = (int)labs(n);
		p = at + 1;
	}
	if (out->size != 1 && out->size != 2 && out->size != 4 &&
	    out->size != 8)
		return false;
	if (*p == '%') {
		out->kind = SDT_ARG_REG;
		out->reg = parse_reg(&p, &rs);
		out->reg_size = rs;
		return out->reg && !*p;
	}
	if (*p == '$') {
		out->kind = SDT_ARG_IMM;
		out->value = strtoll(p + 1, &end, 0);
		return end != p + 1 && !*end;
	}
	return parse_mem(a, p, out);
}

/* An address of `w` bytes (8, or 4 in an i386 file). */
static uint64_t
get_addr(const unsigned char *p, size_t w)
{
	uint64_t v;
	uint32_t v32;

	if (w == 4) {
		memcpy(&v32, p, sizeof(v32));
		return v32;
	}
	memcpy(&v, p, sizeof(v));
	return v;	/* x86 notes are little-endian like the host */
}

static void
parse_args(struct arena *a, struct sdt_probe *pr, const char *args)
{
	char *copy = arena_strdup(a, args), *save = NULL, *tok;
	int cap = 0;

	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		pr->args = arena_grow(a, pr->args, sizeof(*pr->args), &cap,
				      pr->nargs + 1);
		if (!sdt_parse_arg(a, tok, &pr->args[pr->nargs]) &&
		    !pr->bad_arg)
			pr->bad_arg = arena_strdup(a, tok);
		pr->nargs++;
	}
}

static size_t
align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

struct sdt_probe *
sdt_probes(struct arena *a, const struct elf_image *im, size_t *n)
{
	const unsigned char *p = im->sdt_notes;
	size_t off = 0, size = im->sdt_notes_size;
	struct sdt_probe *out = NULL;
	int cap = 0, count = 0;

	while (p && off + 12 <= size) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		size_t name_at = off + 12;
		size_t desc_at = name_at + align4(namesz);
		off = desc_at + align4(descsz);
		if (off > size)
			break;
		if (type != NT_STAPSDT || namesz != 8 ||
		    memcmp(p + name_at, "stapsdt", 8) ||
		    descsz < (im->is_i386 ? 15 : 27))
			continue;
		const unsigned char *d = p + desc_at;
		/* the three addresses: 8 bytes each, 4 in an i386 file */
		size_t w = im->is_i386 ? 4 : 8;
		const char *strs = (const char *)d + 3 * w;
		const char *lim = (const char *)d + descsz;
		const char *prov = strs;
		const char *name = prov + strnlen(prov, (size_t)(lim - prov)) + 1;
		if (name >= lim)
			continue;
		const char *args = name + strnlen(name, (size_t)(lim - name)) + 1;
		if (args > lim)
			continue;
		out = arena_grow(a, out, sizeof(*out), &cap, count + 1);
		struct sdt_probe *pr = &out[count++];
		memset(pr, 0, sizeof(*pr));
		uint64_t base = get_addr(d + w, w);
		int64_t adjust = im->has_sdt_base && base ?
			(int64_t)(im->sdt_base_addr - base) : 0;
		pr->provider = arena_strdup(a, prov);
		pr->name = arena_strdup(a, name);
		pr->pc = get_addr(d, w) + (uint64_t)adjust;
		pr->semaphore = get_addr(d + 2 * w, w);
		if (pr->semaphore)
			pr->semaphore += (uint64_t)adjust;
		if (args < lim)
			parse_args(a, pr, arena_strndup(a, args,
				strnlen(args, (size_t)(lim - args))));
	}
	*n = (size_t)count;
	return out;
}
