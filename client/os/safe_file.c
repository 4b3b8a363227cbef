/*-------------------------------------------------------------------------
 *
 * safe_file.c
 *		The client's one write path: every file it creates or replaces and
 *		every directory it makes goes through here (test/t/084_write_path.pl
 *		fails a client source that opens a file for writing, or makes or
 *		changes the mode or owner of anything, elsewhere).  Reading a
 *		results directory is safe_read.c's.
 *
 * Run as root, a write that follows a planted symbolic link clobbers any
 * file of the system, and a directory someone else may write into lets
 * them plant one after any check.  So:
 *
 * - A file is opened relative to a descriptor of its directory, which is
 *   opened without following a link (O_NOFOLLOW) and then checked on that
 *   descriptor (fstat): a directory that belongs to us (or, where the
 *   caller says so, to the server account: a data directory) and that
 *   neither group nor others may write.
 * - The file itself is opened with openat(O_NOFOLLOW | O_CLOEXEC): a link
 *   there is refused by name.  A new file is created with O_EXCL; a file
 *   that is replaced is written under NAME.tmp (O_EXCL) and renamed over
 *   NAME by safe_close()/safe_fclose(), so a planted file is never
 *   written into and a reader never sees half a file; a run's output,
 *   which is read while pgbench writes it, is made afresh in place
 *   (SAFE_FRESH: the old file removed, then O_EXCL); a file appended to
 *   must be a regular file of a single link (O_NONBLOCK: a FIFO cannot
 *   hang us).
 * - A directory is made with mkdirat() and then opened (O_NOFOLLOW) and
 *   checked with fstat() on that descriptor, never stat() then use; its
 *   mode and owner are set with fchmod()/fchown() on the same descriptor.
 * - A kernel setting (/proc/sys) is written in place, never created and
 *   never through a link.
 *
 * Directories above the one written into are the user's own path and are
 * followed; every directory the client makes or enters below a results
 * directory is checked as above each time a file is written in it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "account.h"
#include "safe_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

/* a file being written under NAME.tmp, renamed over NAME when closed */
typedef struct Pending
{
	int			fd;
	int			dirfd;
	char	   *tmp;			/* name in dirfd */
	char	   *name;
	char	   *path;			/* for messages */
	struct Pending *next;
} Pending;

static Pending *pending = NULL;

/* whether the last failure was a refusal (a link, a foreign directory ...) */
static bool refused = false;

/* Who a uid is, for messages. */
static const char *
user_named(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	return pw ? psprintf("user \"%s\"", pw->pw_name) : psprintf("uid %u", (unsigned) uid);
}

/* The server account's uid, or (uid_t) -1 when children run as we do. */
static uid_t
server_uid(void)
{
	const struct passwd *pw;
	char	   *ignored;

	if (!need_server_account() || (pw = server_account(&ignored)) == NULL)
		return (uid_t) -1;
	return pw->pw_uid;
}

/* path without its trailing slashes ("/" stays "/") */
static char *
trimmed(const char *path)
{
	char	   *p = pg_strdup(*path ? path : ".");
	size_t		len = strlen(p);

	while (len > 1 && p[len - 1] == '/')
		p[--len] = '\0';
	return p;
}

/* Split path into its directory and last component. */
static void
split_path(const char *path, char **dir, char **name)
{
	char	   *p = trimmed(path);
	char	   *slash = strrchr(p, '/');

	if (slash == NULL)
	{
		*dir = pg_strdup(".");
		*name = p;
	}
	else
	{
		*name = pg_strdup(slash + 1);
		*slash = '\0';
		*dir = trimmed(slash == p ? "/" : p);
	}
}

/*
 * Check an open directory: ours (or the server account's, with
 * SAFE_SERVER_DIR or SAFE_GIVE) and writable by neither group nor others;
 * or root's or ours and sticky, as /tmp is, where no one else can remove
 * or rename what we create (a file the user names there, such as a layout
 * file; results directories are never sticky).
 */
