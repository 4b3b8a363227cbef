/*-------------------------------------------------------------------------
 *
 * layout_io.c
 *		Struct layouts in and out: read from a live server's
 *		pgbench_ext.struct_layout(), saved to and loaded from JSON.
 *
 * A saved layout lets two builds be compared after one of them is gone
 * (or before the second exists), and gives tests a fixed input.  The file
 * is plain JSON, written and parsed with jansson:
 *
 *	{"format": "pgbench_ext layout", "format_version": 1,
 *	 "pgbench_ext": "1.0.0", "server_version": "15.5 ...",
 *	 "pg_cache_line_size": 128,
 *	 "structs": [{"name": "SnapshotData", "size": 120,
 *				  "fields": [{"name": "xmin", "type": "TransactionId",
 *							  "offset": 4, "size": 4}, ...]}, ...]}
 *
 * Fields keep declaration order, which is what the diff walks.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout.h"
#include "conn.h"
#include "safe_file.h"
#include "safe_read.h"

#include <ctype.h>

#include <jansson.h>

#include "common/logging.h"

#define LAYOUT_FORMAT_NAME		"pgbench_ext layout"
#define LAYOUT_FORMAT_VERSION	1

/* What a field's C type is written with: "PGPROC **", "Oid[FP_LOCK_SLOTS_PER_BACKEND]". */
#define TYPE_CHARACTERS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_ *[]"

static LayoutStructInfo *
find_or_add_struct(Layout *layout, const char *name, int *allocated)
{
	LayoutStructInfo *s;

	for (int i = 0; i < layout->nstructs; i++)
		if (strcmp(layout->structs[i].name, name) == 0)
			return &layout->structs[i];
	if (layout->nstructs == *allocated)
	{
		*allocated = Max(8, *allocated * 2);
		layout->structs = pg_realloc(layout->structs, sizeof(LayoutStructInfo) * *allocated);
	}
	s = &layout->structs[layout->nstructs++];
	memset(s, 0, sizeof(*s));
	s->name = pg_strdup(name);
	return s;
}

static void
add_field(LayoutStructInfo *s, const char *name, const char *type, int offset, int size)
{
	LayoutFieldInfo *f;

	/* Capacity is the next power of two (min 4): grow when full. */
	if ((s->nfields & (s->nfields - 1)) == 0)
		s->fields = pg_realloc(s->fields, sizeof(LayoutFieldInfo) * Max(4, s->nfields * 2));
	f = &s->fields[s->nfields++];
	f->name = pg_strdup(name);
	f->type = pg_strdup(type);
	f->offset = offset;
	f->size = size;
}

Layout *
layout_from_server(PGconn *conn)
{
	Layout	   *layout = pg_malloc0(sizeof(Layout));
	int			allocated = 0;
	PGresult   *res;

	layout->source = describe_conninfo(conn);

	res = exec_or_die(conn,
					  "SELECT current_setting('server_version'), "
					  "(SELECT bytes FROM pgbench_ext.cache_info() WHERE name = 'PG_CACHE_LINE_SIZE')");
	layout->server_version = pg_strdup(PQgetvalue(res, 0, 0));
	layout->pg_cache_line_size = atoi(PQgetvalue(res, 0, 1));
	PQclear(res);

	res = exec_or_die(conn,
					  "SELECT struct_name, field, type, byte_offset, size "
					  "FROM pgbench_ext.struct_layout()");
	for (int r = 0; r < PQntuples(res); r++)
	{
		LayoutStructInfo *s = find_or_add_struct(layout, PQgetvalue(res, r, 0), &allocated);

		if (strcmp(PQgetvalue(res, r, 1), "(total)") == 0)
			s->size = atoi(PQgetvalue(res, r, 4));
		else
			add_field(s, PQgetvalue(res, r, 1), PQgetvalue(res, r, 2),
					  atoi(PQgetvalue(res, r, 3)), atoi(PQgetvalue(res, r, 4)));
	}
	PQclear(res);
	return layout;
}

void
layout_save(const Layout *layout, const char *path)
{
	json_t	   *structs = json_array();
	json_t	   *root = json_pack("{s:s, s:i, s:s, s:s, s:i, s:o}", "format", LAYOUT_FORMAT_NAME,
								 "format_version", LAYOUT_FORMAT_VERSION, "pgbench_ext", PGBENCH_EXT_VERSION,
								 "server_version", layout->server_version,
								 "pg_cache_line_size", layout->pg_cache_line_size, "structs", structs);

	for (int i = 0; i < layout->nstructs; i++)
	{
		const LayoutStructInfo *s = &layout->structs[i];
		json_t	   *fields = json_array();

		for (int f = 0; f < s->nfields; f++)
			json_array_append_new(fields,
								  json_pack("{s:s, s:s, s:i, s:i}",
											"name", s->fields[f].name,
											"type", s->fields[f].type,
											"offset", s->fields[f].offset,
											"size", s->fields[f].size));
		json_array_append_new(structs, json_pack("{s:s, s:i, s:o}", "name", s->name, "size", s->size,
												 "fields", fields));
	}

	{
		char	   *error;
		FILE	   *f = safe_fopen_write(path, false, &error);

		if (f == NULL || json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0 ||
			!safe_fclose(f, &error))
			pg_fatal("%s", escape_text(psprintf("could not write layout file \"%s\": %s", path,
												f ? "write failed" : error), ESCAPE_TERMINAL_LINES));
	}
	json_decref(root);
}

