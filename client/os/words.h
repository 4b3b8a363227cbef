/*-------------------------------------------------------------------------
 *
 * words.h
 *		Command lines without a shell: a string such as a variant's
 *		configure arguments split into words, and argv vectors built of them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_WORDS_H
#define PGBENCH_EXT_WORDS_H

extern char **split_words(const char *text, int *nwords, char **error);

/* An argv vector being built: always NULL-terminated. */
typedef struct Argv
{
	char	  **args;
	int			n;
	int			max;
} Argv;

extern void argv_add(Argv *a, const char *arg);
extern void argv_add_words(Argv *a, char *const *words);

#endif							/* PGBENCH_EXT_WORDS_H */