static bool
check_dir_fd(int fd, const char *path, int how, char **error)
{
	struct stat st;
	bool		owner_ok;

	if (fstat(fd, &st) != 0)
		return fail_with(error, "could not examine directory \"%s\": %m", path);
	if (!S_ISDIR(st.st_mode))
		return fail_with(error, "\"%s\" is not a directory: refusing to write into it", path);
	if ((st.st_mode & S_ISVTX) && (st.st_uid == 0 || st.st_uid == geteuid()))
		return true;
	owner_ok = st.st_uid == geteuid() ||
		((how & (SAFE_SERVER_DIR | SAFE_GIVE)) && st.st_uid == server_uid());
	if (!owner_ok)
	{
		refused = true;
		*error = psprintf("directory \"%s\" belongs to %s, not to you (%s): refusing to write into it\n"
						  "hint: Someone else could replace what %s writes there; use a directory of your own (a copy, for a report).",
						  path, user_named(st.st_uid), user_named(geteuid()), progname);
		return false;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH))
	{
		refused = true;
		*error = psprintf("directory \"%s\" is writable by group or others (mode %04o): refusing to write into it\n"
						  "hint: Make it private (chmod go-w \"%s\"); others could plant links in it.",
						  path, (unsigned) (st.st_mode & 07777), path);
		return false;
	}
	return true;
}

/* Describe why opening path without following a link failed. */
static char *
open_problem(const char *path, const char *what)
{
	struct stat st;

	refused = errno == ELOOP || errno == ENOTDIR || errno == ENXIO;
	/* O_DIRECTORY | O_NOFOLLOW fails on a link to a directory with ENOTDIR */
	if (errno == ELOOP || (errno == ENOTDIR && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)))
		return psprintf("\"%s\" is a symbolic link: refusing to %s through it\n"
						"hint: Remove the link; %s writes only regular files and directories of its own there.",
						path, what, progname);
	if (errno == ENOTDIR)
		return psprintf("\"%s\" is not a directory: refusing to %s through it\n"
						"hint: Remove it; %s makes its directories itself.",
						path, what, progname);
	if (errno == ENXIO)
		return psprintf("\"%s\" is a FIFO or socket: refusing to %s it\n"
						"hint: Remove it; %s writes only regular files there.",
						path, what, progname);
	return psprintf("could not open \"%s\": %m", path);
}

/*
 * A checked descriptor of directory path (its last component not followed),
 * or -1 with error.
 */
static int
open_checked_dir(const char *path, int how, char **error)
{
	int			fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
	{
		*error = open_problem(path, "write");
		return -1;
	}
	if (!check_dir_fd(fd, path, how, error))
	{
		close(fd);
		return -1;
	}
	return fd;
}

/* "is a symbolic link", "is a FIFO" ...: why name in dirfd cannot be written */
static char *
not_regular(int dirfd, const char *name, const char *path)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return NULL;
	refused = S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode) || st.st_nlink != 1;
	if (S_ISLNK(st.st_mode))
		return psprintf("\"%s\" is a symbolic link: refusing to write through it\n"
						"hint: Remove the link; %s writes only regular files there.",
						path, progname);
	if (!S_ISREG(st.st_mode))
		return psprintf("\"%s\" is not a regular file (%s): refusing to write to it\n"
						"hint: Remove it; %s writes only regular files there.",
						path, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
						S_ISSOCK(st.st_mode) ? "a socket" : "a device", progname);
	if (st.st_nlink != 1)
		return psprintf("\"%s\" has another hard link: refusing to write to it\n"
						"hint: Remove it; %s writes only regular files of a single link there.",
						path, progname);
	return NULL;
}

/* Replace: write NAME.tmp, made afresh; a stale one of ours is removed first. */
static int
open_replacement(int dirfd, const char *name, const char *path, char **error)
{
	char	   *tmp = psprintf("%s.tmp", name);
	char	   *tmp_path = psprintf("%s.tmp", path);
	Pending    *p;
	int			fd;

	if ((*error = not_regular(dirfd, name, path)) != NULL)
		return -1;
	for (int attempt = 0;; attempt++)
	{
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST || attempt > 0)
			break;
		/* left by a crash: ours (the directory is), removed if a regular file */
		if ((*error = not_regular(dirfd, tmp, tmp_path)) != NULL)
			return -1;
		(void) unlinkat(dirfd, tmp, 0);
	}
	if (fd < 0)
	{
		*error = psprintf("could not create \"%s\": %m", tmp_path);
		return -1;
	}
	p = pg_malloc0(sizeof(Pending));
	p->fd = fd;
	p->dirfd = dirfd;
	p->tmp = tmp;
	p->name = pg_strdup(name);
	p->path = pg_strdup(path);
	p->next = pending;
	pending = p;
	return fd;
}

