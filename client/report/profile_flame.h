/*-------------------------------------------------------------------------
 *
 * profile_flame.h
 *	  A differential flame graph as a self-contained SVG (profile_flame.c).
 *
 * Plain C99 with libc only, unit-tested for its widths, colours and the
 * escaping of every text it writes.
 *
 * client/report/profile_flame.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PROFILE_FLAME_H
#define PROFILE_FLAME_H

#include <stdio.h>

#include "profile_data.h"

/*
 * Draw B's stacks, each frame as wide as B's cost in it and coloured by
 * the change of that cost against A's (red more, blue less, white none;
 * full colour at +-FLAME_FULL_CHANGE).  unit names the cost ("instructions
 * per transaction").  Returns the number of frames drawn.
 */
#define FLAME_FULL_CHANGE 0.5
#define FLAME_WIDTH 1200

extern int	prof_flame_svg(FILE *out, const ProfStack *a, int na,
						   const ProfStack *b, int nb,
						   const char *title, const char *unit);

#endif							/* PROFILE_FLAME_H */
