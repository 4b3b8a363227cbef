/*-------------------------------------------------------------------------
 *
 * farm_machine.c
 *		A machine's facts, recorded in experiment.json when it runs an
 *		experiment, and the fingerprint that tells machines apart when
 *		results of many are read together (history, import, report).
 *
 * Why a fingerprint: two machines of one type differ by more than the
 * changes a benchmark looks for (kernel, microcode, CPU stepping, the
 * neighbours of a virtual machine; Meta's ServiceLab found it across its
 * fleet), so results of different machines are never pooled unless the
 * user asks.  The fingerprint is the SHA-256 of everything experiment.json
 * says of the machine: its "machine" object (CPU model, a digest of the
 * CPU flags, microcode, cores, memory, kernel, virtualization, host name)
 * and the extension's environment() rows of category "machine" (caches,
 * governor, turbo) from the first variant that has them.  It is computed
 * from the results each time they are read, never trusted from them.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "digest.h"
#include "farm.h"
#include "procfs.h"

#include <sys/utsname.h>
#include <unistd.h>

/* The first line of a sysfs file, or NULL. */
static char *
sys_line(const char *path)
{
	char	   *line = first_line_of_file(path);

	if (line != NULL)
		line[strcspn(line, "\n")] = '\0';
	return line != NULL && line[0] != '\0' ? line : NULL;
}

/*
 * What runs the machine: the hypervisor sysfs names, or the firmware's
 * vendor and product, or "none" when the CPU does not report running
 * under one.
 */
static char *
virtualization(const char *flags)
{
	char	   *hv = sys_line("/sys/hypervisor/type");
	char	   *vendor = sys_line("/sys/class/dmi/id/sys_vendor");
	char	   *product = sys_line("/sys/class/dmi/id/product_name");
	bool		guest = flags != NULL && strstr(flags, " hypervisor") != NULL;

	if (!guest)
		return pg_strdup("none");
	return psprintf("virtual machine%s%s%s%s%s%s", hv ? " (" : "", hv ? hv : "", hv ? ")" : "",
					vendor || product ? ": " : "", vendor ? vendor : "",
					product ? psprintf(" %s", product) : "");
}

/* The machine object of experiment.json for this machine. */
json_t *
farm_machine_json(void)
{
	struct utsname u;
	char		host[256] = "";
	char	   *flags = procfs_value("/proc/cpuinfo", "flags");
	char	   *model = procfs_value("/proc/cpuinfo", "model name");
	char	   *microcode = procfs_value("/proc/cpuinfo", "microcode");
	char	   *memory = procfs_value("/proc/meminfo", "MemTotal");
	json_t	   *m;

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	m = json_pack("{s:s, s:s, s:s, s:i}", "kernel", u.release, "arch", u.machine,
				  "hostname", host, "cpus", (int) sysconf(_SC_NPROCESSORS_ONLN));
	/* the flags run to hundreds of words, and a digest tells them apart as well */
	json_object_set_new(m, "cpu_flags_sha256",
						flags ? json_string(pnstrdup(sha256_of_string(flags), 16)) : json_null());
	json_object_set_new(m, "cpu_model", model ? json_string(model) : json_null());
	json_object_set_new(m, "microcode", microcode ? json_string(microcode) : json_null());
	json_object_set_new(m, "memory", memory ? json_string(memory) : json_null());
	json_object_set_new(m, "kernel_version", json_string(u.version));
	json_object_set_new(m, "virtualization", json_string(virtualization(flags)));
	return m;
}

/* The "machine" rows of the first variant's environment() that has any. */
static json_t *
environment_machine_rows(json_t *experiment)
{
	json_t	   *specs = json_object_get(json_object_get(experiment, "spec"), "variants");
	json_t	   *facts = json_object_get(experiment, "variants");
	json_t	   *rows = json_object();
	size_t		i,
				j;
	json_t	   *vs,
			   *row;

	json_array_foreach(specs, i, vs)
	{
		const char *name = json_string_value(json_object_get(vs, "name"));
		json_t	   *env = json_object_get(json_object_get(facts, name ? name : ""), "environment");

		json_array_foreach(env, j, row)
		{
			const char *cat = json_string_value(json_object_get(row, "category"));
			const char *key = json_string_value(json_object_get(row, "name"));

			if (cat != NULL && key != NULL && strcmp(cat, "machine") == 0)
				json_object_set(rows, key, json_object_get(row, "value"));
		}
		if (json_object_size(rows) > 0)
			break;
	}
	return rows;
}

/* 16 hex digits of the SHA-256 of a JSON value in canonical form */
static char *
json_digest(json_t *value)
{
	char	   *text = json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	char	   *digest = pnstrdup(sha256_of_string(text ? text : ""), 16);

	free(text);
	return digest;
}

FarmMachine
farm_machine_of(json_t *experiment)
{
	FarmMachine m;
	json_t	   *machine = json_object_get(experiment, "machine");
	const char *host = json_string_value(json_object_get(machine, "hostname"));

	m.facts = json_is_object(machine) ? json_deep_copy(machine) : json_object();
	json_object_set_new(m.facts, "environment", environment_machine_rows(experiment));
	m.fingerprint = json_digest(m.facts);
	/* shown on terminals: its control characters escaped */
	m.hostname = escape_text(host ? host : "", ESCAPE_TERMINAL);
	return m;
}

bool
farm_same_machine(const FarmPoint *pts, int n, char **error)
{
	for (int i = 1; i < n; i++)
		if (strcmp(pts[i].machine.fingerprint, pts[0].machine.fingerprint) != 0)
			return fail_with(error, "%s and %s ran on different machines (fingerprints %s of \"%s\" and %s of \"%s\")",
							 pts[0].label, pts[i].label,
							 pts[0].machine.fingerprint, pts[0].machine.hostname,
							 pts[i].machine.fingerprint, pts[i].machine.hostname);
	return true;
}

/*
 * The experiment's signature: what its runs measure — the load, scale,
 * clients, duration and the rest of the experiment's keys — without what
 * only decides how many runs there are (rounds, budget, restarts) and the
 * seed of their order.  The variants' settings and builds have their own
 * (the import keeps each variant's specification beside it).
 */
char *
farm_signature(json_t *experiment)
{
	json_t	   *load = json_deep_copy(json_object_get(json_object_get(experiment, "spec"), "experiment"));
	char	   *digest;

	if (load == NULL)
		load = json_object();
	json_object_del(load, "rounds");
	json_object_del(load, "budget");
	json_object_del(load, "restart");
	json_object_del(load, "seed");
	digest = json_digest(load);
	json_decref(load);
	return digest;
}