/* Append (or create with SAFE_NEW): a regular file of one link, in place. */
static int
open_in_place(int dirfd, const char *name, const char *path, int how, char **error)
{
	int			fd;

	if ((fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
					 ((how & SAFE_NEW) ? O_EXCL : 0), 0644)) < 0)
	{
		if (errno != EEXIST)
		{
			*error = open_problem(path, "write");
			return -1;
		}
		refused = true;
		*error = psprintf("\"%s\" exists already: refusing to write to it\n"
						  "hint: %s creates it; remove it, or use a new directory.",
						  path, progname);
		return -1;
	}
	if ((*error = not_regular(dirfd, name, path)) != NULL)
	{
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_SETFL, O_APPEND) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Open path for writing as "how" says (SAFE_APPEND, SAFE_NEW, SAFE_FRESH,
 * else replace; SAFE_SERVER_DIR).  Returns a descriptor to give to safe_close(), or -1
 * with error (a message and a "\nhint: " line).
 */
int
safe_open_file(const char *path, int how, char **error)
{
	char	   *dir;
	char	   *name;
	int			dirfd;
	int			fd;

	refused = false;
	split_path(path, &dir, &name);
	if ((dirfd = open_checked_dir(dir, how, error)) < 0)
		return -1;
	/*
	 * SAFE_FRESH: what a run left (an interrupted one, on --resume) is
	 * removed, in a directory checked to be ours, unless it is a link or
	 * anything but a regular file: that is refused by name.
	 */
	if ((how & SAFE_FRESH) && (*error = not_regular(dirfd, name, path)) != NULL)
		fd = -1;
	else if (how & SAFE_FRESH)
	{
		(void) unlinkat(dirfd, name, 0);
		fd = open_in_place(dirfd, name, path, how | SAFE_NEW, error);
	}
	else if (how & (SAFE_APPEND | SAFE_NEW))
		fd = open_in_place(dirfd, name, path, how, error);
	else
		fd = open_replacement(dirfd, name, path, error);
	/* a replacement keeps the directory's descriptor for its rename */
	if (fd < 0 || (how & (SAFE_APPEND | SAFE_NEW | SAFE_FRESH)))
		close(dirfd);
	return fd;
}

/*
 * Whether the last failure of safe_open_file(), safe_mkdir() or
 * safe_results_dir() was a refusal of what someone put there (exit status
 * 2, as for other refused input) rather than a failure to write.
 */
bool
safe_file_refused(void)
{
	return refused;
}

/* Append to path, or replace it (then safe_close() commits it). */
int
safe_open_write(const char *path, bool append, char **error)
{
	return safe_open_file(path, append ? SAFE_APPEND : 0, error);
}

static Pending *
take_pending(int fd)
{
	for (Pending **pp = &pending; *pp; pp = &(*pp)->next)
		if ((*pp)->fd == fd)
		{
			Pending    *p = *pp;

			*pp = p->next;
			return p;
		}
	return NULL;
}

/* Rename a finished replacement over its name (ok), or drop it. */
static bool
finish(Pending *p, bool ok, char **error)
{
	if (ok && renameat(p->dirfd, p->tmp, p->dirfd, p->name) != 0)
		ok = false;
	if (!ok)
	{
		*error = psprintf("could not write \"%s\": %m", p->path);
		(void) unlinkat(p->dirfd, p->tmp, 0);
	}
	close(p->dirfd);
	return ok;
}

/*
 * After a close: a replacement (p) renamed into place if ok, else dropped;
 * a file written in place needs nothing more.
 */
static bool
closed(Pending *p, bool ok, char **error)
{
	if (p != NULL)
		return finish(p, ok, error);
	if (!ok)
		*error = psprintf("could not write a file: %m");
	return ok;
}

/*
 * Close a descriptor of safe_open_file(); a replacement is synced and
 * renamed over its name.
 */
bool
safe_close(int fd, char **error)
{
	Pending    *p = take_pending(fd);
	bool		ok = p == NULL || fsync(fd) == 0;

	return closed(p, close(fd) == 0 && ok, error);
}

/* Close without keeping what was written to a replacement. */
void
safe_abandon(int fd)
{
	Pending    *p = take_pending(fd);
	char	   *ignored;

	close(fd);
	(void) closed(p, false, &ignored);
}

