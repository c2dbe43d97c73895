/*
 * shapes.h -- the probe-point shapes the providers answer (shapes.c), the
 * names a wildcard in a component's name is matched against.
 */
#ifndef TAPC_PROVIDERS_SHAPES_H
#define TAPC_PROVIDERS_SHAPES_H

/* Calls fn once per shape, given as `head` alone (tail NULL) or as the
 * two dotted halves `head`.`tail`; a component's argument is written
 * "(STRING)" or "(NUMBER)". */
void provider_shapes_each(void (*fn)(const char *head, const char *tail,
				     void *ctx), void *ctx);

#endif
