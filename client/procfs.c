/*-------------------------------------------------------------------------
 *
 * procfs.c
 *		The one reader of /proc/PID/stat: whether a server is still alive
 *		(cluster.c), which processes a postmaster started, to pin them
 *		(quiet.c) or to wait for them to settle under valgrind
 *		(profile_counted.c); and of the "key: value" lines of /proc files
 *		(a process's status, meminfo, cpuinfo).
 *
 * The line is "PID (COMM) STATE PPID ...", and COMM may hold anything,
 * spaces and ')' included, so the fields are read after the last ')'.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "procfs.h"

#include <dirent.h>

bool
procfs_stat(pid_t pid, char *state, pid_t *parent)
{
	char		path[64];
	char		line[1024];
	char	   *close_paren;
	char		letter;
	long		ppid;
	bool		found = false;
	FILE	   *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long) pid);
	if ((f = fopen(path, "re")) == NULL)
		return false;
	if (fgets(line, sizeof(line), f) && (close_paren = strrchr(line, ')')) != NULL &&
		sscanf(close_paren + 1, " %c %ld", &letter, &ppid) == 2)
	{
		*state = letter;
		*parent = (pid_t) ppid;
		found = true;
	}
	fclose(f);
	return found;
}

int
procfs_children(pid_t pid, pid_t *out, int max)
{
	DIR		   *proc = opendir("/proc");
	struct dirent *de;
	int			n = 0;

	if (proc == NULL)
		return -1;
	while ((de = readdir(proc)) != NULL && n < max)
	{
		pid_t		child = (pid_t) atol(de->d_name);
		pid_t		parent;
		char		state;

		if (child > 0 && procfs_stat(child, &state, &parent) && parent == pid)
			out[n++] = child;
	}
	closedir(proc);
	return n;
}

/*
 * The value of the first line of a /proc file of the form "key<blanks>:
 * value" whose key is the one given, or NULL.
 */
char *
procfs_value(const char *path, const char *key)
{
	FILE	   *f = fopen(path, "re");
	char	   *line = NULL;
	size_t		cap = 0;
	char	   *found = NULL;
	size_t		klen = strlen(key);

	if (f == NULL)
		return NULL;
	while (found == NULL && getline(&line, &cap, f) > 0)
	{
		char	   *colon = strchr(line, ':');
		char	   *end = colon;

		if (colon == NULL || strncmp(line, key, klen) != 0)
			continue;
		while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end - line != (ptrdiff_t) klen)
			continue;
		for (colon++; *colon == ' ' || *colon == '\t'; colon++)
			;
		colon[strcspn(colon, "\n")] = '\0';
		found = pg_strdup(colon);
	}
	free(line);
	fclose(f);
	return found;
}