/* safe_abandon() for a stream of safe_fopen_write() */
void
safe_abandon_stream(FILE *f)
{
	Pending    *p = take_pending(fileno(f));
	char	   *ignored;

	fclose(f);
	(void) closed(p, false, &ignored);
}

/* safe_open_write() as a stdio stream, to be closed by safe_fclose(). */
FILE *
safe_fopen_write(const char *path, bool append, char **error)
{
	int			fd = safe_open_write(path, append, error);
	FILE	   *f;

	if (fd < 0)
		return NULL;
	if ((f = fdopen(fd, append ? "a" : "w")) == NULL)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		safe_abandon(fd);
	}
	return f;
}

/* fclose() for safe_fopen_write(): flushed, synced, renamed into place. */
bool
safe_fclose(FILE *f, char **error)
{
	Pending    *p = take_pending(fileno(f));
	bool		ok = fflush(f) == 0 && !ferror(f) && (p == NULL || fsync(fileno(f)) == 0);

	return closed(p, fclose(f) == 0 && ok, error);
}

/*
 * Write text to path, synced to disk: replaced, or appended with
 * SAFE_APPEND in how (and SAFE_SERVER_DIR as safe_open_file() takes it).
 */
bool
safe_write_file(const char *path, const char *text, int how, char **error)
{
	int			fd = safe_open_file(path, how, error);
	size_t		len = strlen(text);
	bool		append = (how & SAFE_APPEND) != 0;

	if (fd < 0)
		return false;
	if (write(fd, text, len) != (ssize_t) len || (append && fsync(fd) != 0))
	{
		*error = psprintf("could not write \"%s\": %m", path);
		safe_abandon(fd);
		return false;
	}
	return safe_close(fd, error);
}

/*
 * Set a kernel setting: write value to an existing file under /proc/sys/
 * (vm.nr_hugepages), never creating one and never through a link.
 */
