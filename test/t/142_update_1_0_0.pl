# The update from the released 1.0.0: a database of 1.0.0 taken to this
# version by ALTER EXTENSION pgbench_ext UPDATE has every object a fresh
# CREATE EXTENSION gives, alike (functions with their definitions,
# volatility, settings and privileges; tables with their columns, defaults,
# constraints, indexes and privileges; sequences; comments; the tables
# pg_dump keeps), and keeps the experiments imported under 1.0.0.
#
# 1.0.0's install script is test/fixtures/extension/pgbench_ext--1.0.0.sql,
# made from the tag v1.0.0's extension/sql/ as the Makefile makes it (a
# clone may lack tags); it is put beside the installed extension's scripts
# when the installation is of this version.
use strict;
use warnings;

use File::Compare ();
use File::Copy ();

my ($fixture, $installed, $skip);

# Before AsServerAccount runs the test again as the server account, which
# may not write the installation.  The installation's 1.0.0 script is
# replaced by the released one only when the installation is of this
# tree's version (a build of 1.0.0 from before the release may be there,
# and then it is the one others' CREATE EXTENSION reads).
BEGIN
{
	use FindBin;
	my $tree = "$FindBin::Bin/../..";
	$fixture = "$tree/test/fixtures/extension/pgbench_ext--1.0.0.sql";
	my $sharedir = `${\ ($ENV{PG_CONFIG} || 'pg_config')} --sharedir`;
	chomp $sharedir;
	$installed = "$sharedir/extension/pgbench_ext--1.0.0.sql";
	my $version_of = sub {
		open my $fh, '<', $_[0] or return '';
		while (<$fh>) { return $1 if /^default_version\s*=\s*'([^']*)'/; }
		return '';
	};
	my $ours = $version_of->("$tree/pgbench_ext.control");
	my $there = $version_of->("$sharedir/extension/pgbench_ext.control");
	if ($there ne $ours)
	{
		$skip = "the installation is of pgbench_ext $there, not $ours: make install first";
	}
	elsif (!-e $installed || File::Compare::compare($installed, $fixture) != 0)
	{
		if (-w "$sharedir/extension")
		{
			File::Copy::copy($fixture, $installed) or die "could not copy $fixture to $installed: $!";
		}
		else
		{
			$skip = "$installed is not the released 1.0.0 and cannot be written here";
		}
	}
}

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $version = control_version();
plan skip_all => $skip if $skip;
(my $sharedir = $installed) =~ s{/extension/[^/]+$}{};
is(File::Compare::compare($installed, $fixture), 0, "the installed 1.0.0 script is the released one");
ok(-e "$sharedir/extension/pgbench_ext--1.0.0--$version.sql", "the update script to $version is installed");

my $node = PostgreSQL::Test::Cluster->new('update');
init_node($node);
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('postgres', 'CREATE DATABASE updated');
$node->safe_psql('fresh', 'CREATE EXTENSION pgbench_ext');
$node->safe_psql('updated', "CREATE EXTENSION pgbench_ext VERSION '1.0.0'");
# an experiment imported under 1.0.0 stays through the update
$node->safe_psql('updated', q{INSERT INTO pgbench_ext.experiments (source_dir, spec) VALUES ('/old', '{}')});
$node->safe_psql('updated', 'ALTER EXTENSION pgbench_ext UPDATE');

# Every object of the extension, one line each, with what defines it.
my $objects = q{
WITH member AS (
    SELECT d.classid, d.objid
    FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'pgbench_ext'),
rel AS (
    SELECT c.oid, c.relkind, c.relacl,
        (SELECT string_agg(format('%s %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                    CASE WHEN a.attnotnull THEN ' not null' ELSE '' END,
                    coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')) ||
                    coalesce(' -- ' || col_description(c.oid, a.attnum), '') || coalesce(' ' || a.attacl::text, ''),
                    ', ' ORDER BY a.attnum)
         FROM pg_attribute a LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
        (SELECT string_agg(conname || ' ' || pg_get_constraintdef(oid), '; ' ORDER BY conname)
         FROM pg_constraint WHERE conrelid = c.oid) AS constraints,
        (SELECT string_agg(pg_get_indexdef(indexrelid), '; ' ORDER BY indexrelid::regclass::text)
         FROM pg_index WHERE indrelid = c.oid) AS indexes
    FROM pg_class c)
SELECT pg_describe_object(m.classid, m.objid, 0) || ': ' ||
    coalesce(CASE
        WHEN m.classid = 'pg_proc'::regclass THEN
            pg_get_functiondef(m.objid) || ' acl ' || coalesce((SELECT proacl::text FROM pg_proc WHERE oid = m.objid), 'default')
        WHEN m.classid = 'pg_class'::regclass THEN
            (SELECT format('kind %s acl %s (%s) constraints %s indexes %s', relkind, coalesce(relacl::text, 'default'),
                    columns, coalesce(constraints, ''), coalesce(indexes, ''))
             FROM rel WHERE rel.oid = m.objid)
        WHEN m.classid = 'pg_type'::regclass THEN format_type(m.objid, NULL)
        ELSE '' END, '?') ||
    ' comment ' || coalesce(obj_description(m.objid, (SELECT relname FROM pg_class WHERE oid = m.classid)), 'none')
FROM member m
UNION ALL
SELECT 'kept by pg_dump: ' || coalesce((SELECT string_agg(c::regclass::text, ', ' ORDER BY c::regclass::text)
    FROM unnest(extconfig) AS c), '')
FROM pg_extension WHERE extname = 'pgbench_ext'
ORDER BY 1};

my @fresh = split /\n/, $node->safe_psql('fresh', $objects);
my @updated = split /\n/, $node->safe_psql('updated', $objects);
cmp_ok(scalar @fresh, '>', 50, scalar(@fresh) . ' objects in a fresh installation');
ok(grep({ /^table pgbench_ext\.jobs: / } @fresh), 'the queue\'s jobs among them');
is($node->safe_psql('updated', "SELECT extversion FROM pg_extension WHERE extname = 'pgbench_ext'"),
	$version, "ALTER EXTENSION UPDATE takes 1.0.0 to $version");
my %in_fresh = map { $_ => 1 } @fresh;
my %in_updated = map { $_ => 1 } @updated;
my @missing = grep { !$in_updated{$_} } @fresh;
my @extra = grep { !$in_fresh{$_} } @updated;
is(scalar(@missing) + scalar(@extra), 0, 'the updated installation has the same objects as the fresh one, alike')
  or diag join("\n", (map { "only fresh:   $_" } @missing), (map { "only updated: $_" } @extra));
is($node->safe_psql('updated', 'SELECT source_dir FROM pgbench_ext.experiments'), '/old',
	'the experiment imported under 1.0.0 is still there');

# the rule holds on the update script: a difference is seen
$node->safe_psql('updated', 'COMMENT ON TABLE pgbench_ext.jobs IS NULL');
my %after = map { $_ => 1 } split /\n/, $node->safe_psql('updated', $objects);
ok(scalar(grep { !$after{$_} } @fresh), 'a comment dropped after the update is a difference');

$node->stop;
done_testing();
