/*
 * match.c - keeping the last regular-expression match of a handler and
 * reading its groups back (match.h).
 */
#include "match.h"

void
tap_match_set(struct tap_match *m, const char *s, int ngroups)
{
	int base = m->start[0], len = m->end[0] - base, i;

	if (len > MAXSTRINGLEN - 1)
		len = MAXSTRINGLEN - 1;
	tap_memcpy(m->text, s + base, len);
	m->text[len] = '\0';
	for (i = 0; i < ngroups; i++) {
		if (m->start[i] < 0 || m->end[i] < m->start[i]) {
			m->start[i] = m->end[i] = -1;
			continue;
		}
		/* every group lies inside the whole match */
		m->start[i] -= base;
		m->end[i] -= base;
		if (m->end[i] > len)
			m->end[i] = len;
		if (m->start[i] > len)
			m->start[i] = len;
	}
	m->ngroups = ngroups;
	m->state = TAP_MATCH_OK;
}

const char *
tap_match_problem(const struct tap_match *m)
{
	switch (m->state) {
	case TAP_MATCH_NONE:
		return "no =~ or !~ has run in this probe yet";
	case TAP_MATCH_FAILED:
		return "the last =~ or !~ found no match";
	default:
		return NULL;
	}
}

void
tap_match_group(const struct tap_match *m, int n, char *dst)
{
	int len = 0;

	if (m->start[n] >= 0) {
		len = m->end[n] - m->start[n];
		tap_memcpy(dst, m->text + m->start[n], len);
	}
	dst[len] = '\0';
}
