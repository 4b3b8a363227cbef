/*-------------------------------------------------------------------------
 *
 * words.c
 *		Command lines without a shell: splitting a string into argv words
 *		by the shell's quoting rules, with no expansion of any kind, and
 *		building argv vectors.
 *
 * The rule (docs/building.md): words are separated by unquoted blanks
 * (space, tab, newline).  Inside '...' every character stands for itself.
 * Inside "..." a backslash escapes only " and \, and stands for itself
 * before anything else.  Outside quotes a backslash escapes the character
 * after it.  Quoted and unquoted parts next to each other make one word;
 * '' and "" make an empty word.  $, `, *, ?, ~, ;, | and the like are
 * ordinary characters: nothing is expanded and nothing is run, so a value
 * means the same whoever runs it and whatever the environment holds.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "pqexpbuffer.h"
#include "words.h"

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * The words of text as a NULL-terminated array (*nwords of them), or NULL
 * with *error set when a quote is not closed or a backslash ends the text.
 */
char **
split_words(const char *text, int *nwords, char **error)
{
	int			max = 8;
	char	  **words = pg_malloc(sizeof(char *) * max);
	PQExpBufferData word;
	bool		in_word = false;
	const char *p = text ? text : "";

	*nwords = 0;
	initPQExpBuffer(&word);
	for (;;)
	{
		char		c = *p;

		if (c == '\0' || is_blank(c))
		{
			if (in_word)
			{
				if (*nwords + 1 >= max)
					words = pg_realloc(words, sizeof(char *) * (max *= 2));
				words[(*nwords)++] = pg_strdup(word.data);
				resetPQExpBuffer(&word);
				in_word = false;
			}
			if (c == '\0')
				break;
			p++;
			continue;
		}
		in_word = true;
		if (c == '\'')
		{
			const char *end = strchr(p + 1, '\'');

			if (end == NULL)
			{
				*error = psprintf("unterminated ' quote in \"%s\"", text);
				goto fail;
			}
			appendBinaryPQExpBuffer(&word, p + 1, end - p - 1);
			p = end + 1;
		}
		else if (c == '"')
		{
			for (p++; *p != '"'; p++)
			{
				if (*p == '\0')
				{
					*error = psprintf("unterminated \" quote in \"%s\"", text);
					goto fail;
				}
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				appendPQExpBufferChar(&word, *p);
			}
			p++;
		}
		else if (c == '\\')
		{
			if (p[1] == '\0')
			{
				*error = psprintf("a backslash ends \"%s\" with nothing to escape", text);
				goto fail;
			}
			appendPQExpBufferChar(&word, p[1]);
			p += 2;
		}
		else
		{
			appendPQExpBufferChar(&word, c);
			p++;
		}
	}
	termPQExpBuffer(&word);
	words[*nwords] = NULL;
	return words;

fail:
	termPQExpBuffer(&word);
	for (int i = 0; i < *nwords; i++)
		pg_free(words[i]);
	pg_free(words);
	*nwords = 0;
	return NULL;
}

void
argv_add(Argv *a, const char *arg)
{
	if (a->n + 2 > a->max)
	{
		a->max = Max(16, a->max * 2);
		a->args = pg_realloc(a->args, sizeof(char *) * a->max);
	}
	a->args[a->n++] = pg_strdup(arg);
	a->args[a->n] = NULL;
}

void
argv_add_words(Argv *a, char *const *words)
{
	for (int i = 0; words && words[i]; i++)
		argv_add(a, words[i]);
}