/*
 * Whether s is a C identifier, as every struct and field name that
 * struct_layout() reports is: a layout file comes from a results directory
 * that may be anyone's, and its names end up in reports.
 */
static bool
is_identifier(const char *s)
{
	if (!(isalpha((unsigned char) s[0]) || s[0] == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char) *s) || *s == '_'))
			return false;
	return true;
}

/*
 * A saved layout, or NULL with *error saying what is wrong with the file:
 * the report reads layouts from results directories it must not die on.
 */
Layout *
layout_load_file(const char *path, char **error)
{
	json_error_t jerr;
	json_t	   *root;
	json_t	   *structs;
	const char *format = NULL;
	const char *version = "";
	int			format_version = 0;
	int			line_size = 0;
	Layout	   *layout = NULL;
	size_t		i;
	json_t	   *js;

	FILE	   *f;

	/* from a results directory that may be anyone's: bounded, regular */
	if ((f = safe_fopen_read(path, SAFE_MAX_JSON, error)) == NULL)
	{
		*error = psprintf("could not read layout file \"%s\": %s", path, *error);
		return NULL;
	}
	root = json_loadf(f, 0, &jerr);
	fclose(f);
	*error = NULL;
	if (root == NULL)
	{
		*error = psprintf("could not read layout file \"%s\": %s (line %d, column %d)",
						  path, jerr.text, jerr.line, jerr.column);
		return NULL;
	}
	if (json_unpack_ex(root, &jerr, 0, "{s:s, s:i, s?s, s?i, s:o}",
					   "format", &format, "format_version", &format_version,
					   "server_version", &version, "pg_cache_line_size", &line_size,
					   "structs", &structs) != 0)
		*error = pg_strdup(jerr.text);
	else if (strcmp(format, LAYOUT_FORMAT_NAME) != 0)
		*error = psprintf("format is \"%s\", expected \"%s\"", format, LAYOUT_FORMAT_NAME);
	else if (format_version != LAYOUT_FORMAT_VERSION)
		*error = psprintf("format_version %d, this client reads %d",
						  format_version, LAYOUT_FORMAT_VERSION);
	else if (!json_is_array(structs))
		*error = pg_strdup("\"structs\" is not an array");
	if (*error)
		goto done;

	layout = pg_malloc0(sizeof(Layout));
	layout->source = pg_strdup(path);
	layout->server_version = pg_strdup(version);
	layout->pg_cache_line_size = line_size;
	layout->nstructs = json_array_size(structs);
	layout->structs = pg_malloc0(sizeof(LayoutStructInfo) * Max(1, layout->nstructs));

	json_array_foreach(structs, i, js)
	{
		LayoutStructInfo *s = &layout->structs[i];
		const char *name;
		json_t	   *fields = NULL;
		size_t		k;
		json_t	   *jf;

		if (json_unpack_ex(js, &jerr, 0, "{s:s, s:i, s:o}",
						   "name", &name, "size", &s->size, "fields", &fields) != 0)
		{
			*error = psprintf("struct %zu: %s", i + 1, jerr.text);
			goto done;
		}
		if (!json_is_array(fields))
		{
			*error = psprintf("struct %zu: \"fields\" is not an array", i + 1);
			goto done;
		}
		if (!is_identifier(name))
		{
			*error = psprintf("struct %zu: name is not a C identifier", i + 1);
			goto done;
		}
		s->name = pg_strdup(name);
		json_array_foreach(fields, k, jf)
		{
			const char *fname;
			const char *ftype;
			int			offset;
			int			size;

			if (json_unpack_ex(jf, &jerr, 0, "{s:s, s:s, s:i, s:i}",
							   "name", &fname, "type", &ftype,
							   "offset", &offset, "size", &size) != 0)
			{
				*error = psprintf("%s field %zu: %s", s->name, k + 1, jerr.text);
				goto done;
			}
			if (!is_identifier(fname) || strspn(ftype, TYPE_CHARACTERS) != strlen(ftype))
			{
				*error = psprintf("%s field %zu: its name or type is not one of C", s->name, k + 1);
				goto done;
			}
			add_field(s, fname, ftype, offset, size);
		}
	}

done:
	json_decref(root);
	if (*error == NULL)
		return layout;
	*error = psprintf("\"%s\" is not a saved layout: %s", path, *error);
	return NULL;
}

Layout *
layout_from_file(const char *path)
{
	char	   *error;
	Layout	   *layout = layout_load_file(path, &error);

	if (layout == NULL)
	{
		log_error_text(error);
		if (strstr(error, "is not a saved layout") != NULL)
			pg_log_error_hint("Save one with \"%s layout --save FILE CONNINFO\".", progname);
		exit(EXIT_RUNTIME_ERROR);
	}
	return layout;
}