bool
safe_write_sysctl(const char *path, const char *value, char **error)
{
	int			fd;
	size_t		len = strlen(value);
	bool		ok;

	if (strncmp(path, "/proc/sys/", 10) != 0 || strstr(path, "..") != NULL)
		return fail_with(error, "\"%s\" is not a kernel setting under /proc/sys", path);
	if ((fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return fail_with(error, "could not open \"%s\": %m", path);
	ok = write(fd, value, len) == (ssize_t) len;
	if (!ok)
		*error = psprintf("could not write \"%s\" to \"%s\": %m", value, path);
	close(fd);
	return ok;
}

/* Remove a file of ours (a link is removed, never what it points to). */
bool
safe_remove_file(const char *path, char **error)
{
	char	   *dir;
	char	   *name;
	int			dirfd;
	bool		ok;

	split_path(path, &dir, &name);
	if ((dirfd = open_checked_dir(dir, 0, error)) < 0)
		return false;
	ok = unlinkat(dirfd, name, 0) == 0 || errno == ENOENT;
	if (!ok)
		*error = psprintf("could not remove \"%s\": %m", path);
	close(dirfd);
	return ok;
}

/*
 * Make directory path (mode), or enter it if it exists, and check it on its
 * descriptor: a directory (not a link), ours and private.  The mode is set
 * on that descriptor whatever the umask; SAFE_GIVE hands it to the server
 * account (one it made earlier is accepted).
 */
bool
safe_mkdir(const char *path, mode_t mode, int how, char **error)
{
	char	   *parent;
	char	   *name;
	int			pfd;
	int			fd;
	struct stat st;
	const struct passwd *pw;
	bool		made;
	bool		ok;

	refused = false;
	split_path(path, &parent, &name);
	if ((pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return fail_with(error, "could not create directory \"%s\": %m", path);
	made = mkdirat(pfd, name, mode) == 0;
	if (!made && errno != EEXIST)
	{
		*error = psprintf("could not create directory \"%s\": %m", path);
		close(pfd);
		return false;
	}
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	if (fd < 0)
	{
		*error = open_problem(path, "write");
		return false;
	}
	ok = check_dir_fd(fd, path, how, error);
	/* one the server account was given earlier is left as it is */
	if (ok && fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
		(fchmod(fd, mode) != 0 ||
		 ((how & SAFE_GIVE) && need_server_account() &&
		  ((pw = server_account(error)) == NULL || fchown(fd, pw->pw_uid, pw->pw_gid) != 0))))
	{
		*error = psprintf("could not set the mode or owner of directory \"%s\": %m", path);
		ok = false;
	}
	close(fd);
	return ok;
}

/*
 * Make path and the directories above it that are missing (those 0755);
 * path itself is checked as by safe_mkdir().
 */
bool
safe_mkdir_p(const char *path, mode_t mode, char **error)
{
	char	   *p = trimmed(path);

	for (char *s = p + 1; *s; s++)
	{
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			return fail_with(error, "could not create directory \"%s\": %m", p);
		*s = '/';
	}
	return safe_mkdir(p, mode, 0, error);
}

/* A new directory PREFIXXXXXXX (mode 0700, ours); NULL with error. */
char *
safe_mkdtemp(const char *prefix, char **error)
{
	char	   *template = psprintf("%sXXXXXX", prefix);

	if (mkdtemp(template) == NULL)
	{
		*error = psprintf("could not create a directory \"%sXXXXXX\": %m", prefix);
		return NULL;
	}
	return template;
}

/*
 * A directory we write into again (a cluster's, on --resume): a real
 * directory, not a link, owned by us and writable by nobody else, so that
 * nobody else can put a link into it.
 */
bool
safe_check_private_dir(const char *path, char **error)
{
	int			fd = open_checked_dir(path, 0, error);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * Every entry of directory path: a regular file of one link, or (where
 * dirs_ok) a directory; a link, FIFO, device or socket is refused by name.
 * With dirs_private, each directory must also be private and ours.
 */
static bool
entries_plain(const char *path, bool dirs_ok, bool dirs_private, char **error)
{
	int			fd = open_checked_dir(path, 0, error);
	DIR		   *d;
	struct dirent *de;
	bool		ok = true;

	if (fd < 0)
		return false;
	if ((d = fdopendir(fd)) == NULL)
	{
		*error = psprintf("could not read directory \"%s\": %m", path);
		close(fd);
		return false;
	}
	while (ok && (de = readdir(d)) != NULL)
	{
		char	   *name = psprintf("%s/%s", path, de->d_name);
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;			/* gone meanwhile */
		if (S_ISDIR(st.st_mode) && dirs_ok)
			ok = !dirs_private || safe_check_private_dir(name, error);
		else if (S_ISDIR(st.st_mode))
		{
			refused = true;
			*error = psprintf("\"%s\" is a directory where %s keeps only files: refusing to use it\n"
							  "hint: Remove it, or use a new results directory.", name, progname);
			ok = false;
		}
		else if ((*error = not_regular(fd, de->d_name, name)) != NULL)
			ok = false;
	}
	closedir(d);
	return ok;
}

/*
 * The results directory of run -o DIR (made if absent, unless must_exist),
 * of --resume and of calibrate: a directory of ours that no one else may
 * write; so is every directory in it that the client enters (runs/,
 * clusters/ and each cluster's, plots/, profiles/), and every file in
 * them is a regular file, not a link planted for us to write through.
 * Checked before anything runs: refused with the name of what failed.
 */
bool
safe_results_dir(const char *path, bool must_exist, char **error)
{
	static const char *const files_only[] = {"runs", "plots", "profiles"};
	char	   *clusters = psprintf("%s/clusters", path);
	struct stat st;

	if (!must_exist && lstat(path, &st) != 0)
		return safe_mkdir_p(path, 0755, error);
	if (!safe_check_private_dir(path, error) ||
		!entries_plain(path, true, false, error))
		return false;
	for (int i = 0; i < lengthof(files_only); i++)
	{
		char	   *sub = psprintf("%s/%s", path, files_only[i]);

		if (lstat(sub, &st) == 0 && !entries_plain(sub, false, false, error))
			return false;
	}
	/* each cluster's directory is ours; its data/ is the server account's */
	return lstat(clusters, &st) != 0 || entries_plain(clusters, true, true, error);
}

/*
 * When we are root: give a file or directory we made to the server
 * account, on a descriptor opened without following a link.
 */
bool
safe_give_to_server_account(const char *path, char **error)
{
	const struct passwd *pw;
	int			fd;
	bool		ok;

	if (!need_server_account())
		return true;
	if ((pw = server_account(error)) == NULL)
		return false;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
	{
		*error = open_problem(path, "give away");
		return false;
	}
	ok = fchown(fd, pw->pw_uid, pw->pw_gid) == 0;
	if (!ok)
		*error = psprintf("could not give \"%s\" to user \"%s\": %m", path, pw->pw_name);
	close(fd);
	return ok;
}
