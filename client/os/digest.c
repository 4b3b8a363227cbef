/*-------------------------------------------------------------------------
 *
 * digest.c
 *		SHA-256 checksums (libpgcommon's pg_cryptohash) of strings, files
 *		and directory trees.
 *
 * A tree's checksum covers every regular file's path, size and
 * modification time, in byte order of the paths: cheap, and it notices
 * local edits.  Symbolic links are neither followed nor counted, and a
 * top-level .git is skipped.  Files are read here, in the client, never
 * through a link (open_regular_file()): what a tree contains is data,
 * whoever owns it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "digest.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cryptohash.h"
#include "common/logging.h"
#include "common/sha2.h"
#include "pqexpbuffer.h"

/*
 * Open a regular file for reading, through a link only if follow_link (a
 * path the user named), never blocking on a FIFO put in its place: -1
 * with errno set otherwise.
 */
int
open_regular_file(const char *path, bool follow_link)
{
	int			fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow_link ? 0 : O_NOFOLLOW));
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)))
	{
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static pg_cryptohash_ctx *
sha256_begin(void)
{
	pg_cryptohash_ctx *ctx = pg_cryptohash_create(PG_SHA256);

	if (ctx == NULL || pg_cryptohash_init(ctx) < 0)
		pg_fatal("could not start a SHA-256 checksum: %s", pg_cryptohash_error(ctx));
	return ctx;
}

static void
sha256_add(pg_cryptohash_ctx *ctx, const void *data, size_t len)
{
	if (pg_cryptohash_update(ctx, data, len) < 0)
		pg_fatal("could not compute a SHA-256 checksum: %s", pg_cryptohash_error(ctx));
}

/* The checksum as 64 hex digits; ctx is freed. */
static char *
sha256_end(pg_cryptohash_ctx *ctx)
{
	uint8		digest[PG_SHA256_DIGEST_LENGTH];
	char	   *hex = pg_malloc(2 * PG_SHA256_DIGEST_LENGTH + 1);

	if (pg_cryptohash_final(ctx, digest, sizeof(digest)) < 0)
		pg_fatal("could not compute a SHA-256 checksum: %s", pg_cryptohash_error(ctx));
	pg_cryptohash_free(ctx);
	for (int i = 0; i < PG_SHA256_DIGEST_LENGTH; i++)
		sprintf(hex + 2 * i, "%02x", digest[i]);
	return hex;
}

char *
sha256_of_string(const char *text)
{
	pg_cryptohash_ctx *ctx = sha256_begin();

	sha256_add(ctx, text, strlen(text));
	return sha256_end(ctx);
}

/* The checksum of the contents of a file the user named, or NULL with *error set. */
char *
sha256_of_file(const char *path, char **error)
{
	int			fd = open_regular_file(path, true);
	pg_cryptohash_ctx *ctx;
	char		buf[65536];
	ssize_t		n;

	if (fd < 0)
	{
		*error = psprintf("could not open \"%s\": %m", path);
		return NULL;
	}
	ctx = sha256_begin();
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_add(ctx, buf, n);
	if (n < 0)
	{
		*error = psprintf("could not read \"%s\": %m", path);
		close(fd);
		pg_cryptohash_free(ctx);
		return NULL;
	}
	close(fd);
	return sha256_end(ctx);
}

typedef struct Manifest
{
	char	  **lines;
	int			n;
	int			max;
	bool		(*wanted) (const char *name);
} Manifest;

static void
manifest_walk(Manifest *m, const char *top, const char *rel)
{
	char	   *path = psprintf("%s/%s", top, rel);
	struct stat st;

	if (lstat(path, &st) != 0)
		return;
	if (S_ISREG(st.st_mode))
	{
		const char *base = strrchr(rel, '/');

		if (m->wanted && !m->wanted(base ? base + 1 : rel))
			return;
		if (m->n == m->max)
			m->lines = pg_realloc(m->lines, sizeof(char *) * (m->max = Max(1024, 2 * m->max)));
		m->lines[m->n++] = psprintf("%s %lld %lld.%09ld", rel, (long long) st.st_size,
									(long long) st.st_mtim.tv_sec, (long) st.st_mtim.tv_nsec);
	}
	else if (S_ISDIR(st.st_mode))
	{
		DIR		   *d = opendir(path);
		struct dirent *de;

		if (d == NULL)
			return;
		while ((de = readdir(d)) != NULL)
		{
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
				(strcmp(rel, ".") == 0 && strcmp(de->d_name, ".git") == 0))
				continue;
			manifest_walk(m, top, strcmp(rel, ".") == 0 ? de->d_name : psprintf("%s/%s", rel, de->d_name));
		}
		closedir(d);
	}
}

static int
compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/*
 * The checksum of the tree under top: of the given paths under it (NULL:
 * all of it), and of the files among them whose name wanted() accepts
 * (NULL: every file).
 */
char *
sha256_of_tree(const char *top, const char *const *paths, bool (*wanted) (const char *name))
{
	Manifest	m = {NULL, 0, 0, wanted};
	pg_cryptohash_ctx *ctx;

	if (paths == NULL)
		manifest_walk(&m, top, ".");
	else
		for (int i = 0; paths[i]; i++)
			manifest_walk(&m, top, paths[i]);
	qsort(m.lines, m.n, sizeof(char *), compare_lines);
	ctx = sha256_begin();
	for (int i = 0; i < m.n; i++)
	{
		sha256_add(ctx, m.lines[i], strlen(m.lines[i]));
		sha256_add(ctx, "\n", 1);
		pg_free(m.lines[i]);
	}
	pg_free(m.lines);
	return sha256_end(ctx);
}

/* A file's first line without its newline; "" if it cannot be read (or is a link). */
char *
first_line_of_file(const char *path)
{
	int			fd = open_regular_file(path, false);
	FILE	   *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char		line[1024] = "";

	if (f == NULL)
	{
		if (fd >= 0)
			close(fd);
		return pg_strdup("");
	}
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return pg_strdup(line);
}
