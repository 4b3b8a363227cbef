/*-------------------------------------------------------------------------
 *
 * machine.c
 *		Facts about the host machine: CPU model and count, caches.
 *
 * Read from /proc and sysfs on Linux.  Anything unreadable (containers,
 * other kernels) is reported as absent rather than as an error: these
 * facts annotate a benchmark, they never stop one.
 *
 *-------------------------------------------------------------------------
 */
#include "machine.h"

#include <unistd.h>

#include "lib/stringinfo.h"

/*
 * Read the first line of a small file into buf, without the newline.
 * Returns false if the file cannot be read.
 */
bool
machine_read_line(const char *path, char *buf, size_t len)
{
	FILE	   *f = fopen(path, "r");
	bool		ok;

	if (f == NULL)
		return false;
	ok = (fgets(buf, len, f) != NULL);
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

bool
machine_cpu_model(char *buf, size_t len)
{
	FILE	   *f = fopen("/proc/cpuinfo", "r");
	char		line[512];
	bool		found = false;

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL)
	{
		/* x86 says "model name", arm64 has no model name but "CPU part" */
		if (strncmp(line, "model name", 10) == 0)
		{
			char	   *colon = strchr(line, ':');

			if (colon != NULL)
			{
				colon++;
				while (*colon == ' ' || *colon == '\t')
					colon++;
				strlcpy(buf, colon, len);
				buf[strcspn(buf, "\n")] = '\0';
				found = true;
				break;
			}
		}
	}
	fclose(f);
	return found;
}

int
machine_cpu_count(void)
{
	long		n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int) n : 0;
}

/* Parse sysfs sizes such as "32K", "1024K", "32M". */
static int64
parse_sysfs_size(const char *s)
{
	char	   *end;
	int64		v = strtol(s, &end, 10);

	if (*end == 'K')
		v *= 1024;
	else if (*end == 'M')
		v *= 1024 * 1024;
	else if (*end == 'G')
		v *= INT64CONST(1024) * 1024 * 1024;
	return v;
}

/*
 * Describe the caches of CPU 0 as sysfs lists them.  Returns how many were
 * filled, 0 when sysfs has no cache information.
 */
int
machine_caches(MachineCache *caches, int max_caches)
{
	int			n = 0;

	for (int idx = 0; idx < 16 && n < max_caches; idx++)
	{
		char		path[128];
		char		buf[64];
		MachineCache *c = &caches[n];

		snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu0/cache/index%d/level", idx);
		if (!machine_read_line(path, buf, sizeof(buf)))
			break;
		memset(c, 0, sizeof(*c));
		c->level = atoi(buf);

		snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu0/cache/index%d/type", idx);
		if (machine_read_line(path, buf, sizeof(buf)))
			strlcpy(c->type, buf, sizeof(c->type));

		snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu0/cache/index%d/size", idx);
		if (machine_read_line(path, buf, sizeof(buf)))
			c->size_bytes = parse_sysfs_size(buf);

		snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", idx);
		if (machine_read_line(path, buf, sizeof(buf)))
			c->line_bytes = atoi(buf);
		n++;
	}
	return n;
}

/* "L1d", "L1i", "L2": the usual short name of a cache; palloc'd. */
char *
machine_cache_label(const MachineCache *cache)
{
	const char *suffix = strcmp(cache->type, "Data") == 0 ? "d"
		: strcmp(cache->type, "Instruction") == 0 ? "i" : "";

	return psprintf("L%d%s", cache->level, suffix);
}

/* "32 kB", "1 MB", in PostgreSQL's unit spelling; palloc'd. */
char *
machine_format_bytes(int64 bytes)
{
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
		return psprintf(INT64_FORMAT " MB", bytes / (1024 * 1024));
	if (bytes >= 1024 && bytes % 1024 == 0)
		return psprintf(INT64_FORMAT " kB", bytes / 1024);
	return psprintf(INT64_FORMAT " bytes", bytes);
}
