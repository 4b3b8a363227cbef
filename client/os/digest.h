/*-------------------------------------------------------------------------
 *
 * digest.h
 *		SHA-256 checksums of strings, files and directory trees, as the
 *		build cache's keys and identities use them, and reading files that
 *		someone else may have put in place.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_DIGEST_H
#define PGBENCH_EXT_DIGEST_H

extern char *sha256_of_string(const char *text);
extern char *sha256_of_file(const char *path, char **error);
extern char *sha256_of_tree(const char *top, const char *const *paths,
							bool (*wanted) (const char *name));
extern char *first_line_of_file(const char *path);
extern int	open_regular_file(const char *path, bool follow_link);

#endif							/* PGBENCH_EXT_DIGEST_H */
